/* libFuzzer target: the levels sidecar reader's range checks (issue 29). The input is a
 * sidecar's text. A sidecar the reader refuses is refused naming it ("s.json: ..."), with no
 * control character in the line; one it accepts holds only values a sensor can give (judged
 * here on their own terms: levels within the depth, black below white in each field, a ratio
 * of 1 to 2^bits and its EV within the depth, noise, gain and scale in range), and each segment's levels
 * are usable as convert uses them: an 8x8 frame at those levels (when they are whole numbers
 * of a depth dual ISO takes, as a clip's are) is reconstructed or passed through, never
 * refused as inconsistent levels (a usage error). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dualiso/dualiso.h"
#include "fuzz_check.h"
#include "analysis/levels_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);


JUDGE static int in(double v, double lo, double hi)
{
    return v >= lo && v <= hi;
}

/* Values a sensor of lv->bits can give, as doc/fuzzing.md states the promise. */
JUDGE static int sensor_levels(const dualiso_levels *lv)
{
    if (lv->bits < 1 || lv->bits > 16 || lv->phase > 3)
        return 0;
    double max = (double)((1u << lv->bits) - 1);
    return in(lv->in_black, 0, max) && in(lv->in_white, lv->in_black + 1, max) &&
           in(lv->ratio, 1, max + 1) && in(lv->ratio_ev, 0, lv->bits) &&
           in(lv->black_dark, 0, max) && in(lv->white_dark, lv->black_dark + 1, max) &&
           in(lv->black_bright, 0, max) && in(lv->white_bright, lv->black_bright + 1, max) &&
           in(lv->noise_dark, 0, max) && in(lv->noise_bright, 0, max) &&
           in(lv->gain_dark, 0, max) && in(lv->out_scale, 1.0 / 65536, 65536) &&
           lv->out_black < lv->out_white && lv->out_white <= 65535;
}

static void use_levels(const dualiso_levels *lv, const uint8_t *data, size_t size,
                       dualiso_workspace *ws)
{
    if (lv->bits < 8 || lv->in_black != floor(lv->in_black) ||
        lv->in_white != floor(lv->in_white))
        return;
    mp_frame f = {0}, out = {0};
    mp_error err = {0};
    CHECK(mp_frame_reserve(&f, 8, 8, &err) == MP_OK);
    f.bits = lv->bits;
    f.black = (uint32_t)lv->in_black;
    f.white = (uint32_t)lv->in_white;
    f.cfa = MP_CFA_RGGB;
    for (uint32_t i = 0; i < 64; i++)
        f.data[i] = (uint16_t)(f.black + (size ? data[i % size] : 0) % (f.white - f.black + 1));
    mp_status st = mp_dualiso_reconstruct(&f, lv, NULL, ws, &out, &err);
    CHECK(st != MP_ERR_ARG);
    if (st == MP_OK)
        CHECK(out.width == 8 && out.height == 8);
    mp_frame_free(&f);
    mp_frame_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static dualiso_workspace *ws;
    if (!ws)
        ws = mp_dualiso_workspace_new();
    CHECK(ws);
    mp_clip_levels cl;
    mp_error err = {0};
    if (mp_clip_levels_from_json((const char *)data, size, "s.json", &cl, &err) != MP_OK) {
        CHECK(!strncmp(err.msg, "s.json: ", 8) && !fuzz_has_control(err.msg));
        return 0;
    }
    for (uint32_t i = 0; i < cl.segment_count; i++) {
        CHECK(sensor_levels(&cl.segments[i].levels));
        use_levels(&cl.segments[i].levels, data, size, ws);
    }
    mp_clip_levels_free(&cl);
    return 0;
}
