/* The MLV container, laid out like mlv_lite: chunk 0 starts with the header blocks padded
 * by a NULL block to 512 bytes, later chunks with MLVI + NULL pad; then one VIDF per plan
 * slot (plus AUDF blocks), frame counts patched into MLVI when a chunk is closed. */
#include "writers.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codec/bitpack.h"
#include "frame_coder.h"
#include "mlv_writer.h"

typedef struct mlv_job {
    const synth_options *o;
    const clip_plan *plan;
    const clip_meta *m;
    content_ctx *content;
    slot_fate *fate;
    frame_coder coder;
    uint16_t *cur, *prev;      /* prev: the last frame written, the DELTA reference */
    int have_prev;
    uint32_t audio_blocks, audio_next;
    uint64_t audio_t0;
    int16_t *pcm_samples;
    uint8_t *pcm;
    uint64_t *block_end;       /* per slot: end offset of its VIDF in its chunk */
} mlv_job;

/* MLV-App writes its DARK block after the queued blocks when it exports a clip. */
static mp_status write_dark_block(mlv_job *j, out_file *f, mp_error *err)
{
    const synth_options *o = j->o;
    const clip_meta *m = j->m;
    const size_t n = (size_t)o->width * o->height, len = mp_packed_size_mlv(n, o->bits);
    uint16_t *avg = malloc(n * sizeof *avg);
    uint8_t *packed = malloc(len);
    mp_status st = avg && packed ? content_dark_average(j->content, avg, err)
                                 : mp_error_set(err, MP_ERR_NOMEM, "out of memory");
    if (st == MP_OK) {
        mp_pack_mlv(avg, packed, n, o->bits);
        const mlvw_dark d = {o->dark_block, m->camera.model, o->width, o->height, o->bits,
                             (uint32_t)m->raw.black, (uint32_t)m->raw.white, o->fps_num,
                             o->fps_den, m->exposure.iso, m->exposure.iso_analog,
                             m->exposure.shutter_us, m->capture.binning_x,
                             m->capture.skipping_x, m->capture.binning_y,
                             m->capture.skipping_y};
        st = mlvw_dark_block(f, &d, packed, len, err);
    }
    free(avg);
    free(packed);
    return st;
}

static mp_status write_header_blocks(mlv_job *j, out_file *f, mp_error *err)
{
    const synth_options *o = j->o;
    const clip_meta *m = j->m;
    const uint64_t ts = CLIP_HEADER_TS;
    int full = o->header != HEADER_MINIMAL;
    mp_status st = MP_OK;
    if (!o->no_rawi)
        st = mlvw_rawi(f, ts, &m->raw, err);
    if (!st && full)
        st = mlvw_rawc(f, ts, &m->capture, err);
    if (!st && full)
        st = mlvw_idnt(f, ts, &m->camera, err);
    if (!st)
        st = mlvw_expo(f, ts, &m->exposure, err);
    if (!st && full)
        st = mlvw_lens(f, ts, &m->lens, err);
    if (!st && full)
        st = mlvw_rtci(f, ts, &m->wall_clock, err);
    if (!st && full)
        st = mlvw_wbal(f, ts, &m->white_balance, err);
    if (!st && full)
        st = mlvw_vers(f, ts, m->version_text, err);
    if (!st && o->header == HEADER_ALL)
        st = mlvw_styl(f, ts, &m->style, err);
    if (!st && o->header == HEADER_ALL)
        st = mlvw_elvl(f, ts, &m->level, err);
    if (!st && o->header == HEADER_ALL)
        st = mlvw_info(f, ts, m->info_text, err);
    /* queued blocks (dual_iso's DISO, mlv_snd's WAVI) come last */
    if (!st && m->dual_iso.present)
        st = mlvw_diso(f, ts, &m->dual_iso, err);
    if (!st && m->audio.present)
        st = mlvw_wavi(f, ts, &m->audio, err);
    if (!st && o->dark_block)
        st = write_dark_block(j, f, err);
    return st;
}

