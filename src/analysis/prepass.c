#include "analysis/prepass.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dualiso/dualiso.h"
#include "analysis/dark_load.h"
#include "engine/workpool.h"
#include "parts_runner.h"

void mp_prepass_options_default(mp_prepass_options *o)
{
    memset(o, 0, sizeof *o);
    o->force_phase = -1;
}

uint64_t mp_prepass_options_hash(const mp_prepass_options *o)
{
    char canon[160], dark[48] = "";
    if (o->dark && o->dark->width)
        snprintf(dark, sizeof dark, " dark=%016llx", (unsigned long long)mp_dark_hash(o->dark));
    /* dark_segments=clip: undetected segments of a dual-ISO clip follow the clip; rawfix=5:
     * maps that leave a still scene's steady candidates alone (session 11), made from 16 of
     * the 32 samples where those are settled (session 13), taking those too quiet for their
     * level (session 14), also under a changing light and from 32 samples while one may be
     * (session 15) */
    int n = snprintf(canon, sizeof canon, "levels v%d samples=%u force_phase=%d "
                     "dark_segments=clip%s%s", MP_LEVELS_FORMAT_VERSION, MP_SAMPLES_PER_SEGMENT,
                     o->force_phase, o->no_defects ? "" : " rawfix=5", dark);
    return mp_fnv1a64(canon, (size_t)n, MP_FNV1A64_SEED);
}

mp_status mp_clip_segments(const mlv_clip *clip, mp_segment **segs, uint32_t *count,
                           mp_error *err)
{
    uint32_t n = mp_mlv_clip_get_info(clip)->frame_count;
    uint32_t *seg_of = malloc((n ? n : 1) * sizeof *seg_of);
    if (!seg_of)
        return mp_error_set(err, MP_ERR_NOMEM, "out of memory for %u frames", n);
    mp_status st = MP_OK;
    for (uint32_t i = 0; i < n && st == MP_OK; i++) {
        mlv_frame_info fi;
        st = mp_mlv_frame_info_get(clip, i, &fi);
        seg_of[i] = fi.segment;
    }
    if (st != MP_OK)
        st = mp_error_set(err, st, "%s: frame index unreadable", mp_mlv_clip_path(clip, 0));
    else
        st = mp_segments_find(seg_of, n, segs, count, err);
    free(seg_of);
    return st;
}

/* The probe of a segment with no sign of dual ISO: a sample is clearly single ISO when
 * detection had many pixel pairs (not a dark or tiny frame) and no row class told apart. */
#define PROBE 4u
#define ABSENT_PAIRS 10000
#define ABSENT_CONFIDENCE 0.25

/* Bands of rows that workers add their raw-defect measurements to one at a time. */
#define DEFECT_BANDS 16u
#define DEFECT_BAND_STEP 7u          /* prime to DEFECT_BANDS, near half of it */

/* A sample's payload, read by the pool's I/O thread (the pool's slots are the ring). */
typedef struct sample_slot {
    mlv_payload payload;
    mp_error read_error;          /* code: the read's status */
} sample_slot;

/* A segment's raw-defect map built on a thread of its own while the pool reads the second
 * tier's samples for their dual-ISO statistics only (run_rest): the sums are final then, and
 * the map builder's time (0.1-0.15 s for 1080p, one thread) no longer waits between the
 * pre-pass and the frames. */
typedef struct early_map {
    pthread_t thread;
    int made;                    /* joined: map, chosen and st hold its result */
    rawfix_map map;
    int chosen;                  /* the prior taken, or -1 */
    mp_status st;
    mp_error err;
} early_map;

/* One segment's samples, shared by the pool's workers; each job fills its own entries. */
typedef struct sample_set {
    const mlv_clip *clip;
    const mp_prepass_options *opt;
    /* -1: statistics of the frames detected as dual, each with its own phase. Else the
     * statistics of every readable frame with this phase (a segment of a dual-ISO clip
     * too dark or flat for detection). */
    int clip_phase;
    sample_slot *slots;
    uint32_t jobs[MP_SAMPLES_PER_SEGMENT];    /* the sample each pool job handles */
    uint32_t index[MP_SAMPLES_PER_SEGMENT];   /* clip indices */
    uint32_t count;                           /* samples of the segment being read */
    mp_error damage;                          /* a one-sample segment's (a still's) damage:
                                               * the error's one line, not a warning too */
    int usable[MP_SAMPLES_PER_SEGMENT];       /* read without damage */
    int dual[MP_SAMPLES_PER_SEGMENT];
    uint32_t phase[MP_SAMPLES_PER_SEGMENT];   /* detected (or forced); valid when dual */
    int absent[MP_SAMPLES_PER_SEGMENT];       /* plenty of evidence and no trace of the pattern */
    dualiso_stats *stats;                     /* MP_SAMPLES_PER_SEGMENT entries */
    mp_progress_event progress;               /* LEVELS: samples read so far, of total */
    double start_s;
    rawfix_accum *defects;                    /* NULL: raw defects not looked for */
    int single_decided;                       /* the probe found the segment single ISO: the
                                               * other samples are read for defects only */
    int defects_settled;                      /* the first tier's defect sums are final */
    pthread_mutex_t defects_lock;             /* claiming a sample in defects */
    pthread_mutex_t band_lock[DEFECT_BANDS];  /* adding to a band of rows of defects */
    const mlv_frame_info *first;              /* the segment's first frame (the map's priors) */
    early_map early;                          /* the map built beside the second tier */
    uint32_t map_threads;                     /* the defect sums' passes run on (parts_runner) */
    /* Kept from one pool run of a segment to the next (it takes up to three), so that their
     * frame-sized buffers are not made, faulted in and unmapped again each time: */
    uint32_t slot_count;                      /* slots allocated (the largest window yet) */
    struct sample_ctx *spare;                 /* workers' contexts between runs */
    pthread_mutex_t spare_lock;
} sample_set;

