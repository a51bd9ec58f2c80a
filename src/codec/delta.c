/* codec/delta: DELTA frames (doc/mlv-format.md 10.1). Both directions add a constant modulo
 * 2^bits, so one loop serves them. */
#include "codec/delta.h"

/* samples[i] = (samples[i] + sign * ref[i] + offset) mod 2^bits */
static void add_ref(uint16_t *samples, const uint16_t *ref, size_t count, unsigned bits,
                    int sign, uint32_t offset)
{
    const uint32_t mask = bits >= 16 ? 0xFFFFu : (1u << bits) - 1;
    for (size_t i = 0; i < count; i++)
        samples[i] = (uint16_t)((samples[i] + (uint32_t)sign * ref[i] + offset) & mask);
}

void mp_delta_decode(uint16_t *samples, const uint16_t *ref, size_t count, unsigned bits)
{
    add_ref(samples, ref, count, bits, 1, 0u - (1u << (bits - 1)));
}

void mp_delta_encode(uint16_t *samples, const uint16_t *ref, size_t count, unsigned bits)
{
    add_ref(samples, ref, count, bits, -1, 1u << (bits - 1));
}
