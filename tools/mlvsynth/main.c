/* mlvsynth: writes synthetic Magic Lantern clips with known content and ground truth.
 * Options are parsed by options.c (shared with the round-trip checker); --help lists them. */
#include <stdio.h>
#include <stdlib.h>

#include "clip_meta.h"
#include "content.h"
#include "options.h"
#include "plan.h"
#include "truth.h"
#include "writers.h"

static int exit_code(mp_status st)
{
    switch (st) {
    case MP_OK: return 0;
    case MP_ERR_ARG: return 2;
    case MP_ERR_IO: return 5;
    default: return 1;
    }
}

int main(int argc, char **argv)
{
    synth_options opt;
    mp_error err = {0};
    int help = 0;
    mp_status st = options_parse(&opt, argc, argv, 1, &help, &err);
    if (help) {
        options_print_help(argv[0]);
        options_free(&opt);
        return 0;
    }
    if (st) {
        fprintf(stderr, "mlvsynth: %s (see --help)\n", err.msg);
        options_free(&opt);
        return 2;
    }
    clip_plan plan = {0};
    clip_meta meta;
    content_ctx content = {0};
    slot_fate *fate = NULL;
    uint32_t files = 0;
    st = plan_build(&plan, &opt, &err);
    if (!st)
        st = clip_meta_build(&meta, &opt, &err);
    if (!st)
        st = content_init(&content, &opt, &err);
    if (!st && !(fate = calloc(plan.count, sizeof *fate)))
        st = mp_error_set(&err, MP_ERR_NOMEM, "out of memory");
    if (!st)
        st = opt.legacy_raw ? write_raw(&opt, &plan, &meta, &content, fate, &files, &err)
                            : write_mlv(&opt, &plan, &meta, &content, fate, &files, &err);
    if (!st)
        st = truth_write(&opt, &plan, &meta, &content, fate, files, &err);
    if (st)
        fprintf(stderr, "mlvsynth: %s\n", err.msg);
    free(fate);
    content_free(&content);
    plan_free(&plan);
    options_free(&opt);
    return exit_code(st);
}