typedef struct sample_ctx {
    mlv_scratch scratch;
    mp_frame frame;
    rawfix_measurement defects;
    struct sample_ctx *next;                  /* in sample_set.spare */
} sample_ctx;

/* A spare context, else a new one: what a job computes does not depend on its context's
 * earlier jobs, in this run or another. */
static mp_status sample_ctx_create(void *user, void **ctx, mp_error *err)
{
    sample_set *s = user;
    pthread_mutex_lock(&s->spare_lock);
    sample_ctx *c = s->spare;
    if (c)
        s->spare = c->next;
    pthread_mutex_unlock(&s->spare_lock);
    if (!c) {
        if (!(c = calloc(1, sizeof *c)))
            return mp_error_set(err, MP_ERR_NOMEM, "pre-pass: out of memory");
        c->scratch.ref_index = -1;
    }
    *ctx = c;
    return MP_OK;
}

static void sample_ctx_destroy(void *user, void *ctx)
{
    sample_set *s = user;
    sample_ctx *c = ctx;
    pthread_mutex_lock(&s->spare_lock);
    c->next = s->spare;
    s->spare = c;
    pthread_mutex_unlock(&s->spare_lock);
}

/* Frees the contexts and slots kept between a segment's pool runs. */
static void release_samples(sample_set *s)
{
    while (s->spare) {
        sample_ctx *c = s->spare;
        s->spare = c->next;
        mp_mlv_scratch_free(&c->scratch);
        mp_frame_free(&c->frame);
        mp_rawfix_measurement_free(&c->defects);
        free(c);
    }
    for (uint32_t k = 0; k < s->slot_count; k++)
        mp_mlv_payload_free(&s->slots[k].payload);
    free(s->slots);
    s->slots = NULL;
    s->slot_count = 0;
}

/* Measures the sample's raw defects and adds them to the segment's sums (integer sums, so
 * the map does not depend on which thread added what, or when). The rows are measured while
 * they are added, one band of rows under its own lock, so workers add at once; each sample
 * starts at another band (DEFECT_BAND_STEP apart), so that two workers rarely meet. */
static mp_status measure_defects(sample_set *s, sample_ctx *c, uint32_t i, int dual,
                                 mp_error *err)
{
    mp_status st = mp_rawfix_measure(&c->frame, dual, &c->defects, err);
    if (st != MP_OK)
        return st;
    pthread_mutex_lock(&s->defects_lock);
    st = mp_rawfix_accum_claim(s->defects, &c->defects, i, err);
    pthread_mutex_unlock(&s->defects_lock);
    const uint64_t h = c->frame.height;
    for (uint32_t k = 0; st == MP_OK && k < DEFECT_BANDS; k++) {
        const uint32_t b = (i * DEFECT_BAND_STEP + k) % DEFECT_BANDS;
        pthread_mutex_lock(&s->band_lock[b]);
        mp_rawfix_accum_rows(s->defects, &c->defects, &c->frame,
                             (uint32_t)(h * b / DEFECT_BANDS),
                             (uint32_t)(h * (b + 1) / DEFECT_BANDS));
        pthread_mutex_unlock(&s->band_lock[b]);
    }
    return st;
}

/* The I/O stage. A damaged frame is left for its job to skip; other read errors end the run. */
static mp_status sample_read(void *user, uint32_t i, uint32_t slot, mp_error *err)
{
    sample_set *s = user;
    sample_slot *sl = &s->slots[slot];
    mp_status st = mp_mlv_read_payload(s->clip, s->index[s->jobs[i]], &sl->payload,
                                       &sl->read_error);
    sl->read_error.code = st;
    if (st == MP_OK || st == MP_ERR_DAMAGED)
        return MP_OK;
    *err = sl->read_error;
    return st;
}

static mp_status sample_run(void *user, void *ctx, uint32_t job, uint32_t slot, mp_error *err)
{
    sample_set *s = user;
    sample_ctx *c = ctx;
    const uint32_t i = s->jobs[job];
    mp_error e = s->slots[slot].read_error;
    mp_status st = e.code;
    if (st == MP_OK)
        st = mp_mlv_decode_payload(s->clip, s->index[i], &s->slots[slot].payload, &c->frame,
                                &c->scratch, &e);
    if (st == MP_OK && s->opt->dark)
        st = mp_rawfix_dark_apply(s->opt->dark, &c->frame, &e);
    if (st == MP_ERR_DAMAGED && s->count == 1) {
        s->damage = e;
        s->damage.code = st;
        return MP_OK;
    }
    if (st == MP_ERR_DAMAGED) {
        mp_log(&s->opt->log, MP_LOG_WARNING, "pre-pass skips a damaged frame: %s", e.msg);
        return MP_OK;
    }
    if (st != MP_OK) {
        *err = e;
        return st;
    }
    s->usable[i] = 1;
    /* the probe's decision stands for the rest (sample_segment): detection would change
     * nothing there, and costs as much as a third of the defect measurement */
    if (s->single_decided)
        return s->defects && !s->defects_settled ? measure_defects(s, c, i, 0, err) : MP_OK;
    dualiso_detection det;
    if ((st = mp_dualiso_detect(&c->frame, &det, err)) != MP_OK)
        return st;
    s->dual[i] = det.is_dual || s->opt->force_phase >= 0;
    s->absent[i] = !s->dual[i] && det.pairs >= ABSENT_PAIRS && det.confidence < ABSENT_CONFIDENCE;
    s->phase[i] = s->opt->force_phase >= 0 ? (uint32_t)s->opt->force_phase : det.phase;
    if (s->defects && !s->defects_settled &&
        (st = measure_defects(s, c, i, s->dual[i], err)) != MP_OK)
        return st;
    if (s->clip_phase >= 0)
        return mp_dualiso_stats_collect(&c->frame, (uint32_t)s->clip_phase, &s->stats[i], err);
    if (!s->dual[i])
        return MP_OK;
    return mp_dualiso_stats_collect(&c->frame, s->phase[i], &s->stats[i], err);
}

