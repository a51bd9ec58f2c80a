#include "common/mp_color_math.h"

#include <math.h>

mat3 mp_mat3_mul(mat3 a, mat3 b)
{
    mat3 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r.m[i][j] = a.m[i][0] * b.m[0][j] + a.m[i][1] * b.m[1][j] + a.m[i][2] * b.m[2][j];
    return r;
}

void mp_mat3_apply(const mat3 *a, const double in[3], double out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = a->m[i][0] * in[0] + a->m[i][1] * in[1] + a->m[i][2] * in[2];
}

int mp_mat3_invert(mat3 a, mat3 *inv)
{
    const double (*m)[3] = a.m;
    double c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1];
    double c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2];
    double c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
    double det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02;
    double scale = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            scale = fmax(scale, fabs(m[i][j]));
    /* relative test: a matrix of tiny but well-conditioned entries is still invertible */
    if (!(scale > 0) || !(fabs(det) > 1e-9 * scale * scale * scale))
        return 0;
    double d = 1.0 / det;
    inv->m[0][0] = c00 * d;
    inv->m[1][0] = c01 * d;
    inv->m[2][0] = c02 * d;
    inv->m[0][1] = (m[0][2] * m[2][1] - m[0][1] * m[2][2]) * d;
    inv->m[1][1] = (m[0][0] * m[2][2] - m[0][2] * m[2][0]) * d;
    inv->m[2][1] = (m[0][1] * m[2][0] - m[0][0] * m[2][1]) * d;
    inv->m[0][2] = (m[0][1] * m[1][2] - m[0][2] * m[1][1]) * d;
    inv->m[1][2] = (m[0][2] * m[1][0] - m[0][0] * m[1][2]) * d;
    inv->m[2][2] = (m[0][0] * m[1][1] - m[0][1] * m[1][0]) * d;
    return 1;
}

void mp_xy_to_xyz(double x, double y, double xyz[3])
{
    xyz[0] = x / y;
    xyz[1] = 1.0;
    xyz[2] = (1.0 - x - y) / y;
}

mat3 mp_gamut_rgb_to_xyz(mp_gamut g, double white_xyz[3])
{
    double xy[4][2];
    mp_gamut_chromaticities(g, xy);
    mat3 prim;
    for (int c = 0; c < 3; c++) {
        double x = xy[c][0], y = xy[c][1];
        prim.m[0][c] = x;
        prim.m[1][c] = y;
        prim.m[2][c] = 1.0 - x - y;
    }
    mp_xy_to_xyz(xy[3][0], xy[3][1], white_xyz);
    /* scale each primary so that RGB (1,1,1) lands on the white */
    mat3 inv;
    mp_mat3_invert(prim, &inv); /* the primaries of a real gamut are independent */
    double s[3];
    mp_mat3_apply(&inv, white_xyz, s);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            prim.m[r][c] *= s[c];
    return prim;
}

void mp_illuminant_xyz(int32_t code, double xyz[3])
{
    switch (code) {
    case 17: mp_xy_to_xyz(0.44757, 0.40745, xyz); break;   /* standard light A */
    case 20: mp_xy_to_xyz(0.33242, 0.34743, xyz); break;   /* D55 */
    case 22: mp_xy_to_xyz(0.29902, 0.31485, xyz); break;   /* D75 */
    case 23: mp_xy_to_xyz(0.34567, 0.35850, xyz); break;   /* D50 */
    default: mp_xy_to_xyz(0.3127, 0.3290, xyz); break;     /* 21 = D65, and unknown codes */
    }
}

mat3 mp_bradford(const double from[3], const double to[3])
{
    static const mat3 b = {{{0.8951, 0.2664, -0.1614},
                            {-0.7502, 1.7135, 0.0367},
                            {0.0389, -0.0685, 1.0296}}};
    mat3 binv;
    mp_mat3_invert(b, &binv);
    double cf[3], ct[3];
    mp_mat3_apply(&b, from, cf);
    mp_mat3_apply(&b, to, ct);
    mat3 d = {{{ct[0] / cf[0], 0, 0}, {0, ct[1] / cf[1], 0}, {0, 0, ct[2] / cf[2]}}};
    return mp_mat3_mul(binv, mp_mat3_mul(d, b));
}

int mp_camera_to_output(mat3 cm, const double neutral[3], mp_gamut g, mat3 *out)
{
    mat3 cam_to_xyz;
    if (!mp_mat3_invert(cm, &cam_to_xyz))
        return 0;
    double white[3];
    mp_mat3_apply(&cam_to_xyz, neutral, white);
    /* a white must have positive luminance and lie in front of the spectral locus' origin */
    if (!(white[1] > 0) || !(white[0] > 0) || !(white[2] > 0))
        return 0;
    double target[3];
    mat3 rgb_to_xyz = mp_gamut_rgb_to_xyz(g, target), xyz_to_rgb;
    mp_mat3_invert(rgb_to_xyz, &xyz_to_rgb);
    double white1[3] = {white[0] / white[1], 1.0, white[2] / white[1]};
    mat3 m = mp_mat3_mul(xyz_to_rgb, mp_mat3_mul(mp_bradford(white1, target), cam_to_xyz));
    /* white-balanced input: camera = neutral * wb, so fold diag(neutral) in, then scale the
     * scene white to Y = 1 so that (1,1,1) -> (1,1,1) */
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            out->m[r][c] = m.m[r][c] * neutral[c] / white[1];
    return 1;
}
