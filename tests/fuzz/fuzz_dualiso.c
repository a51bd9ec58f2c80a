/* libFuzzer target: dual-ISO detection, statistics, level pooling and reconstruction on
 * arbitrary pixels and levels. The first 12 bytes give the frame (width, height, depth,
 * black, white, phase, options, nominal EV); the rest are the samples (repeated to fill the
 * frame, kept within the depth as the reader guarantees). Whatever the levels pool to (or
 * the passthrough when they do not), reconstruction must not fail on a frame of the size
 * and depth they were made for, and must give the same bytes twice. */
#include <stdlib.h>
#include <string.h>

#include "dualiso/dualiso.h"

#define MAX_PIXELS 1024u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t u16(const uint8_t *p) { return p[0] | (uint32_t)p[1] << 8; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 14)
        return 0;
    mp_frame in = {0};
    uint32_t w = 8 + 2 * (data[0] % 61u), h = 8 + 4 * (data[1] % 31u);
    if (w * h > MAX_PIXELS)   /* any width or height, not both large: thousands of runs a second */
        h = MAX_PIXELS / w / 4 * 4;
    mp_error err;
    if (mp_frame_reserve(&in, w, h, &err) != MP_OK)
        abort();
    in.bits = 10 + data[2] % 7u;
    uint32_t max = (1u << in.bits) - 1;
    in.black = u16(data + 3) % (max + 1);
    in.white = u16(data + 5) % (max + 1);
    in.cfa = MP_CFA_RGGB;
    const uint8_t *px = data + 12;
    size_t n = (size - 12) / 2;
    for (size_t i = 0; i < (size_t)w * h; i++)
        in.data[i] = n ? (uint16_t)(u16(px + 2 * (i % n)) & max) : 0;

    dualiso_detection det;
    dualiso_levels lv;
    static dualiso_stats stats;   /* 70 KiB, overwritten by every collect: not allocated per input */
    dualiso_stats *st = &stats;
    int have = mp_dualiso_detect(&in, &det, &err) == MP_OK;
    uint32_t phase = det.is_dual && have ? det.phase : data[7] & 3u;
    dualiso_pool_options po;
    mp_dualiso_pool_options_default(&po);
    po.nominal_ev = data[9] % 8u;
    if (have && mp_dualiso_stats_collect(&in, phase, st, &err) == MP_OK &&
        mp_dualiso_levels_pool(st, 1, &po, &lv, &err) == MP_OK)
        have = 1;
    else
        have = mp_dualiso_levels_passthrough(&in, &lv, &err) == MP_OK;
    if (have) {
        dualiso_options o;
        mp_dualiso_options_default(&o);
        o.row_align = data[8] & 1;
        o.bad_pixels = data[8] >> 1 & 1;
        o.shadow_smooth = data[8] >> 2 & 1;
        static const int chroma[4] = {0, 2, 3, 5};
        o.chroma_smooth = chroma[data[8] >> 3 & 3];
        static const float denoise[4] = {0, 0.5f, 1, 3};
        o.denoise = denoise[data[8] >> 5 & 3];
        /* one workspace for every input, as a worker thread keeps it from frame to frame */
        static dualiso_workspace *ws;
        if (!ws)
            ws = mp_dualiso_workspace_new();
        mp_frame a = {0}, b = {0};
        if (!ws || mp_dualiso_reconstruct(&in, &lv, &o, ws, &a, &err) != MP_OK ||
            mp_dualiso_reconstruct(&in, &lv, &o, ws, &b, &err) != MP_OK ||
            memcmp(a.data, b.data, (size_t)w * h * sizeof *a.data))
            abort();
        mp_frame_free(&a);
        mp_frame_free(&b);
    }
    mp_frame_free(&in);
    return 0;
}
