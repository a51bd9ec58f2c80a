/* The blend kernels written once over a small vector vocabulary; x86/blend_sse2.c,
 * x86/blend_avx2.c and arm/blend_neon.c define it (type vf, VW lanes, v_* operations, FN)
 * and include this file.
 * Each step mirrors a line of dualiso_blend_noise_px / dualiso_blend_mix_px in dsp.h, in
 * the same order, so the lanes compute exactly what the C code does. */

/* a ? b : c, per lane, for an all-ones / all-zeros mask a */
static inline vf v_sel(vf m, vf a, vf b)
{
    return v_or(v_and(m, a), v_andnot(m, b));
}

/* dualiso_smooth_fade per lane: constants outside the band, libm's cosf inside it (the
 * band is narrow, so the per-lane calls are rare and exactly the C function's result). */
static inline vf v_fade(vf t)
{
    vf below = v_le(t, v_set1(0)), above = v_ge(t, v_set1(1));
    if (v_mask(v_or(below, above)) == VMASK_ALL)
        return v_and(below, v_set1(1));
    float lane[VW];
    v_storeu(lane, t);
    for (int i = 0; i < VW; i++)
        lane[i] = dualiso_smooth_fade(lane[i]);
    return v_loadu(lane);
}

/* dualiso_fade_of per lane: the division only when a lane is inside the band. */
static inline vf v_fade_of(vf a, float span)
{
    const vf s = v_set1(span);
    if (span > 0) {
        vf below = v_le(a, v_set1(0)), above = v_ge(a, s);
        if (v_mask(v_or(below, above)) == VMASK_ALL)
            return v_and(below, v_set1(1));
    }
    return v_fade(v_div(a, s));
}

void FN(mp_dualiso_blend_noise)(const dualiso_blend_row *r, uint32_t x0, uint32_t x1)
{
    const int bright = r->bright;
    const vf zero = v_set1(0), half = v_set1(0.5f), two = v_set1(2);
    const vf gain = v_set1(r->gain), var_d = v_set1(r->var_d), var_b = v_set1(r->var_b);
    const vf side = v_set1(SIDE_SIGMAS * SIDE_SIGMAS * 2), resolve = v_set1(SIDE_RESOLVE);
    uint32_t x = x0;
    for (; x + VW <= x1; x += VW) {
        vf n = v_loadu(r->nat + x), o = v_loadu(r->est + x), m = v_loadu(r->mis + x);
        vf n_ok = v_flag_zero(r->nclip + x), o_ok = v_flag_zero(r->est_clip + x);
        vf mid = v_not(v_flag_zero(r->est_mid + x));
        vf photon = v_mul(gain, v_max(v_loadu(r->lev_mean + x), zero));
        vf vd = v_add(var_d, photon), vb = v_add(var_b, photon);
        vf vn = bright ? vb : vd, vi = bright ? vd : vb;
        vf mm = v_mul(m, m);
        vf pair = v_sub(mm, v_mul(two, vi));
        vf vo = v_add_scaled_double(v_mul(half, vi), INTERP_ERR, v_max(pair, zero));
        vf side_pick = v_and(v_and(mid, n_ok), v_and(v_gt(pair, v_mul(side, vi)),
                                                     v_gt(mm, v_mul(resolve, vn))));
        if (v_mask(side_pick)) {
            vf hm = v_mul(half, m);
            vf lo = v_sub(o, hm), hi = v_add(o, hm);
            vf pick = v_sel(v_lt(v_abs(v_sub(n, lo)), v_abs(v_sub(n, hi))), lo, hi);
            o = v_sel(side_pick, pick, o);
            vo = v_sel(side_pick, vi, vo);
            v_storeu(r->est + x, o);
        }
        vf dn = v_sub(n, o);
        vf ex = v_sub(v_sub(v_mul(dn, dn), vn), vo);
        v_storeu(r->vn + x, vn);
        v_storeu(r->vo + x, vo);
        v_storeu(r->ex + x, v_and(v_and(n_ok, o_ok), ex));
    }
    mp_dualiso_blend_noise_c(r, x, x1);
}

void FN(mp_dualiso_blend_mix)(const dualiso_blend_row *r, uint32_t x0, uint32_t x1)
{
    const int bright = r->bright, shadow = r->shadow;
    const float *bval = bright ? r->nat : r->est;
    const uint8_t *bclip = bright ? r->nclip : r->est_clip;
    const vf zero = v_set1(0), one = v_set1(1), half = v_set1(0.5f), quarter = v_set1(0.25f);
    const vf alias_k = v_set1(r->alias_k), clip_floor = v_set1(r->clip_floor);
    const vf shadow_lo = v_set1(r->shadow_lo), fade_lo = v_set1(r->fade_lo);
    const vf k_var = v_set1(0.625f), ob = v_set1(r->ob), oscale = v_set1(r->oscale);
    const vf owhite = v_set1(r->owhite);
    /* the vectors cover the columns with both shadow-smoothing neighbours in the row */
    uint32_t x = x0, lo_end = x1 < 2 ? x1 : 2;
    if (x < lo_end) {
        mp_dualiso_blend_mix_c(r, x, lo_end);
        x = lo_end;
    }
    for (; x + VW + 2 <= x1 && x + VW + 2 <= r->w; x += VW) {
        vf alias = v_sub(v_loadu(r->ex + x),
                         v_mul(alias_k, v_add(v_loadu(r->vn + x), v_loadu(r->vo + x))));
        vf n = v_loadu(r->nat + x), o = v_loadu(r->est + x);
        vf n_ok = v_flag_zero(r->nclip + x), o_ok = v_flag_zero(r->est_clip + x);
        vf D = bright ? o : n, B = bright ? n : o;
        vf d_ok = bright ? o_ok : n_ok, b_ok = bright ? n_ok : o_ok;
        if (bright)
            D = v_sel(v_andnot(n_ok, v_lt(D, clip_floor)), clip_floor, D);
        vf v_o = v_add(v_loadu(r->vo + x), v_max(alias, zero));
        vf vn = v_loadu(r->vn + x);
        vf vd = bright ? v_o : vn, vb = bright ? vn : v_o;
        vf lm = v_loadu(r->lev_mean + x);
        if (shadow) {
            vf sm = v_and(b_ok, v_and(v_flag_zero(bclip + x - 2), v_flag_zero(bclip + x + 2)));
            if (v_mask(sm)) {
                vf smooth = v_add(v_mul(half, B),
                                  v_mul(quarter, v_add(v_loadu(bval + x - 2),
                                                       v_loadu(bval + x + 2))));
                vf k = v_fade_of(v_sub(lm, shadow_lo), r->shadow_span);
                if (shadow == 1)
                    B = v_sel(sm, v_add(B, v_mul(k, v_sub(smooth, B))), B);
                vb = v_sel(sm, v_mul(vb, v_sub(one, v_mul(k_var, k))), vb);
            }
        }
        vf fade = v_and(b_ok, v_fade_of(v_sub(lm, fade_lo), r->fade_span));
        vf wd = v_and(d_ok, v_div(one, vd)), wb = v_div(fade, vb);
        vf sum = v_add(wd, wb);
        vf mix = v_add(ob, v_div(v_mul(oscale, v_add(v_mul(wd, D), v_mul(wb, B))), sum));
        vf out = v_sel(v_gt(sum, zero), mix, owhite);
        out = v_sel(v_gt(out, owhite), owhite, out);
        out = v_sel(v_lt(out, zero), zero, out);
        v_store_u16(r->dst + x, v_add(out, half));
    }
    mp_dualiso_blend_mix_c(r, x, x1);
}
