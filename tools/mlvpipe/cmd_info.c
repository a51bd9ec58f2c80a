/* mlvpipe info CLIP [--json]: what is in a clip, including every damage entry: the report of
 * mlvpipe_clip_describe, as text or as JSON (keys: doc/json.md, section 1). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_run.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mlvpipe info CLIP [--json] [--defects]\n"
            "\n"
            "Describes a Magic Lantern clip (.MLV with its .M00..M99 chunks, or a legacy .RAW\n"
            "with .R00..), a raw photo (.CR2, .DNG, a one-frame clip read through LibRaw: its\n"
            "format, picture area, orientation and owner too) or a folder of them (one clip, a\n"
            "frame per photo, as convert --sequence takes it): camera, lens, resolution, bit depth, black/white levels, frame rate,\n"
            "frame count and numbers, dropped frames (gaps), duration, compression, audio\n"
            "(format, duration, offset to the video), dual ISO (the DISO block and a check of\n"
            "the pixels of up to 5 frames spread over the clip), metadata segments, and one\n"
            "line per damage found (\"FILE: offset N: cause\"; frames of the dual-ISO check\n"
            "that are damaged count too).\n"
            "\n"
            "options:\n"
            "  --json      print one JSON object instead of text (keys: doc/json.md)\n"
            "  --defects   also run the pre-pass of 'convert' and report the raw defects it\n"
            "              finds per segment: focus-pixel lattice (period, sites), single hot\n"
            "              and cold pixels, vertical stripe amplitude (reads up to 32 frames\n"
            "              per segment)\n"
            "  -h, --help  show this help\n"
            "\n"
            "exit status: 0 clip intact, 3 clip missing, unreadable or its video unsupported,\n"
            "4 clip damaged: exactly when the damage list has entries (everything readable is\n"
            "still described).\n");
}

int cmd_info(int argc, char **argv)
{
    const char *path = NULL;
    int json = 0, defects = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (!strcmp(argv[i], "--defects")) {
            defects = 1;
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return EXIT_OK;
        } else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "-q")) {
            cli_verbosity_option(argv[i][1]);
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error("info", "unknown option '%s'", argv[i]);
        } else if (path) {
            return cli_usage_error("info", "one clip at a time ('%s' and '%s')", path, argv[i]);
        } else {
            path = argv[i];
        }
    }
    if (!path)
        return cli_usage_error("info", "no clip given");

    /* damage is listed in the output itself, so the reader's warnings are only wanted at -v */
    mlvpipe_clip *clip;
    mlvpipe_error err = {0};
    mlvpipe_status st = mlvpipe_clip_open(path, cli_verbosity >= 2 ? &cli_api_logger : NULL,
                                          &clip, &err);
    if (st != MLVPIPE_OK) {
        cli_log(MLVPIPE_LOG_ERROR, "%s", err.message);
        return cli_exit_for_input(st);
    }
    mlvpipe_clip_info info;
    mlvpipe_clip_get_info(clip, &info);
    mlvpipe_text report = {0};
    st = mlvpipe_clip_describe(clip, (json ? MLVPIPE_DESCRIBE_JSON : 0) |
                                         (defects ? MLVPIPE_DESCRIBE_DEFECTS : 0),
                               &report, &err);
    mlvpipe_clip_close(clip);
    if (report.length)   /* also when no frame is usable: the damage list says why */
        fwrite(report.data, 1, report.length, stdout);
    mlvpipe_text_free(&report);
    if (st != MLVPIPE_OK && st != MLVPIPE_ERR_DAMAGED) {
        cli_log(MLVPIPE_LOG_ERROR, "%s", err.message);
        return cli_exit_for_input(st);
    }

    if (!info.video_supported)
        return EXIT_INPUT;
    if (!info.frame_count) {
        cli_log(MLVPIPE_LOG_ERROR, "%s: no frame in the clip", path);
        return EXIT_INPUT;
    }
    return st == MLVPIPE_ERR_DAMAGED ? EXIT_DAMAGED : EXIT_OK;
}
