/* The colour matrices of the Canon bodies that run Magic Lantern raw video.
 *
 * Source of the coefficients: Adobe DNG Converter's ColorMatrix1 (CalibrationIlluminant1 =
 * 17, Standard light A) and ColorMatrix2 (21, D65), in units of 1/10000, as carried by
 * Magic Lantern's mlv_dump (reticulatedpines/magiclantern_simplified @ 9a0f0b2c8b70,
 * modules/mlv_rec/dng/camera_id.h) and MLV-App (ilia3101/MLV-App @ 9d99e53a5331,
 * src/mlv/camid/camera_id.c; identical for every body both list). The D65 matrices are the
 * ones dcraw and LibRaw carry in their adobe_coeff tables. Each row says which table it was
 * read from. Both tools give the 70D the 6D's matrices; kept as published. */
#include "common/mp_camera_color.h"

#include <string.h>

typedef struct camera_matrices {
    uint32_t model;                  /* IDNT cameraModel */
    const char *name;                /* IDNT cameraName, DNG UniqueCameraModel */
    int16_t a[9], d65[9];            /* x 1/10000 */
} camera_matrices;

static const camera_matrices table[] = {
    {0x80000218, "Canon EOS 5D Mark II", /* ML camera_id.h */
     {5309, -229, -336, -6241, 13265, 3337, -817, 1215, 6664},
     {4716, 603, -830, -7798, 15474, 2480, -1496, 1937, 6651}},
    {0x80000250, "Canon EOS 7D", /* ML camera_id.h */
     {11620, -6350, 5, -2558, 10146, 2813, 24, 858, 6926},
     {6844, -996, -856, -3876, 11761, 2396, -593, 1772, 6198}},
    {0x80000252, "Canon EOS 500D", /* ML camera_id.h */
     {5660, -436, -88, -5034, 12093, 3347, -926, 2289, 6588},
     {4763, 712, -646, -6821, 14399, 2640, -1921, 3276, 6561}},
    {0x80000261, "Canon EOS 50D", /* ML camera_id.h */
     {5852, -578, -41, -4691, 11696, 3427, -886, 2323, 6879},
     {4920, 616, -593, -6493, 13964, 2784, -1774, 3178, 7005}},
    {0x80000270, "Canon EOS 550D", /* ML camera_id.h */
     {7755, -2449, -349, -3106, 10222, 3362, -156, 986, 6409},
     {6941, -1164, -857, -3825, 11597, 2534, -416, 1540, 6039}},
    {0x80000285, "Canon EOS 5D Mark III", /* ML camera_id.h */
     {7234, -1413, -600, -3631, 11150, 2850, -382, 1335, 6437},
     {6722, -635, -963, -4287, 12460, 2028, -908, 2162, 5668}},
    {0x80000286, "Canon EOS 600D", /* ML camera_id.h */
     {7164, -1916, -431, -3361, 10600, 3200, -272, 1058, 6442},
     {6461, -907, -882, -4300, 12184, 2378, -819, 1944, 5931}},
    {0x80000287, "Canon EOS 60D", /* ML camera_id.h */
     {7428, -1897, -491, -3505, 10963, 2929, -337, 1242, 6413},
     {6719, -994, -925, -4408, 12426, 2211, -887, 2129, 6051}},
    {0x80000288, "Canon EOS 1100D", /* ML camera_id.h */
     {6873, -1696, -529, -3659, 10795, 3313, -362, 1165, 7234},
     {6444, -904, -893, -4563, 12308, 2535, -903, 2016, 6728}},
    {0x80000301, "Canon EOS 650D", /* ML camera_id.h */
     {6985, -1611, -397, -3596, 10749, 3295, -349, 1136, 6512},
     {6602, -841, -939, -4472, 12458, 2247, -975, 2039, 6148}},
    {0x80000302, "Canon EOS 6D", /* ML camera_id.h */
     {7546, -1435, -929, -3846, 11488, 2692, -332, 1209, 6370},
     {7034, -804, -1014, -4420, 12564, 2058, -851, 1994, 5758}},
    {0x80000325, "Canon EOS 70D", /* ML camera_id.h (the 6D's matrices) */
     {7546, -1435, -929, -3846, 11488, 2692, -332, 1209, 6370},
     {7034, -804, -1014, -4420, 12564, 2058, -851, 1994, 5758}},
    {0x80000326, "Canon EOS 700D", /* ML camera_id.h */
     {6985, -1611, -397, -3596, 10749, 3295, -349, 1136, 6512},
     {6602, -841, -939, -4472, 12458, 2247, -975, 2039, 6148}},
    {0x80000331, "Canon EOS M", /* ML camera_id.h */
     {6985, -1611, -397, -3596, 10749, 3295, -349, 1136, 6512},
     {6602, -841, -939, -4472, 12458, 2247, -975, 2039, 6148}},
    {0x80000346, "Canon EOS 100D", /* ML camera_id.h */
     {6985, -1611, -397, -3596, 10749, 3295, -349, 1136, 6512},
     {6602, -841, -939, -4472, 12458, 2247, -975, 2039, 6148}},
    {0x80000349, "Canon EOS 5D Mark IV", /* ML camera_id.h */
     {6515, -927, -634, -4068, 11151, 3359, -641, 1839, 7328},
     {6446, -366, -864, -4436, 12204, 2513, -952, 2496, 6348}},
    {0x80000355, "Canon EOS M2", /* MLV-App camera_id.c (not in ML's table) */
     {9599, -3684, -398, -3364, 11398, 2237, -709, 1722, 6487},
     {6400, -480, -888, -5294, 13416, 2047, -1296, 2203, 6137}},
};
#define TABLE_SIZE (sizeof table / sizeof table[0])

