/* AddressSanitizer's defaults for the libFuzzer targets (linked into each with -Dfuzz=true).
 * A freed block waits in ASan's quarantine before its memory is reused, so that a use after
 * free still hits poisoned bytes. The default 256 MiB quarantine means every allocation of
 * every input gets memory not touched for a long time: pages faulted in afresh and their
 * shadow rewritten, up to half of a reader target's CPU. One input allocates far less than
 * 16 MiB (inputs are at most 64 KiB, frames capped), so a use after free within an input is
 * still caught. Settings in ASAN_OPTIONS override these. */
const char *__asan_default_options(void);

const char *__asan_default_options(void)
{
    return "quarantine_size_mb=16";
}
