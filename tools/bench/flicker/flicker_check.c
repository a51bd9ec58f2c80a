/* flicker_check: issue #4's flicker test on a static dual-ISO clip from mlvsynth.
 *
 *   flicker_check [options] CLIP.truth.json DNG_DIR
 *       the DNG sequence `mlvpipe convert` wrote (levels pooled over the clip)
 *   flicker_check [options] --per-frame CLIP.MLV CLIP.truth.json
 *       the same clip reconstructed in memory with levels estimated from each frame alone
 *       (the way cr2hdr and MLVFS work); --cr2hdr-black adds cr2hdr's integer black
 *
 * Per band of true signal: the frame-to-frame standard deviation of the band's mean error
 * against truth (band_stats.h), the standard deviation shot and read noise alone predict,
 * their ratio, PASS when ratio <= limit (1.5). Exit 0 all bands pass, 1 a band fails,
 * 2 the input could not be measured. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "band_stats.h"
#include "clip_truth.h"
#include "dng_read.h"
#include "per_frame.h"

#define EXIT_FAILED_CHECK 1
#define EXIT_BAD_INPUT 2

typedef struct options {
    const char *truth, *source;
    int per_frame, cr2hdr_black, fine, list_frames;
    double limit;
} options;

static void usage(FILE *to)
{
    fprintf(to,
"Usage: flicker_check [options] CLIP.truth.json DNG_DIR\n"
"       flicker_check [options] --per-frame CLIP.MLV CLIP.truth.json\n"
"Frame-to-frame flicker of a static mlvsynth dual-ISO clip per band of true signal,\n"
"against what shot and read noise alone predict (doc/dualiso.md 8.7).\n"
"  --per-frame      reconstruct CLIP.MLV with levels estimated from each frame alone\n"
"  --cr2hdr-black   with --per-frame: black level = floor of the frame's optical-black\n"
"                   mean, as cr2hdr writes it (integer BlackLevel per file)\n"
"  --fine           1-EV bands 2..14 EV as well as the 3-EV bands\n"
"  --limit R        largest allowed measured / predicted ratio          [1.5]\n"
"  --frames         list every frame's band errors\n"
"Exit: 0 every band within the limit, 1 a band beyond it, 2 unusable input.\n");
}

static int parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->limit = 1.5;
    const char *pos[2] = {NULL, NULL};
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--per-frame"))
            o->per_frame = 1;
        else if (!strcmp(a, "--cr2hdr-black"))
            o->cr2hdr_black = 1;
        else if (!strcmp(a, "--fine"))
            o->fine = 1;
        else if (!strcmp(a, "--frames"))
            o->list_frames = 1;
        else if (!strcmp(a, "--limit") && i + 1 < argc) {
            char *end;
            o->limit = strtod(argv[++i], &end);
            if (*end || !(o->limit > 0)) {
                fprintf(stderr, "flicker_check: --limit %s is not a positive number\n", argv[i]);
                return 0;
            }
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        } else if (a[0] == '-' || npos == 2) {
            fprintf(stderr, "flicker_check: unexpected argument %s\n", a);
            return 0;
        } else
            pos[npos++] = a;
    }
    if (npos != 2 || (o->cr2hdr_black && !o->per_frame)) {
        usage(stderr);
        return 0;
    }
    o->truth = o->per_frame ? pos[1] : pos[0];
    o->source = o->per_frame ? pos[0] : pos[1];
    return 1;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .dng files of dir in name order (mlvpipe numbers them with leading zeros). */
static mp_status list_dngs(const char *dir, char ***names, uint32_t *count, mp_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return mp_error_set(err, MP_ERR_IO, "%s: cannot open the directory", dir);
    char **list = NULL;
    uint32_t n = 0, cap = 0;
    mp_status st = MP_OK;
    for (struct dirent *e; st == MP_OK && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcasecmp(e->d_name + len - 4, ".dng"))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **p = cap < (1u << 24) ? realloc(list, cap * sizeof *p) : NULL;
            if (!p) {
                st = mp_error_set(err, MP_ERR_NOMEM, "%s: too many files", dir);
                break;
            }
            list = p;
        }
        size_t size = strlen(dir) + len + 2;
        if (!(list[n] = malloc(size))) {
            st = mp_error_set(err, MP_ERR_NOMEM, "%s: cannot allocate", dir);
            break;
        }
        snprintf(list[n++], size, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    if (list)
        qsort(list, n, sizeof *list, by_name);
    *names = list;
    *count = n;
    return st;
}