static mp_status write_audio_block(mlv_job *j, out_file *f, mp_error *err)
{
    const synth_options *o = j->o;
    uint32_t k = j->audio_next++;
    uint32_t n = content_audio_block_samples(o, k);
    uint64_t first = content_audio_block_start(o, k);
    content_tone(o, first, n, j->pcm_samples);
    for (uint32_t i = 0; i < n * CONTENT_AUDIO_CHANNELS; i++) {
        uint16_t v = (uint16_t)j->pcm_samples[i];
        j->pcm[2 * i] = (uint8_t)v;
        j->pcm[2 * i + 1] = (uint8_t)(v >> 8);
    }
    uint64_t ts = j->audio_t0 + first * 1000000u / CONTENT_AUDIO_RATE;
    return mlvw_audf(f, k, ts, j->pcm, (size_t)n * CONTENT_AUDIO_CHANNELS * 2, err);
}

/* mlv_rec's periodic RTCI: the wall clock of the header RTCI advanced by the block time. */
static mp_status write_periodic_rtci(mlv_job *j, out_file *f, uint64_t ts, mp_error *err)
{
    mp_wall_clock w = j->m->wall_clock;
    struct tm tm = {.tm_year = w.year - 1900, .tm_mon = w.month - 1, .tm_mday = w.day,
                    .tm_hour = w.hour, .tm_min = w.minute, .tm_sec = w.second};
    time_t t = timegm(&tm) + (time_t)((ts - w.timestamp_us) / 1000000u);
    gmtime_r(&t, &tm);
    w.year = tm.tm_year + 1900;
    w.month = tm.tm_mon + 1;
    w.day = tm.tm_mday;
    w.hour = tm.tm_hour;
    w.minute = tm.tm_min;
    w.second = tm.tm_sec;
    w.timestamp_us = ts;
    return mlvw_rtci(f, ts, &w, err);
}

static mp_status patch_u32(out_file *f, uint64_t at, uint32_t v, mp_error *err)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    return out_file_pwrite(f, at, b, 4, err);
}

static mp_status write_slot(mlv_job *j, out_file *f, uint32_t i, uint32_t *vcount,
                            uint32_t *acount, mp_error *err)
{
    const synth_options *o = j->o;
    const plan_slot *s = &j->plan->slots[i];
    mp_status st = MP_OK;
    if (o->rtci_every && i > 0 && i % o->rtci_every == 0)
        st = write_periodic_rtci(j, f, s->timestamp, err);
    if (!st && o->header == HEADER_ALL && i == 1)
        st = mlvw_mark(f, s->timestamp - 1, 1, err);
    uint64_t slot_start = f->size;
    if (!st && j->plan->change_slot == (int64_t)i) {
        /* settings change: new (RAWI,) EXPO (and DISO) just before the frame, by timestamp;
         * with --change-in-filler they take the start of the frame's slot (mlv_rec's
         * mlv_prepend_block), so its VIDF header and filler shrink by their size */
        uint64_t ts = options_frame_time_us(o, (uint32_t)o->change_at) - 1;
        if (o->change_width)
            st = mlvw_rawi(f, ts, &j->m->raw_changed, err);
        if (!st)
            st = mlvw_expo(f, ts, &j->m->exposure_changed, err);
        if (!st && j->m->dual_iso.present && o->change_diso)
            st = mlvw_diso(f, ts, &j->m->dual_iso_changed, err);
    }
    uint32_t prepended = o->change_in_filler ? (uint32_t)(f->size - slot_start) : 0;
    if (!st)
        st = content_frame(j->content, s->number, s->source, j->cur, err);
    const uint8_t *payload = NULL;
    size_t len = 0;
    uint32_t w, h;
    options_frame_geometry(o, s->number, &w, &h);
    /* mlv_dump resets the DELTA reference on a new RAWI */
    if (o->change_width && j->plan->change_slot == (int64_t)i)
        j->have_prev = 0;
    if (!st)
        st = frame_coder_encode(&j->coder, j->cur, w, h, j->have_prev ? j->prev : NULL,
                                &payload, &len, err);
    if (st)
        return st;
    if (prepended > o->frame_space)
        return mp_error_set(err, MP_ERR_ARG, "--change-in-filler: %u bytes of blocks do not fit "
                            "a frameSpace of %u (raise --frame-space)", prepended, o->frame_space);
    uint64_t start = f->size;
    /* frames of the changed size (--change-size) sit in the changed RAWI's window */
    const clip_window *win = w != o->width || h != o->height ? &j->m->window_changed
                                                             : &j->m->window;
    mlvw_video_frame v = {
        .number = s->number,
        .timestamp = s->timestamp,
        .crop_x = win->crop_x,
        .crop_y = win->crop_y,
        .pan_x = win->pan_x,
        .pan_y = win->pan_y,
        .frame_space = o->frame_space - prepended,
        .block_size = mlvw_vidf_slot_size(o->frame_space, len) - prepended,
    };
    st = mlvw_vidf(f, &v, payload, len, err);
    if (st)
        return st;
    j->block_end[i] = f->size;
    (*vcount)++;
    if (o->garbage_block == (int64_t)i)
        st = patch_u32(f, start + MLVW_BLOCK_SIZE, 8, err);
    if (!st && o->bad_frame_space == (int64_t)i)
        st = patch_u32(f, start + MLVW_VIDF_FRAME_SPACE, (uint32_t)(f->size - start), err);
    if (!st && o->header == HEADER_ALL && i == 0)
        st = mlvw_null(f, 512, 0xA5, err);
    uint16_t *t = j->prev;
    j->prev = j->cur;
    j->cur = t;
    j->have_prev = 1;
    /* one AUDF per VIDF slot; blocks left over (dropped frames) follow the last slot */
    int last = i + 1 == j->plan->count;
    while (!st && j->audio_next < j->audio_blocks && (j->audio_next <= i || last)) {
        st = write_audio_block(j, f, err);
        (*acount)++;
    }
    return st;
}

