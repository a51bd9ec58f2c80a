/* mlvpipe analyze CLIP [-o levels.json]: clip-level dual-ISO levels as a sidecar
 * (src/pipeline/prepass.h, levels_io.h), for `mlvpipe convert --levels` on every farm chunk. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_run.h"
#include "pipeline/levels_io.h"
#include "pipeline/prepass.h"
#include "reader/mlv_reader.h"

static void usage(FILE *out)
{
    fprintf(out,
        "usage: mlvpipe analyze CLIP [-o levels.json] [options]\n"
        "\n"
        "Estimates the clip's dual-ISO levels (row phase, ISO ratio, per-field black, white\n"
        "and noise) from up to 32 frames spread over each segment of the clip (a segment\n"
        "ends where the recorded settings change) and writes them as a JSON sidecar (format:\n"
        "doc/json.md, section 2). 'mlvpipe convert --levels FILE' then uses\n"
        "them, so chunks converted on different machines share the same levels. Without -o\n"
        "the JSON goes to stdout. A single-ISO clip gets pass-through levels.\n"
        "\n"
        "options:\n"
        "  -o, --output FILE   write the sidecar here (through a temporary file)\n"
        "      --overwrite     replace an existing FILE\n"
        "      --threads N     worker threads (default: one per usable CPU, see convert --help);\n"
        "                      the result is the same\n"
        "      --phase N       force dual ISO with row phase 0..3 (default: detect)\n"
        "  -h, --help          show this help\n"
        "\n"
        "exit status: 0 ok, 2 usage, 3 input unreadable or unsupported, 4 input damaged,\n"
        "5 output failed, 6 interrupted, 1 internal error.\n");
}

enum { OPT_THREADS = 256, OPT_PHASE, OPT_OVERWRITE };

static const struct option long_options[] = {
    {"output", required_argument, NULL, 'o'},
    {"overwrite", no_argument, NULL, OPT_OVERWRITE},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"phase", required_argument, NULL, OPT_PHASE},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static void log_summary(const mp_clip_levels *cl)
{
    for (uint32_t k = 0; k < cl->segment_count; k++) {
        const mp_levels_segment *s = &cl->segments[k];
        const dualiso_levels *lv = &s->levels;
        if (lv->is_dual)
            mp_log(&cli_logger, MP_LOG_INFO, "frames %u-%u: dual ISO, phase %u, %.3f EV, "
                   "blacks %.2f/%.2f, whites %.0f/%.0f, %u frames used", s->first_frame,
                   s->last_frame, lv->phase, lv->ratio_ev, lv->black_dark, lv->black_bright,
                   lv->white_dark, lv->white_bright, lv->frames_used);
        else
            mp_log(&cli_logger, MP_LOG_INFO, "frames %u-%u: single ISO", s->first_frame,
                   s->last_frame);
    }
}

int cmd_analyze(int argc, char **argv)
{
    static const char command[] = "analyze";
    mp_prepass_options po;
    mp_prepass_options_default(&po);
    po.log = cli_logger;
    const char *input = NULL, *output = NULL;
    int overwrite = 0;
    int rc;

    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "o:h", long_options, NULL)) != -1) {
        switch (c) {
        case 'o': output = optarg; break;
        case OPT_OVERWRITE: overwrite = 1; break;
        case OPT_THREADS:
            if ((rc = cli_option_threads(command, optarg, &po.threads)))
                return rc;
            break;
        case OPT_PHASE:
            if ((rc = cli_option_phase(command, optarg, &po.force_phase)))
                return rc;
            break;
        case 'h': usage(stdout); return EXIT_OK;
        default:
            return cli_usage_error(command, "unknown or incomplete option '%s'", argv[optind - 1]);
        }
    }
    if ((rc = cli_one_clip(command, argv + optind, argc - optind, &input)))
        return rc;

    cli_install_signals();
    po.cancel = &cli_cancel;
    mlv_clip *clip = NULL;
    mlv_open_options oo = {cli_logger, 0};
    mp_error err = {0};
    mp_status st = mlv_clip_open(&clip, input, &oo, &err);
    if (st != MP_OK) {
        mp_log(&cli_logger, MP_LOG_ERROR, "%s", err.msg);
        return cli_exit_for_input(st);
    }
    int damaged = mlv_clip_get_info(clip)->damage_count > 0; /* logged while opening */

    mp_clip_levels cl;
    st = mp_prepass_run(clip, &po, "mlvpipe " MLVPIPE_VERSION, &cl, &err);
    mlv_clip_close(clip);
    if (st != MP_OK) {
        mp_log(&cli_logger, MP_LOG_ERROR, "%s", err.msg);
        return st == MP_ERR_INTERRUPTED ? EXIT_INTERRUPTED : cli_exit_for_input(st);
    }
    log_summary(&cl);
    int code = damaged ? EXIT_DAMAGED : EXIT_OK;
    if (output) {
        st = mp_clip_levels_write(output, &cl, overwrite, &err);
    } else {
        char *text;
        size_t len;
        st = mp_clip_levels_to_json(&cl, &text, &len, &err);
        if (st == MP_OK) {
            if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0)
                st = mp_error_set(&err, MP_ERR_IO, "stdout: write failed");
            free(text);
        }
    }
    mp_clip_levels_free(&cl);
    if (st != MP_OK) {
        mp_log(&cli_logger, MP_LOG_ERROR, "%s", err.msg);
        code = st == MP_ERR_IO ? EXIT_OUTPUT : EXIT_INTERNAL;
    }
    return code;
}