/* One sample done (in order, one call at a time): a LEVELS event for the terminal. */
static mp_status sample_deliver(void *user, uint32_t i, uint32_t slot, mp_error *err)
{
    (void)i;
    (void)slot;
    (void)err;
    sample_set *s = user;
    mp_progress_event *ev = &s->progress;
    ev->done++;
    ev->elapsed_s = mp_progress_now() - s->start_s;
    ev->eta_s = ev->elapsed_s * (ev->total - ev->done) / ev->done;   /* samples cost alike */
    s->opt->progress(s->opt->progress_opaque, ev);
    return MP_OK;
}

/* What the sampled frames of one segment showed. */
typedef struct segment_scan {
    uint32_t sampled, usable, dual;
    uint32_t first_usable;       /* clip index of the first readable sample */
    uint32_t phase_votes[4];     /* detected phases of the dual samples */
    int pooled;                  /* its levels come from its own dual samples */
    int probe_decided;           /* single ISO from the probe's samples alone */
} segment_scan;

/* Runs the samples s->jobs[0..njobs) through the pool (reader thread + workers). */
static mp_status run_samples(sample_set *s, uint32_t njobs, mp_error *err)
{
    mp_pool_options po = {s->opt->threads, 0, s->opt->cancel};
    uint32_t threads, window;
    mp_pool_resolve(&po, njobs, &threads, &window);
    if (window > s->slot_count) {
        sample_slot *more = realloc(s->slots, window * sizeof *more);
        if (!more)
            return mp_error_set(err, MP_ERR_NOMEM, "pre-pass: out of memory");
        memset(more + s->slot_count, 0, (window - s->slot_count) * sizeof *more);
        s->slots = more;
        s->slot_count = window;
    }
    mp_pool_callbacks cb = {s, sample_ctx_create, sample_ctx_destroy, sample_run,
                            s->opt->progress ? sample_deliver : NULL};
    /* A second look at a segment (with the clip's phase) makes more work than announced. */
    if (s->progress.done + njobs > s->progress.total)
        s->progress.total = s->progress.done + njobs;
    mp_status st = mp_pool_run_with_reader(njobs, &po, &cb, sample_read, NULL, err);
    if (st == MP_ERR_INTERRUPTED)
        return mp_error_set(err, st, "interrupted during the levels pre-pass");
    return st;
}

/* The focus-pixel lattices the camera and video mode of the segment are known to have
 * (priors), and how many. */
static uint32_t segment_priors(const sample_set *s, rawfix_lattice priors[RAWFIX_MAX_PRIORS])
{
    const mlv_clip_info *info = mp_mlv_clip_get_info(s->clip);
    const mlv_frame_info *first = s->first;
    return info->camera.present
               ? mp_rawfix_priors(info->camera.model, (uint32_t)first->raw->buffer_width,
                                  (uint32_t)first->raw->buffer_height, first->pan_x,
                                  first->pan_y, first->raw->width, first->raw->height, priors,
                                  RAWFIX_MAX_PRIORS)
               : 0;
}

/* The segment's raw-defect map from its accumulated sums, the priors as the lattice's
 * candidates (*chosen: the one taken, or -1). Reads only s->defects, s->first and options. */
static mp_status build_map(const sample_set *s, rawfix_map *m, int *chosen, mp_error *err)
{
    rawfix_lattice priors[RAWFIX_MAX_PRIORS];
    const uint32_t known = segment_priors(s, priors);
    *chosen = -1;
    if (s->opt->reference)
        return mp_rawfix_map_build_reference(s->defects, priors, known, m, chosen, err);
    return mp_rawfix_map_build_prior(s->defects, priors, known, m, chosen, err);
}

static void *early_map_thread(void *user)
{
    sample_set *s = user;
    s->early.st = build_map(s, &s->early.map, &s->early.chosen, &s->early.err);
    return NULL;
}

/* Starts the early map when the pool runs more than one worker for the njobs to come (with
 * --threads 1 the map stays on the calling thread, after them, so that one thread computes). */
static int early_map_start(sample_set *s, uint32_t njobs)
{
    mp_pool_options po = {s->opt->threads, 0, NULL};
    uint32_t threads, window;
    mp_pool_resolve(&po, njobs, &threads, &window);
    /* the pool's workers have the other cores */
    s->map_threads = 1;
    return threads > 1 && pthread_create(&s->early.thread, NULL, early_map_thread, s) == 0;
}

/* A probe may decide a segment alone when nothing says dual ISO: no forced phase, no clip
 * phase to rescue it with, no DISO block saying dual, and enough samples to spare. */