static const camera_matrices *find(const mp_camera *cam)
{
    if (!cam || !cam->present)
        return NULL;
    for (size_t i = 0; i < TABLE_SIZE; i++)
        if (table[i].model == cam->model)
            return &table[i];
    /* clips whose IDNT carries a name but no (or an unlisted) model id */
    for (size_t i = 0; i < TABLE_SIZE; i++)
        if (!strcmp(table[i].name, cam->name))
            return &table[i];
    return NULL;
}

uint32_t mp_camera_model_of_name(const char *name)
{
    for (size_t i = 0; i < TABLE_SIZE; i++)
        if (!strcmp(table[i].name, name))
            return table[i].model;
    return 0;
}

static int raw_matrix_usable(const mp_raw_info *raw)
{
    int nonzero = 0;
    for (int k = 0; k < 9; k++) {
        if (raw->color_matrix1[k].den == 0)
            return 0;
        nonzero |= raw->color_matrix1[k].num != 0;
    }
    return nonzero;
}

uint32_t mp_color_calib_resolve(const mp_camera *cam, const mp_raw_info *raw,
                                mp_color_calib *out)
{
    memset(out, 0, sizeof *out);
    const camera_matrices *t = find(cam);
    if (t) {
        out->count = 2;
        out->illuminant[0] = MP_ILLUMINANT_STANDARD_A;
        out->illuminant[1] = MP_ILLUMINANT_D65;
        for (int k = 0; k < 9; k++) {
            out->matrix[0][k] = (mp_rational){t->a[k], 10000};
            out->matrix[1][k] = (mp_rational){t->d65[k], 10000};
        }
        out->table_name = t->name;
    } else if (raw && raw_matrix_usable(raw)) {
        out->count = 1;
        int32_t il = raw->calibration_illuminant;
        out->illuminant[0] = il > 0 && il < 256 ? il : MP_ILLUMINANT_D65;
        memcpy(out->matrix[0], raw->color_matrix1, sizeof out->matrix[0]);
    }
    return out->count;
}

uint32_t mp_color_calib_daylight_index(const mp_color_calib *cal)
{
    for (uint32_t i = 0; i < cal->count; i++)
        if (cal->illuminant[i] == MP_ILLUMINANT_D65)
            return i;
    return 0;
}

void mp_color_calib_matrix(const mp_color_calib *cal, uint32_t index, double m[3][3])
{
    for (int k = 0; k < 9; k++) {
        mp_rational q = cal->matrix[index][k];
        m[k / 3][k % 3] = q.den ? (double)q.num / q.den : 0.0;
    }
}
