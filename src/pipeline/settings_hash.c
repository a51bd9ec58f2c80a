/* The reconstruction settings as hash input, field by field: hashing the structs' bytes
 * would take in padding, whose contents vary. */
#include "pipeline/cache_key.h"

#include <string.h>

void mp_cache_hash_reconstruction(mp_cache_hash *h, const dualiso_levels *lv,
                                  const dualiso_options *opt)
{
    mp_cache_hash_u32(h, (uint32_t)lv->is_dual);
    mp_cache_hash_u32(h, lv->phase);
    mp_cache_hash_u32(h, lv->bits);
    mp_cache_hash_u32(h, lv->ratio_source);
    const double values[] = {lv->in_black,   lv->in_white,     lv->ratio,      lv->ratio_ev,
                             lv->black_dark, lv->black_bright, lv->white_dark, lv->white_bright,
                             lv->noise_dark, lv->noise_bright, lv->gain_dark,  lv->out_scale};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        mp_cache_hash_f64(h, values[i]);
    mp_cache_hash_u32(h, lv->frames_used);
    mp_cache_hash_u32(h, lv->cells_used);
    mp_cache_hash_u32(h, lv->out_black);
    mp_cache_hash_u32(h, lv->out_white);

    dualiso_options defaults;
    if (!opt) {
        mp_dualiso_options_default(&defaults);
        opt = &defaults;
    }
    mp_cache_hash_u32(h, (uint32_t)opt->row_align);
    mp_cache_hash_u32(h, (uint32_t)opt->bad_pixels);
    mp_cache_hash_u32(h, (uint32_t)opt->shadow_smooth);
    /* off gives the bytes of before the option existed, so it keeps their keys */
    if (opt->chroma_smooth)
        mp_cache_hash_u32(h, (uint32_t)opt->chroma_smooth);
    /* the same for denoise (0: off); its bits, so that every value has its own key */
    uint32_t denoise_bits;
    memcpy(&denoise_bits, &opt->denoise, sizeof denoise_bits);
    if (denoise_bits)
        mp_cache_hash_u32(h, denoise_bits);
}