static int may_probe(const sample_set *s, const mp_segment *seg, uint32_t n)
{
    mlv_frame_info fi;
    if (s->clip_phase >= 0 || s->opt->force_phase >= 0 || n < 2 * PROBE ||
        mp_mlv_frame_info_get(s->clip, seg->first, &fi) != MP_OK)
        return 0;
    return !(fi.dual_iso && fi.dual_iso->present && fi.dual_iso->mode != 0);
}

/* Runs the samples of a segment of n that are not done yet. With a defect map to make (not
 * for a reference clip, which takes every candidate), the even ones go first: when their
 * defect sums are already final (mp_rawfix_accum_settled: a still scene and no sample near
 * the stuck test's limit), the others add nothing to them, and a segment the probe decided
 * single ISO reads them for nothing else (*sampled then counts the samples read); the others
 * read for dual ISO alone have the map built beside them (early_map). */
static mp_status run_rest(sample_set *s, uint32_t n, uint8_t *done, uint32_t *sampled,
                          mp_error *err)
{
    const int tiered = s->defects && !s->opt->reference && n >= 2 * RAWFIX_SETTLED_FRAMES;
    mp_status st = MP_OK;
    for (int tier = tiered ? 0 : 1; tier < 2 && st == MP_OK; tier++) {
        uint32_t j = 0;
        for (uint32_t i = 0; i < n; i++)
            if (!done[i] && (tier || i % 2 == 0)) {
                s->jobs[j++] = i;
                done[i] = 1;
            }
        if (tier && tiered && (st = mp_rawfix_accum_settled(s->defects, j, &s->defects_settled,
                                                            err)) != MP_OK)
            return st;
        if (s->defects_settled && s->single_decided) {
            s->progress.total -= j;
            *sampled -= j;
            return MP_OK;
        }
        const int early = tier && s->defects_settled && early_map_start(s, j);
        st = run_samples(s, j, err);
        if (early) {
            pthread_join(s->early.thread, NULL);
            s->early.made = 1;
        }
    }
    return st;
}

/* Reads, detects and collects the samples of one segment (s->clip_phase as set) and moves
 * the collected statistics to the front of s->stats in sample order, so pooling does not
 * depend on which thread produced what. Returns how many there are in *collected. */
static mp_status sample_segment(sample_set *s, const mp_segment *seg, segment_scan *scan,
                                uint32_t *collected, mp_error *err)
{
    uint32_t offsets[MP_SAMPLES_PER_SEGMENT];
    uint32_t n = mp_sample_offsets(seg->count, MP_SAMPLES_PER_SEGMENT, offsets);
    for (uint32_t i = 0; i < n; i++) {
        s->index[i] = seg->first + offsets[i];
        s->usable[i] = s->dual[i] = s->absent[i] = 0;
    }
    s->count = n;
    s->damage.code = MP_OK;
    if (s->defects && n > RAWFIX_MAX_FRAMES)
        return mp_error_set(err, MP_ERR_ARG, "pre-pass: %u samples, rawfix takes %u", n,
                            RAWFIX_MAX_FRAMES);
    uint32_t sampled = n;
    int probe_decided = 0;
    uint8_t done[MP_SAMPLES_PER_SEGMENT] = {0};
    mp_status st;
    if (may_probe(s, seg, n)) {
        /* PROBE samples spread over the segment first; when every one of them shows plenty
         * of evidence and no trace of the pattern, the rest cannot make it dual ISO in
         * practice, and the segment's single-ISO levels come from its first sample anyway */
        for (uint32_t p = 0; p < PROBE; p++)
            done[s->jobs[p] = p * n / PROBE] = 1;
        st = run_samples(s, PROBE, err);
        int absent = st == MP_OK;
        for (uint32_t p = 0; p < PROBE && absent; p++)
            absent = s->absent[s->jobs[p]];
        /* the raw-defect map still wants the other samples, but the decision stays the
         * probe's */
        probe_decided = absent;
        if (absent && !s->defects) {
            sampled = PROBE;
            /* the samples the probe spared were announced to the progress display */
            s->progress.total -= n - PROBE;
        } else if (st == MP_OK) {
            s->single_decided = probe_decided;
            st = run_rest(s, n, done, &sampled, err);
            s->single_decided = 0;
            for (uint32_t i = 0; i < n && probe_decided; i++)
                s->dual[i] = 0;
        }
    } else {
        st = run_rest(s, n, done, &sampled, err);
    }
    s->defects_settled = 0;
    release_samples(s);   /* not held through the map's building and the frames */
    if (st != MP_OK)
        return st;

    *scan = (segment_scan){.sampled = sampled, .probe_decided = probe_decided};
    *collected = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!s->usable[i])
            continue;
        if (scan->usable++ == 0)
            scan->first_usable = s->index[i];
        if (s->dual[i]) {
            scan->dual++;
            scan->phase_votes[s->phase[i]]++;
        }
        if (s->dual[i] || s->clip_phase >= 0) {
            if (*collected != i)
                s->stats[*collected] = s->stats[i];
            (*collected)++;
        }
    }
    if (!scan->usable && s->damage.code == MP_ERR_DAMAGED) {
        *err = s->damage;
        return MP_ERR_DAMAGED;
    }
    if (!scan->usable)
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: no readable frame among the %u sampled "
                            "in frames %u-%u (indices)", mp_mlv_clip_path(s->clip, 0), n,
                            seg->first, seg->first + seg->count - 1);
    return MP_OK;
}

