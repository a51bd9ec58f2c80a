/* Segments whose frames no payload can hold. A RAWI may declare any size up to the frame
 * limits while the VIDF payloads after it are small; decoding such a frame would allocate for
 * the declared size before finding the payload too short. A run of frames of one RAWI none of
 * whose payloads can hold the frame is reported once, at its first frame, and left out, so
 * that memory follows what the file holds. */
#include <stdio.h>

#include "mlv_internal.h"

void mp_mlv_mark_unfit_segments(mlv_clip *c)
{
    uint32_t n = c->info.frame_count;
    for (uint32_t first = 0, end; first < n; first = end) {
        const mp_raw_info *r = &c->states[c->frames[first].state].raw;
        int fits = 0;
        uint32_t largest = 0;
        for (end = first; end < n && c->frames[end].segment == c->frames[first].segment; end++) {
            fits |= mp_mlv_payload_fits(c, &c->frames[end], r);
            if (c->frames[end].length > largest)
                largest = c->frames[end].length;
        }
        char why[160];
        if (fits || mp_mlv_raw_problem(r, why, sizeof why))
            continue;   /* an impossible RAWI is reported where it is */
        const mlv_entry *e = &c->frames[first];
        mp_mlv_add_damage(c, MLV_DAMAGE_BAD_FIELD, e->chunk, e->offset, "%s: offset %llu: "
                          "frame %u: RAWI size %ux%u at %u bits, but no payload of frames "
                          "%u-%u (largest %u bytes) can hold such a frame; not converted",
                          mp_mlv_base_name(c->chunks[e->chunk].path),
                          (unsigned long long)e->offset, e->number, r->width, r->height,
                          r->bits, e->number, c->frames[end - 1].number, largest);
        for (uint32_t i = first; i < end; i++)
            c->frames[i].unfit = 1;
    }
}

int mp_mlv_frame_problem(const mlv_clip *c, uint32_t index, char *why, size_t size)
{
    if (index >= c->info.frame_count)
        return 0;
    const mlv_entry *e = &c->frames[index];
    const mp_raw_info *r = &c->states[e->state].raw;
    if (mp_mlv_raw_problem(r, why, size))
        return 1;
    if (!e->unfit)
        return 0;
    snprintf(why, size, "no payload can hold a %ux%u %u-bit frame", r->width, r->height,
             r->bits);
    return 1;
}
