/* mlvpipe info CLIP [--json]: what is in a clip, including every damage entry: the report of
 * mlvpipe_clip_describe, as text or as JSON (keys: doc/json.md, section 1). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_options.h"
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
            "options:\n");
    cli_options_print(out, CLI_INFO, 16);
    fprintf(out,
            "\n"
            "exit status: 0 clip intact, 3 clip missing, unreadable or its video unsupported,\n"
            "4 clip damaged: exactly when the damage list has entries (everything readable is\n"
            "still described).\n");
}

int cmd_info(int argc, char **argv)
{
    cli_info_args args = {0};
    cli_parsed parsed;
    int rc = cli_options_parse(CLI_INFO, "info", argc, argv, &args, &parsed, usage);
    if (rc || parsed.help)
        return rc;
    if (parsed.operand_count > 1)
        return cli_usage_error("info", "one clip at a time ('%s' and '%s')", parsed.operands[0],
                               parsed.operands[1]);
    if (!parsed.operand_count)
        return cli_usage_error("info", "no clip given");
    const char *path = parsed.operands[0];
    int json = args.json, defects = args.defects;

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