/* The ISO gap recorded by the camera (DISO recovery ISO against EXPO ISO), or 0. */
static double nominal_ev(const mlv_frame_info *fi)
{
    if (!fi->dual_iso || !fi->dual_iso->present || !fi->dual_iso->recovery_iso ||
        !fi->exposure || !fi->exposure->present || !fi->exposure->iso)
        return 0;
    return fabs(log2((double)fi->dual_iso->recovery_iso / fi->exposure->iso));
}

static mp_status pool_levels(const sample_set *s, uint32_t collected, const mlv_frame_info *fi,
                             int phase, dualiso_levels *lv, mp_error *err)
{
    dualiso_pool_options popt;
    mp_dualiso_pool_options_default(&popt);
    popt.nominal_ev = nominal_ev(fi);
    popt.force_phase = phase;
    return mp_dualiso_levels_pool(s->stats, collected, &popt, lv, err);
}

/* Single-ISO levels: the output mapping from the segment's own metadata levels. */
static mp_status passthrough_levels(const mlv_clip *clip, uint32_t index, dualiso_levels *lv,
                                    mp_error *err)
{
    sample_ctx c = {.scratch = {.ref_index = -1}};
    mp_status st = mp_mlv_read_frame(clip, index, &c.frame, &c.scratch, err);
    if (st == MP_OK)
        st = mp_dualiso_levels_passthrough(&c.frame, lv, err);
    mp_mlv_scratch_free(&c.scratch);
    mp_frame_free(&c.frame);
    return st;
}

/* Whether levels made for other frames fit the recorded levels of fi's segment. */
static int levels_fit(const dualiso_levels *lv, const mlv_frame_info *fi)
{
    return fi->raw && lv->bits == fi->raw->bits && lv->in_black == fi->raw->black &&
           lv->in_white == fi->raw->white;
}

/* The segment whose own samples were dual that lies nearest to segment k (the earlier one
 * of two at the same distance), or NULL when there is none. */
static const mp_levels_segment *nearest_dual(const mp_clip_levels *out,
                                             const segment_scan *scans, uint32_t k)
{
    for (uint32_t d = 1; d < out->segment_count; d++) {
        if (d <= k && scans[k - d].pooled)
            return &out->segments[k - d];
        if (k + d < out->segment_count && scans[k + d].pooled)
            return &out->segments[k + d];
    }
    return NULL;
}

/* A segment of a dual-ISO clip whose samples were too dark or flat to show the row pattern
 * (lens cap, black fade, night shot): pooled with the clip's row phase and the nominal
 * ratio as fallback. If pooling fails, it takes the levels of the nearest dual segment
 * (donor) whole; if those do not fit its recorded levels either, it passes through (a
 * warning). */
static mp_status rescue_levels(sample_set *s, const mp_segment *seg, const mlv_frame_info *fi,
                               uint32_t clip_phase, const mp_levels_segment *donor,
                               dualiso_levels *lv, mp_error *err)
{
    segment_scan scan;
    uint32_t collected;
    s->clip_phase = (int)clip_phase;
    mp_status st = sample_segment(s, seg, &scan, &collected, err);
    s->clip_phase = -1;
    if (st != MP_OK)
        return st;
    const dualiso_levels *dl = &donor->levels;
    const uint32_t last = fi->number + seg->count - 1;
    mp_error pool_err = {0};
    if (pool_levels(s, collected, fi, (int)clip_phase, lv, &pool_err) == MP_OK) {
        mp_log(&s->opt->log, MP_LOG_INFO, "frames %u-%u: %u of %u sampled frames show the "
               "dual-ISO pattern (too dark or flat); dual ISO like the rest of the clip, "
               "phase %u, %.2f EV, ratio %s", fi->number, last, scan.dual, scan.usable,
               clip_phase, lv->ratio_ev, mp_dualiso_ratio_source_name(lv->ratio_source));
        return MP_OK;
    }
    if (levels_fit(dl, fi)) {
        *lv = *dl;
        mp_log(&s->opt->log, MP_LOG_INFO, "frames %u-%u: no dual-ISO levels of their own (%s); "
               "using those of frames %u-%u, %.2f EV, ratio %s", fi->number, last,
               pool_err.msg, donor->first_frame, donor->last_frame, lv->ratio_ev,
               mp_dualiso_ratio_source_name(lv->ratio_source));
        return MP_OK;
    }
    st = passthrough_levels(s->clip, scan.first_usable, lv, err);
    if (st == MP_OK)
        mp_log(&s->opt->log, MP_LOG_WARNING, "frames %u-%u: dual ISO like the rest of the clip "
               "but no levels fit them (%s) and their recorded levels differ from frames "
               "%u-%u; passed through as single ISO, rows stay striped", fi->number, last,
               pool_err.msg, donor->first_frame, donor->last_frame);
    return st;
}

/* Whether a field of the segment clipped in its samples (else its whites are the metadata
 * white: the scene never reached the clip, which says nothing about where it is). */
static int whites_measured(const dualiso_levels *lv)
{
    return lv->white_dark < lv->in_white || lv->white_bright < lv->in_white;
}

/* A dual segment that saw no clipping (dark, or a nominal ratio) takes the whites, and with
 * them the output mapping, of the nearest dual segment (the earlier one of two at the same
 * distance) that measured them with the same recorded levels, so that the DNG levels do not
 * change mid-clip. Only measured whites are lent, so the result does not depend on the
 * order the segments are visited in. */
