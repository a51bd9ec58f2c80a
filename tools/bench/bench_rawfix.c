/* bench_rawfix: issue #11's numbers. Simulated clips with a focus-pixel lattice, hot and cold
 * pixels and +-0.5 % 8-column stripes (src/synth), at ISO 100 and dual ISO 100/1600, in flat,
 * textured (benchmark scene drifting 1.5 px/frame), dark, static textured scenes, the
 * second benchmark scene drifting (objects, on which no constant was set) and the static one
 * under 0.25 EV illumination jitter: the map
 * found from FRAMES frames against truth (recall, false sites in % of pixels, lattice period),
 * the residue at the defect sites in units of the local noise (all of them; those the map
 * repairs; those where the scene is resolved by the same-colour neighbours; and the floor:
 * the same repair at clean samples, what the scene allows; and the share of the sites, and
 * of the clean samples so repaired, within 2 noise sigmas), the stripe residue before and
 * after, the CPU time of one repair, and the same on clean clips (which must get an empty
 * map), and each defect row's hot/cold recall by strength (defect_case.h: the issue's
 * "more than 6 sigma off") and kind. Usage: bench_rawfix [WxH active, default 1920x1080]
 * [frames, default 16] [--only MODE SCENE]: that case alone (e.g. dual static) and its clean
 * clip; [--misses MODE SCENE]: the same, each hot/cold site the map missed printed with what
 * the sampled frames showed there.
 * [--lens-cap]: instead, each defect clip repaired with the map of a lens-cap clip of the same
 * sensor (--defects-from; clip "cap"), after that clip's own row. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "defect_case.h"

static void print_row(const char *mode, const char *scene, const char *clip, const case_score *s)
{
    printf("%-6s %-9s %-6s %6.2f (%5u) %7.2f (%5u) %7.2f (%5u)  %9.5f %3ux%-3u "
           "%5.2f/%5.2f/%4.2f/%-4.2f %5.1f/%-5.1f %6.3f/%-6.3f %s%6.3f %8.2f %5u/%u\n",
           mode, scene, clip, s->focus_true ? 100.0 * s->focus_found / s->focus_true : 100.0,
           s->focus_true, s->bad_true ? 100.0 * s->bad_found / s->bad_true : 100.0, s->bad_true,
           s->bad_visible ? 100.0 * s->bad_visible_found / s->bad_visible : 100.0,
           s->bad_visible, 100.0 * s->false_sites / s->pixels, s->period_x, s->period_y,
           s->residue_rms, s->residue_found_rms, s->residue_resolved_rms, s->residue_floor_rms,
           100 * s->residue_within2, 100 * s->floor_within2, s->stripe_before, s->stripe_after,
           s->stripes_applied ? "on " : "off", s->stripe_amplitude, 1e3 * s->seconds_apply,
           s->focus_hidden, s->bad_hidden);
    if (s->bad_true) {
        printf("%23s by strength <3/3-6/6-12/>=12 sigmas:", "");
        uint32_t t6 = 0, f6 = 0;
        for (int b = 0; b < CASE_STRENGTHS; b++) {
            printf(" %u/%u", s->strength_found[b], s->strength_true[b]);
            if (b >= 2)
                t6 += s->strength_true[b], f6 += s->strength_found[b];
        }
        printf("; >=6: %.2f %% (%u/%u); by kind stuck/warm/dead/weak %u/%u %u/%u %u/%u %u/%u\n",
               t6 ? 100.0 * f6 / t6 : 100.0, f6, t6, s->kind6_found[0], s->kind6_true[0],
               s->kind6_found[1], s->kind6_true[1], s->kind6_found[2], s->kind6_true[2],
               s->kind6_found[3], s->kind6_true[3]);
    }
    fflush(stdout);
}

int main(int argc, char **argv)
{
    uint32_t w = 1920, h = 1080, frames = 16;
    static const char *scene_names[] = {"flat", "textured", "dark", "static", "objects",
                                        "jitter"};
    const char *only_mode = NULL, *only_scene = NULL;
    int lens_cap = argc > 1 && !strcmp(argv[argc - 1], "--lens-cap");
    argc -= lens_cap;
    int misses = 0;
    if (argc > 3 && ((misses = !strcmp(argv[argc - 3], "--misses")) ||
                     !strcmp(argv[argc - 3], "--only"))) {
        only_mode = argv[argc - 2];
        only_scene = argv[argc - 1];
        argc -= 3;
    }
    if ((argc > 1 && sscanf(argv[1], "%ux%u", &w, &h) != 2) ||
        (only_mode && strcmp(only_mode, "single") && strcmp(only_mode, "dual")))
        return fprintf(stderr, "usage: bench_rawfix [WxH] [frames] [--only|--misses "
                       "single|dual SCENE | --lens-cap]\n"), 2;
    if (argc > 2)
        frames = (uint32_t)atoi(argv[2]);
    printf("%ux%u active, %u frames; recall %% (found/true), false sites %% of pixels; hidden: "
           "defect sites whose value the defect changed in no sampled frame (clipped), not "
           "counted; visible: hot/cold sites the defect moved by more than 1 noise sigma in at "
           "least %u frames; <2s: share of sites / clean probes repaired within 2 sigmas\n",
           w, h, frames, visible_frames(frames));
    printf("%-6s %-9s %-6s %-16s %-16s %-16s %-9s %-7s %-20s %-11s %-15s %-9s %-8s %s\n",
           "mode", "scene", "clip", "focus recall", "hot/cold recall", "visible recall",
           "false %", "period", "residue/found/res/flr", "<2s % s/flr", "stripes % b/a",
           "measured", "apply ms", "hidden");
    int failed = 0;
    for (int clean = 0; clean < 2 - lens_cap; clean++)
        for (int gap = 0; gap <= 4; gap += 4) {
            rawfix_map cap = {0};
            defect_case cc = {.width = w, .height = h, .frames = frames, .ev_gap = gap,
                              .scene = CASE_LENS_CAP, .defects = 1, .seed = 1};
            case_score cs;
            if (lens_cap) {
                if (defect_case_run(&cc, &cs, &cap)) {
                    failed = 1;
                    continue;
                }
                print_row(gap ? "dual" : "single", "lens-cap", "defect", &cs);
            }
            for (int sc = 0; sc < 6; sc++) {
                if (only_mode && (strcmp(only_mode, gap ? "dual" : "single") ||
                                  strcmp(only_scene, scene_names[sc])))
                    continue;
                defect_case c = {.width = w, .height = h, .frames = frames,
                                 .ev_gap = gap, .scene = (case_scene)sc,
                                 .defects = !clean, .seed = 1,
                                 .borrowed = lens_cap ? &cap : NULL,
                                 .misses = misses ? stdout : NULL};
                case_score s;
                if (defect_case_run(&c, &s, NULL)) {
                    failed = 1;
                    continue;
                }
                print_row(gap ? "dual" : "single", scene_names[sc],
                          lens_cap ? "cap" : clean ? "clean" : "defect", &s);
            }
            mp_rawfix_map_free(&cap);
        }
    return failed;
}