/* The active area and crop of a DNG must be the clip's, or we compare other photosites. */
static mp_status check_geometry(const char *path, const fc_dng *d, const clip_truth *t,
                                mp_error *err)
{
    uint32_t top = t->sensor.ob_top, left = t->sensor.ob_left;
    if (d->frame.width != t->width || d->frame.height != t->height || d->active[0] != top ||
        d->active[1] != left || d->active[2] != t->height || d->active[3] != t->width)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: %ux%u with ActiveArea %u %u %u %u, the clip "
                            "is %ux%u with its active area at %u %u %u %u", path,
                            d->frame.width, d->frame.height, d->active[0], d->active[1],
                            d->active[2], d->active[3], t->width, t->height, top, left,
                            t->height, t->width);
    if (d->crop_size[0] != t->active_width || d->crop_size[1] != t->active_height)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: DefaultCrop %gx%g is not the %ux%u active "
                            "area", path, d->crop_size[0], d->crop_size[1], t->active_width,
                            t->active_height);
    if (d->frame.cfa != MP_CFA_RGGB)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: CFA pattern 0x%08x, the clip is RGGB",
                            path, d->frame.cfa);
    return MP_OK;
}

/* The band sets measured on every frame: the 3-EV bands, and with --fine the 1-EV ones. */
typedef struct band_sets {
    const clip_truth *truth;
    const fb_bands *set[2];
    double *errors[2];             /* frames x set[i]->count, frame-major */
    uint32_t count;
} band_sets;

static mp_status measure_frame(void *opaque, uint32_t index, const mp_frame *out,
                               double black, double white, mp_error *err)
{
    band_sets *bs = opaque;
    mp_status st = MP_OK;
    for (uint32_t s = 0; st == MP_OK && s < bs->count; s++)
        st = fb_frame_errors(bs->set[s], bs->truth, out, black, white,
                             bs->errors[s] + (size_t)index * bs->set[s]->count, err);
    return st;
}

static mp_status measure_dngs(const char *dir, band_sets *bs, mp_error *err)
{
    const clip_truth *t = bs->truth;
    char **names = NULL;
    uint32_t n = 0;
    mp_status st = list_dngs(dir, &names, &n, err);
    if (st == MP_OK && n != t->frames)
        st = mp_error_set(err, MP_ERR_FORMAT, "%s: %u DNG files, the clip has %u frames", dir,
                          n, t->frames);
    fc_dng d;
    memset(&d, 0, sizeof d);
    for (uint32_t f = 0; st == MP_OK && f < n; f++) {
        st = fc_dng_read(names[f], &d, err);
        if (st == MP_OK)
            st = check_geometry(names[f], &d, t, err);
        if (st == MP_OK)
            st = measure_frame(bs, f, &d.frame, d.black, d.white, err);
    }
    fc_dng_free(&d);
    for (uint32_t f = 0; f < n; f++)
        free(names[f]);
    free(names);
    return st;
}