static void share_whites(mp_clip_levels *out, const mp_prepass_options *o)
{
    const uint32_t n = out->segment_count;
    int *measured = calloc(n ? n : 1, sizeof *measured);
    if (!measured) /* only the mapping's consistency is lost; the levels stay valid */
        return;
    for (uint32_t k = 0; k < n; k++)
        measured[k] = out->segments[k].levels.is_dual && whites_measured(&out->segments[k].levels);
    for (uint32_t k = 0; k < n; k++) {
        dualiso_levels *lv = &out->segments[k].levels;
        const mp_levels_segment *from = NULL;
        for (uint32_t d = 1; lv->is_dual && !measured[k] && !from && d < n; d++) {
            for (int side = 0; side < 2 && !from; side++) {
                uint32_t j = side ? k + d : k - d;   /* k - d wraps past n when d > k */
                const dualiso_levels *fl = j < n ? &out->segments[j].levels : NULL;
                if (fl && measured[j] && fl->bits == lv->bits && fl->in_black == lv->in_black &&
                    fl->in_white == lv->in_white)
                    from = &out->segments[j];
            }
        }
        if (!from)
            continue;
        const dualiso_levels *fl = &from->levels;
        lv->white_dark = fl->white_dark;
        lv->white_bright = fl->white_bright;
        lv->out_black = fl->out_black;
        lv->out_white = fl->out_white;
        lv->out_scale = fl->out_scale;
        mp_log(&o->log, MP_LOG_INFO, "frames %u-%u: nothing clipped in the samples; whites "
               "%.0f/%.0f as measured in frames %u-%u", out->segments[k].first_frame,
               out->segments[k].last_frame, lv->white_dark, lv->white_bright,
               from->first_frame, from->last_frame);
    }
    free(measured);
}

/* Phase majority over the dual samples of the segments pooled as dual (ties: lower phase);
 * -1 when no sample of the clip was detected as dual. */
static int clip_majority_phase(const segment_scan *scans, uint32_t nseg)
{
    uint32_t votes[4] = {0, 0, 0, 0};
    for (uint32_t k = 0; k < nseg; k++)
        for (int p = 0; scans[k].pooled && p < 4; p++)
            votes[p] += scans[k].phase_votes[p];
    return mp_dualiso_phase_majority(votes);
}

/* The levels of a segment whose samples were mostly not dual (see mp_prepass_run). */
static mp_status undetected_levels(sample_set *s, const mp_clip_levels *out,
                                   const segment_scan *scans, const mp_segment *segs,
                                   uint32_t k, int clip_phase, dualiso_levels *lv,
                                   mp_error *err)
{
    mlv_frame_info fi;
    if (mp_mlv_frame_info_get(s->clip, segs[k].first, &fi) != MP_OK)
        return mp_error_set(err, MP_ERR_DAMAGED, "%s: frame index unreadable",
                            mp_mlv_clip_path(s->clip, 0));
    const uint32_t last = fi.number + segs[k].count - 1;
    const segment_scan *sc = &scans[k];
    const mp_dual_iso_tag *diso = fi.dual_iso;
    int diso_dual = diso && diso->present && diso->mode != 0;
    int diso_single = diso && diso->present && diso->mode == 0;
    const mp_levels_segment *donor = nearest_dual(out, scans, k);
    if (donor && clip_phase >= 0 && !diso_single)
        return rescue_levels(s, &segs[k], &fi, (uint32_t)clip_phase, donor, lv, err);

    mp_status st = passthrough_levels(s->clip, sc->first_usable, lv, err);
    if (st != MP_OK)
        return st;
    if (diso_dual)
        mp_log(&s->opt->log, MP_LOG_WARNING, "frames %u-%u: the DISO block says dual ISO but "
               "no sampled frame of the clip shows the row pattern (too dark or flat?), so "
               "the row phase is unknown: passed through as single ISO (try --phase)",
               fi.number, last);
    else if (sc->dual)
        mp_log(&s->opt->log, MP_LOG_WARNING, "frames %u-%u: only %u of %u sampled frames look "
               "dual ISO; treating them as single ISO", fi.number, last, sc->dual, sc->usable);
    else
        mp_log(&s->opt->log, MP_LOG_INFO, "frames %u-%u: single ISO, ratio %s%s%s", fi.number,
               last, mp_dualiso_ratio_source_name(lv->ratio_source),
               diso_single && donor ? " (the DISO block says dual ISO is off)" : "",
               sc->probe_decided ? " (no trace of the row pattern in the probe's frames)" : "");
    return MP_OK;
}

/* The segment's raw defect map from the samples' sums, with the lattice the camera and video
 * mode are known to have as a prior, and a line saying what it holds. */
/* The map a segment of fewer than RAWFIX_MIN_FRAMES samples gives (what the map builder makes
 * of so few): no repairs, stripe gains 1, the count of frames it saw. Such a segment (a still,
 * a short clip) gets no accumulator: its per-sample sums are 36 bytes a pixel, 800 MB written
 * for a 22-Mpx photo (doc/stills.md 6). */
static void few_frames_map(const mlv_frame_info *first, uint32_t frames, rawfix_map *m)
{
    *m = (rawfix_map){.width = first->raw->width, .height = first->raw->height,
                      .frames = frames};
    for (uint32_t r = 0; r < RAWFIX_STRIPE_ROWS; r++)
        for (uint32_t c = 0; c < RAWFIX_STRIPE_COLS; c++)
            m->stripe_gain[r][c] = 1;
}

/* The segment's raw-defect map from the accumulated samples (the early map when there is
 * one), or, without an accumulator, the empty map of `frames` samples. */
