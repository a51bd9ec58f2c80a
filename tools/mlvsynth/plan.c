#include "plan.h"

#include <stdlib.h>
#include <string.h>

/* splitmix64: a fixed, portable generator, so --shuffle gives the same order everywhere. */
static uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void shuffle(uint32_t *v, uint32_t n, uint64_t seed)
{
    uint64_t state = seed;
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = (uint32_t)(rng_next(&state) % i);
        uint32_t t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
    /* An "out of order" clip that happens to come out sorted would test nothing. */
    int sorted = 1;
    for (uint32_t i = 1; i < n && sorted; i++)
        sorted = v[i - 1] < v[i];
    if (sorted && n > 1) {
        uint32_t t = v[0];
        v[0] = v[1];
        v[1] = t;
    }
}

uint64_t plan_duplicate_time_us(const synth_options *o, uint32_t number)
{
    uint64_t half_period = (options_frame_time_us(o, 1) - options_frame_time_us(o, 0)) / 2;
    return options_frame_time_us(o, number) + half_period;
}

mp_status plan_build(clip_plan *p, const synth_options *o, mp_error *err)
{
    memset(p, 0, sizeof *p);
    uint32_t written = o->frames - o->drop.count;
    uint32_t *order = malloc(written * sizeof *order);
    p->slots = malloc((written + o->duplicate.count) * sizeof *p->slots);
    if (!order || !p->slots) {
        free(order);
        plan_free(p);
        return mp_error_set(err, MP_ERR_NOMEM, "out of memory for %u frames", o->frames);
    }
    uint32_t n = 0;
    for (uint32_t f = 0; f < o->frames; f++)
        if (!frame_list_has(&o->drop, f))
            order[n++] = f;
    if (o->shuffle)
        shuffle(order, n, o->shuffle_seed);
    for (uint32_t i = 0; i < n; i++) {
        plan_slot *s = &p->slots[p->count++];
        s->number = s->source = order[i];
        s->timestamp = options_frame_time_us(o, order[i]);
        s->duplicate = 0;
        if (frame_list_has(&o->duplicate, order[i])) {
            plan_slot *d = &p->slots[p->count++];
            *d = *s;
            d->source = s->number + o->frames;
            d->timestamp = plan_duplicate_time_us(o, s->number);
            d->duplicate = 1;
        }
    }
    free(order);
    p->change_slot = OPT_NONE;
    for (uint32_t i = 0; i < p->count; i++) {
        p->slots[i].chunk = o->chunk_frames ? i / o->chunk_frames : 0;
        const plan_slot *s = &p->slots[i];
        if (o->change_at != OPT_NONE && !s->duplicate && s->number >= o->change_at &&
            (p->change_slot == OPT_NONE || s->number < p->slots[p->change_slot].number))
            p->change_slot = i;
    }
    p->chunk_count = p->slots[p->count - 1].chunk + 1;
    if (o->change_at != OPT_NONE && p->change_slot == OPT_NONE) {
        plan_free(p);
        return mp_error_set(err, MP_ERR_ARG, "--change-at %lld: every frame from there on is "
                            "dropped", (long long)o->change_at);
    }
    if (p->chunk_count > 100) {
        plan_free(p);
        return mp_error_set(err, MP_ERR_ARG, "%u chunk files needed; MLV allows .MLV + .M00 to "
                            ".M99 (raise --chunk-frames)", p->chunk_count);
    }
    return MP_OK;
}

void plan_free(clip_plan *p)
{
    free(p->slots);
    memset(p, 0, sizeof *p);
}