static int print_table(const options *o, const fb_bands *b, const double *errors,
                       uint32_t frames)
{
    fb_summary s[FB_MAX_BANDS];
    fb_summarise(b, errors, frames, s);
    int failed = 0;
    printf("band EV   pixels  mean err %%  range %%               std %%    predicted %%  "
           "ratio  verdict\n");
    for (uint32_t k = 0; k < b->count; k++) {
        char band[24];
        snprintf(band, sizeof band, "[%.0f,%.0f)", b->lo_ev[k], b->hi_ev[k]);
        if (b->n[k] == 0) { /* an empty band proves nothing */
            printf("%-8s %7u  %-65sEMPTY\n", band, 0u, "(no pixel of the scene in this band)");
            failed = 1;
            continue;
        }
        int pass = s[k].ratio <= o->limit;
        failed |= !pass;
        printf("%-8s %7llu  %+9.4f  %+9.4f .. %+9.4f  %8.4f  %10.4f  %6.2f  %s\n", band,
               (unsigned long long)b->n[k], s[k].mean_pct, s[k].min_pct, s[k].max_pct,
               s[k].std_pct, s[k].predicted_std_pct, s[k].ratio, pass ? "PASS" : "FAIL");
    }
    return failed;
}

int main(int argc, char **argv)
{
    options o;
    if (!parse_args(argc, argv, &o))
        return EXIT_BAD_INPUT;
    mp_error err = {0};
    clip_truth t;
    fb_bands coarse, fine;
    memset(&coarse, 0, sizeof coarse);
    memset(&fine, 0, sizeof fine);
    band_sets bs = {&t, {&coarse, &fine}, {NULL, NULL}, o.fine ? 2 : 1};
    per_frame_levels spread;
    memset(&spread, 0, sizeof spread);
    mp_status st = clip_truth_load(o.truth, &t, &err);
    if (st == MP_OK)
        st = fb_bands_init(&coarse, &t, 2, 3, 4, &err);   /* 8.7: [2,5) .. [11,14) EV */
    if (st == MP_OK && o.fine)
        st = fb_bands_init(&fine, &t, 2, 1, 12, &err);    /* [2,3) .. [13,14) EV */
    for (uint32_t s = 0; st == MP_OK && s < bs.count; s++)
        if (!(bs.errors[s] = calloc((size_t)t.frames * bs.set[s]->count, sizeof(double))))
            st = mp_error_set(&err, MP_ERR_NOMEM, "flicker: cannot allocate the error table");
    if (st == MP_OK)
        st = o.per_frame ? per_frame_measure(o.source, &t, o.cr2hdr_black, measure_frame, &bs,
                                             &spread, &err)
                         : measure_dngs(o.source, &bs, &err);
    int rc;
    if (st != MP_OK) {
        fprintf(stderr, "flicker_check: %s\n", err.msg);
        rc = EXIT_BAD_INPUT;
    } else {
        printf("flicker_check: %u frames, active %ux%u, %s\n", t.frames, t.active_width,
               t.active_height,
               o.per_frame ? (o.cr2hdr_black ? "levels from each frame alone, integer black "
                                               "from the frame's optical black (cr2hdr)"
                                             : "levels from each frame alone")
                           : "mlvpipe DNGs (each normalised by its own BlackLevel/WhiteLevel)");
        if (o.per_frame)
            printf("per-frame levels: ratio %.4f .. %.4f EV, bright-field black %+.3f .. %+.3f "
                   "DN, output black %u .. %u, white %u .. %u\n", spread.ratio_ev_min,
                   spread.ratio_ev_max, spread.black_bright_min, spread.black_bright_max,
                   spread.out_black_min, spread.out_black_max, spread.out_white_min,
                   spread.out_white_max);
        int failed = 0;
        for (uint32_t s = 0; s < bs.count; s++)
            failed |= print_table(&o, bs.set[s], bs.errors[s], t.frames);
        if (o.list_frames)
            for (uint32_t f = 0; f < t.frames; f++) {
                printf("frame %3u:", f);
                for (uint32_t k = 0; k < coarse.count; k++)
                    printf(" %+8.4f", bs.errors[0][(size_t)f * coarse.count + k]);
                printf("\n");
            }
        printf("%s: measured / predicted <= %.2f in %s band\n", failed ? "FAIL" : "PASS",
               o.limit, failed ? "not every" : "every");
        rc = failed ? EXIT_FAILED_CHECK : 0;
    }
    for (uint32_t s = 0; s < 2; s++)
        free(bs.errors[s]);
    fb_bands_free(&coarse);
    fb_bands_free(&fine);
    clip_truth_free(&t);
    return rc;
}