static mp_status defect_map(sample_set *s, const mlv_frame_info *first, uint32_t frames,
                            mp_levels_segment *ls, const mp_prepass_options *o, mp_error *err)
{
    rawfix_lattice priors[RAWFIX_MAX_PRIORS];
    const uint32_t known = segment_priors(s, priors);
    int chosen = -1;
    mp_status st = MP_OK;
    if (!s->defects) {
        few_frames_map(first, frames, &ls->fix);
    } else if (s->early.made) {
        ls->fix = s->early.map;
        chosen = s->early.chosen;
        s->early.made = 0;
        if ((st = s->early.st) != MP_OK)
            *err = s->early.err;
    } else {
        st = build_map(s, &ls->fix, &chosen, err);
    }
    if (st != MP_OK)
        return st;
    const rawfix_map *m = &ls->fix;
    const int from_prior = chosen >= 0;
    ls->prior = from_prior ? MP_PRIOR_CONFIRMED : known ? MP_PRIOR_NOT_CONFIRMED : MP_PRIOR_NONE;
    mp_log(&o->log, MP_LOG_INFO, "frames %u-%u: raw defects from %u frames: focus-pixel "
           "lattice %ux%u (%u classes, %llu sites%s), %u single defects, stripes %.3f %% (%s)",
           ls->first_frame, ls->last_frame, m->frames, m->lattice.period_x,
           m->lattice.period_y, m->lattice.class_count,
           (unsigned long long)mp_rawfix_lattice_sites(&m->lattice),
           from_prior ? ", the camera's known map, confirmed" :
           known ? "; the camera's known map not confirmed" : "", m->pixel_count,
           100 * m->stripe_amplitude, m->stripes ? "corrected" : "not significant");
    return MP_OK;
}

/* Two passes, so that a segment's levels depend on the whole clip and nothing else: first
 * every segment's samples are detected and the segments that are mostly dual are pooled;
 * then the others are either single ISO (no dual segment, no DISO saying dual; or a DISO
 * block saying dual ISO is off) or dark segments of a dual-ISO clip (rescue_levels). */
mp_status mp_prepass_run(const mlv_clip *clip, const mp_prepass_options *o, const char *tool,
                         mp_clip_levels *out, mp_error *err)
{
    memset(out, 0, sizeof *out);
    const mlv_clip_info *info = mp_mlv_clip_get_info(clip);
    if (!info->frame_count)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: no frame in the clip",
                            mp_mlv_clip_path(clip, 0));
    mp_segment *segs = NULL;
    uint32_t nseg = 0;
    mp_status st = mp_clip_segments(clip, &segs, &nseg, err);
    if (st != MP_OK)
        return st;
    if (nseg == 0 || nseg > MP_LEVELS_MAX_SEGMENTS) {
        free(segs);
        return mp_error_set(err, nseg ? MP_ERR_UNSUPPORTED : MP_ERR_DAMAGED,
                            "%s: %u segments (settings changes); 1 to %u supported",
                            mp_mlv_clip_path(clip, 0), nseg, MP_LEVELS_MAX_SEGMENTS);
    }
    snprintf(out->tool, sizeof out->tool, "%s", tool);
    out->options_hash = mp_prepass_options_hash(o);
    out->guid = info->guid;
    out->frame_count = info->frame_count;
    out->first_frame = info->first_number;
    out->last_frame = info->last_number;
    out->segment_count = nseg;
    out->segments = calloc(nseg, sizeof *out->segments);
    segment_scan *scans = calloc(nseg, sizeof *scans);
    sample_set *s = calloc(1, sizeof *s);
    dualiso_stats *stats = calloc(MP_SAMPLES_PER_SEGMENT, sizeof *stats);
    if (!out->segments || !scans || !s || !stats) {
        st = mp_error_set(err, MP_ERR_NOMEM, "pre-pass: out of memory");
    } else {
        *s = (sample_set){.clip = clip, .opt = o, .clip_phase = -1, .stats = stats,
                          .progress = {.kind = MP_PROGRESS_LEVELS},
                          .start_s = mp_progress_now(),
                          .defects_lock = PTHREAD_MUTEX_INITIALIZER,
                          .spare_lock = PTHREAD_MUTEX_INITIALIZER};
        for (uint32_t b = 0; b < DEFECT_BANDS; b++)
            pthread_mutex_init(&s->band_lock[b], NULL);
    }
    uint32_t offsets[MP_SAMPLES_PER_SEGMENT], unusable = 0;
    for (uint32_t k = 0; k < nseg && st == MP_OK; k++)
        s->progress.total += mp_sample_offsets(segs[k].count, MP_SAMPLES_PER_SEGMENT, offsets);
    for (uint32_t k = 0; k < nseg && st == MP_OK; k++) {
        mp_levels_segment *ls = &out->segments[k];
        mlv_frame_info first, last;
        ls->first_index = segs[k].first;
        ls->frame_count = segs[k].count;
        if (mp_mlv_frame_info_get(clip, segs[k].first, &first) != MP_OK ||
            mp_mlv_frame_info_get(clip, segs[k].first + segs[k].count - 1, &last) != MP_OK) {
            st = mp_error_set(err, MP_ERR_DAMAGED, "%s: frame index unreadable",
                              mp_mlv_clip_path(clip, 0));
            break;
        }
        ls->first_frame = first.number;
        ls->last_frame = last.number;
        char why[160];
        if (first.raw && mp_mlv_frame_problem(clip, segs[k].first, why, sizeof why)) {
            /* no frame of it decodes (each is reported as damaged): nothing to measure */
            ls->levels = (dualiso_levels){.bits = first.raw->bits, .in_black = first.raw->black,
                                          .in_white = first.raw->white};
            scans[k].pooled = 1;
            if (++unusable == nseg)
                st = mp_error_set(err, MP_ERR_FORMAT, "%s: no usable frame (%s)",
                                  mp_mlv_clip_path(clip, 0), why);
            continue;
        }
        uint32_t collected;
        const int defects = !o->no_defects && first.raw;
        /* the accumulator, the settling test and the map are made between the pool's runs:
         * on as many threads */
        mp_pool_options po = {o->threads, 0, NULL};
        uint32_t threads, window;
        mp_pool_resolve(&po, MP_SAMPLES_PER_SEGMENT, &threads, &window);
        s->map_threads = threads;
        const rawfix_runner runner = mp_parts_runner(&s->map_threads);
        if (defects && mp_sample_offsets(segs[k].count, MP_SAMPLES_PER_SEGMENT, offsets) >=
                           RAWFIX_MIN_FRAMES &&
            !(s->defects = mp_rawfix_accum_new_with(first.raw->width, first.raw->height,
                                                    &runner)))
            st = mp_error_set(err, MP_ERR_NOMEM, "pre-pass: out of memory for the defect map");
        s->first = &first;
        if (st == MP_OK)
            st = sample_segment(s, &segs[k], &scans[k], &collected, err);
        if (st == MP_OK && defects)
            st = defect_map(s, &first, scans[k].usable, ls, o, err);
        if (s->early.made)   /* the segment failed after its map was made */
            mp_rawfix_map_free(&s->early.map);
        s->early.made = 0;
        mp_rawfix_accum_free(s->defects);
        s->defects = NULL;
        if (st != MP_OK || 2 * scans[k].dual <= scans[k].usable)
            continue;
        st = pool_levels(s, collected, &first, o->force_phase, &ls->levels, err);
        scans[k].pooled = st == MP_OK;
        if (st == MP_OK)
            mp_log(&o->log, MP_LOG_INFO, "frames %u-%u: dual ISO, %.2f EV, ratio %s, from %u "
                   "of %u sampled frames", ls->first_frame, ls->last_frame,
                   ls->levels.ratio_ev, mp_dualiso_ratio_source_name(ls->levels.ratio_source),
                   scans[k].dual, scans[k].sampled);
    }
    int clip_phase = clip_majority_phase(scans, nseg);
    for (uint32_t k = 0; k < nseg && st == MP_OK; k++)
        if (!scans[k].pooled)
            st = undetected_levels(s, out, scans, segs, k, clip_phase, &out->segments[k].levels,
                                   err);
    if (st == MP_OK)
        share_whites(out, o);
    for (uint32_t b = 0; s && s->clip && b < DEFECT_BANDS; b++)   /* initialised */
        pthread_mutex_destroy(&s->band_lock[b]);
    free(stats);
    free(s);
    free(scans);
    free(segs);
    if (st != MP_OK)
        mp_clip_levels_free(out);
    return st;
}