static void mark_fates(mlv_job *j, uint32_t chunk, uint32_t first, uint32_t end,
                       uint64_t file_size)
{
    const synth_options *o = j->o;
    int after_garbage = 0;
    for (uint32_t i = first; i < end; i++) {
        slot_fate f = after_garbage ? FATE_UNCERTAIN : FATE_INTACT;
        if (o->garbage_block == (int64_t)i) {
            f = FATE_LOST;
            after_garbage = 1;
        }
        if (o->bad_frame_space == (int64_t)i || j->block_end[i] > file_size ||
            o->guid_mismatch == (int64_t)chunk)
            f = FATE_LOST;
        j->fate[i] = f;
    }
}

static mp_status write_chunk(mlv_job *j, out_file *f, uint32_t chunk, uint32_t *next_slot,
                             mp_error *err)
{
    const synth_options *o = j->o;
    mp_status st;
    mlvw_file_header h = {
        .guid = o->guid_mismatch == (int64_t)chunk ? ~o->guid : o->guid,
        .file_num = (uint16_t)chunk,
        .file_count = 0,       /* mlv_lite: "autodetect" */
        .file_flags = 4u | (o->shuffle ? 1u : 0u) | (o->drop.count ? 2u : 0u),
        .video_class = frame_coder_video_class(o),
        .audio_class = o->audio ? 1 : 0,
        .fps_num = o->fps_num,
        .fps_den = o->fps_den,
    };
    st = mlvw_mlvi(f, &h, err);
    if (!st && chunk == 0)
        st = write_header_blocks(j, f, err);
    if (!st)
        st = mlvw_pad_to(f, 512, err);
    uint32_t first = *next_slot, vcount = 0, acount = 0;
    while (!st && *next_slot < j->plan->count && j->plan->slots[*next_slot].chunk == chunk) {
        st = write_slot(j, f, *next_slot, &vcount, &acount, err);
        (*next_slot)++;
    }
    if (!st && !o->interrupted)
        st = patch_u32(f, MLVW_MLVI_VIDEO_FRAMES, vcount, err);
    if (!st && !o->interrupted)
        st = patch_u32(f, MLVW_MLVI_AUDIO_FRAMES, acount, err);
    if (!st && chunk + 1 == j->plan->chunk_count) {
        if (o->zero_tail) {
            uint8_t zero[512] = {0};
            for (uint64_t left = o->zero_tail; !st && left; ) {
                size_t c = left < sizeof zero ? (size_t)left : sizeof zero;
                st = out_file_write(f, zero, c, err);
                left -= c;
            }
        }
        if (!st && o->truncate)
            st = out_file_cut(f, o->truncate, err);
    }
    if (!st)
        mark_fates(j, chunk, first, *next_slot, f->size);
    return st;
}

