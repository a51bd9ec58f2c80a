/* Audio level over the clip: RMS and peak of short windows spread evenly over the sound,
 * read with random access, so an hour of audio costs as little as a minute. */
#include "report_priv.h"

#include <math.h>
#include <stdlib.h>

#define WINDOW_S 0.1
#define SILENCE_DBFS -120.0

static double dbfs(double amplitude)
{
    return amplitude > 0 ? fmax(20 * log10(amplitude / 32768.0), SILENCE_DBFS) : SILENCE_DBFS;
}

mp_status mp_report_audio(const mlv_clip *clip, mp_clip_report *r, mp_error *err)
{
    const mp_audio_format *a = &r->info.audio;
    if (!a->present || !r->info.audio_bytes || !a->block_align || !a->sample_rate)
        return MP_OK;
    if (a->format != 1 || a->bits_per_sample != 16 || a->block_align != 2 * a->channels)
        return MP_OK;   /* only 16-bit PCM is measured; the page says "not measured" */
    const uint64_t frames = r->info.audio_bytes / a->block_align;
    uint64_t window = (uint64_t)(WINDOW_S * a->sample_rate);
    uint32_t points = MP_REPORT_AUDIO_POINTS;
    if (frames / window < points)
        points = (uint32_t)(frames / window);
    if (!points) {
        points = 1;
        window = frames;
    }
    int16_t *buf = malloc(window * a->block_align);
    r->audio = calloc(points, sizeof *r->audio);
    if (!buf || !r->audio) {
        free(buf);
        return mp_error_set(err, MP_ERR_NOMEM, "report: out of memory");
    }
    const double offset_s =
        ((double)r->info.audio_start_us - (double)r->info.video_start_us) / 1e6;
    const uint32_t channels = a->channels < 2 ? a->channels : 2;
    mp_status st = MP_OK;
    for (uint32_t i = 0; i < points && st == MP_OK; i++) {
        uint64_t centre = (uint64_t)((i + 0.5) * (double)frames / points);
        uint64_t first = centre >= window / 2 ? centre - window / 2 : 0;
        if (first + window > frames)
            first = frames - window;
        st = mp_mlv_read_audio(clip, first * a->block_align, buf, window * a->block_align, err);
        mp_report_audio_point *p = &r->audio[i];
        p->time_s = offset_s + (double)centre / a->sample_rate;
        for (uint32_t c = 0; c < channels && st == MP_OK; c++) {
            double sum = 0, peak = 0;
            for (uint64_t s = 0; s < window; s++) {
                double v = buf[s * a->channels + c];
                sum += v * v;
                peak = fmax(peak, fabs(v));
            }
            p->rms_dbfs[c] = dbfs(sqrt(sum / window));
            p->peak_dbfs[c] = dbfs(peak);
        }
        for (uint32_t c = channels; c < 2; c++)
            p->rms_dbfs[c] = p->peak_dbfs[c] = SILENCE_DBFS;
    }
    free(buf);
    r->audio_count = st == MP_OK ? points : 0;
    return st;
}