mp_status mp_clip_levels_match(const mp_clip_levels *cl, const mlv_clip *clip,
                               const mp_prepass_options *o, const char *name, mp_error *err)
{
    const mlv_clip_info *info = mp_mlv_clip_get_info(clip);
    if (cl->guid != info->guid)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: made for the clip with GUID %016llx, "
                            "not this one (%016llx)", name, (unsigned long long)cl->guid,
                            (unsigned long long)info->guid);
    if (cl->frame_count != info->frame_count || cl->first_frame != info->first_number ||
        cl->last_frame != info->last_number)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: made for %u frames (%u-%u), the clip has "
                            "%u (%u-%u)", name, cl->frame_count, cl->first_frame,
                            cl->last_frame, info->frame_count, info->first_number,
                            info->last_number);
    mp_segment *segs = NULL;
    uint32_t nseg = 0;
    mp_status st = mp_clip_segments(clip, &segs, &nseg, err);
    if (st != MP_OK)
        return st;
    int same = nseg == cl->segment_count;
    for (uint32_t k = 0; same && k < nseg; k++)
        same = segs[k].first == cl->segments[k].first_index &&
               segs[k].count == cl->segments[k].frame_count;
    free(segs);
    if (!same)
        return mp_error_set(err, MP_ERR_FORMAT, "%s: its segments (settings changes) differ "
                            "from the clip's", name);
    /* GUIDs are not unique enough on their own (test tools, cloned cards): the levels must
     * also describe the clip's recorded bit depth and black/white levels. */
    for (uint32_t k = 0; k < cl->segment_count; k++) {
        const mp_levels_segment *s = &cl->segments[k];
        mlv_frame_info fi;
        if (mp_mlv_frame_info_get(clip, s->first_index, &fi) != MP_OK || !fi.raw)
            return mp_error_set(err, MP_ERR_DAMAGED, "%s: frame index unreadable",
                                mp_mlv_clip_path(clip, 0));
        if (s->levels.bits != fi.raw->bits || s->levels.in_black != fi.raw->black ||
            s->levels.in_white != fi.raw->white)
            return mp_error_set(err, MP_ERR_FORMAT, "%s: made for the clip with GUID %016llx "
                                "at %u bits, levels %.0f/%.0f; frames %u-%u here are %u bits, "
                                "%d/%d", name, (unsigned long long)cl->guid, s->levels.bits,
                                s->levels.in_black, s->levels.in_white, s->first_frame,
                                s->last_frame, fi.raw->bits, fi.raw->black, fi.raw->white);
    }
    if (cl->options_hash != mp_prepass_options_hash(o))
        mp_log(&o->log, MP_LOG_WARNING, "%s: made with different analysis options; using it "
               "as is", name);
    return MP_OK;
}