mp_status write_mlv(const synth_options *o, const clip_plan *plan, const clip_meta *meta,
                    content_ctx *content, slot_fate *fate, uint32_t *files_written,
                    mp_error *err)
{
    *files_written = plan->chunk_count;
    if (o->guid_mismatch != OPT_NONE &&
        (o->guid_mismatch < 1 || o->guid_mismatch >= (int64_t)plan->chunk_count))
        return mp_error_set(err, MP_ERR_ARG, "--guid-mismatch %lld: the clip has chunks 1..%u "
                            "to choose from", (long long)o->guid_mismatch,
                            plan->chunk_count - 1);
    if ((o->garbage_block != OPT_NONE && o->garbage_block >= (int64_t)plan->count) ||
        (o->bad_frame_space != OPT_NONE && o->bad_frame_space >= (int64_t)plan->count))
        return mp_error_set(err, MP_ERR_ARG, "damaged VIDF index past the %u VIDF blocks",
                            plan->count);
    mlv_job j = {.o = o, .plan = plan, .m = meta, .content = content, .fate = fate};
    size_t n = options_max_pixels(o);
    uint32_t max_audio = content_audio_block_samples(o, 0) + 1;
    mp_status st = frame_coder_init(&j.coder, o, err);
    j.cur = malloc(n * sizeof *j.cur);
    j.prev = malloc(n * sizeof *j.prev);
    j.block_end = calloc(plan->count, sizeof *j.block_end);
    j.pcm_samples = malloc((size_t)max_audio * CONTENT_AUDIO_CHANNELS * sizeof *j.pcm_samples);
    j.pcm = malloc((size_t)max_audio * CONTENT_AUDIO_CHANNELS * 2);
    if (!st && (!j.cur || !j.prev || !j.block_end || !j.pcm_samples || !j.pcm))
        st = mp_error_set(err, MP_ERR_NOMEM, "out of memory");
    if (o->audio) {
        j.audio_blocks = o->frames;
        j.audio_t0 = (uint64_t)((int64_t)options_first_frame_time_us(o) + o->audio_offset_us);
    }
    /* All chunks stay under their temporary names until the whole clip is written. */
    out_file *files = calloc(plan->chunk_count, sizeof *files);
    if (!st && !files)
        st = mp_error_set(err, MP_ERR_NOMEM, "out of memory");
    if (!st)
        st = out_file_check_series_end(o->output, plan->chunk_count, o->overwrite, err);
    uint32_t next = 0, opened = 0;
    for (uint32_t c = 0; !st && c < plan->chunk_count; c++) {
        char *name = out_file_chunk_name(o->output, c);
        st = name ? out_file_open(&files[c], name, o->overwrite, err)
                  : mp_error_set(err, MP_ERR_ARG, "%s: cannot name chunk %u", o->output, c);
        free(name);
        if (!st) {
            opened++;
            st = write_chunk(&j, &files[c], c, &next, err);
        }
    }
    for (uint32_t c = 0; c < opened; c++) {
        if (!st)
            st = out_file_finish(&files[c], err);
        else
            out_file_abort(&files[c]);
    }
    free(files);
    frame_coder_free(&j.coder);
    free(j.cur);
    free(j.prev);
    free(j.block_end);
    free(j.pcm_samples);
    free(j.pcm);
    return st;
}
