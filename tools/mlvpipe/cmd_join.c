/* mlvpipe join OUT SEGMENT...: movie segments of farm chunks into one file, packets copied
 * (mlvpipe_join, include/mlvpipe/convert.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_options.h"
#include "cli_run.h"

static void usage(FILE *out)
{
    fprintf(out,
        "usage: mlvpipe join [--overwrite] [--allow-gaps] OUT SEGMENT...\n"
        "\n"
        "Joins movie segments (the per-chunk outputs of a farm plan, or any MOV/MKV/NUT\n"
        "files with the same streams) into OUT without re-encoding: every video and audio\n"
        "packet is copied as it is. Segments must have identical stream parameters.\n"
        "Segments play in the order of their timestamps (mlvpipe's carry absolute frame\n"
        "times), whatever the order given, and keep them, so joined mlvpipe segments have\n"
        "the packets of a whole-clip run. Missing frames between segments (a chunk not\n"
        "given), overlapping segments and a file given twice are refused, naming the\n"
        "frames. Segments that all start at the same time (e.g. at 0, cut by ffmpeg) are\n"
        "joined in the order given, each shifted to follow the previous one, audio with its\n"
        "video. The container comes from OUT's extension; OUT appears only when complete.\n"
        "FFV1 packets are checked (slice CRCs, a decode) before they are copied: a damaged\n"
        "one is refused naming the segment and the frame.\n"
        "\n"
        "options:\n");
    cli_options_print(out, CLI_JOIN, 20);
    fprintf(out,
        "\n"
        "exit status: 0 ok, 2 usage (also a segment given twice, or OUT existing without\n"
        "--overwrite), 3 a segment unreadable, not matching the first, or frames missing or\n"
        "repeated between segments,\n"
        "4 a segment damaged (nothing written), 5 output failed, 6 interrupted,\n"
        "1 internal error.\n");
}

int cmd_join(int argc, char **argv)
{
    static const char command[] = "join";
    mlvpipe_join_settings o = {.log = cli_api_logger};
    cli_parsed parsed;
    int rc = cli_options_parse(CLI_JOIN, command, argc, argv, &o, &parsed, usage);
    if (rc || parsed.help)
        return rc;
    if (parsed.operand_count < 2)
        return cli_usage_error(command, "needs OUT and at least one SEGMENT");
    o.output = parsed.operands[0];
    o.segments = (const char *const *)parsed.operands + 1;
    o.segment_count = (uint32_t)(parsed.operand_count - 1);
    for (uint32_t i = 0; i < o.segment_count; i++)
        if (!strcmp(o.segments[i], o.output))
            return cli_usage_error(command, "the output '%s' is also a segment", o.output);
    if ((rc = cli_check_new_output(command, o.output, o.overwrite)))
        return rc;

    mlvpipe_route_libav_log(&cli_api_logger);
    o.cancel = &cli_cancel;
    mlvpipe_join_result res;
    mlvpipe_error err = {0};
    mlvpipe_status st = mlvpipe_join(&o, &res, &err);
    mlvpipe_route_libav_log(NULL);
    if (st == MLVPIPE_OK) {
        cli_log(MLVPIPE_LOG_INFO, "%s: %" PRIu32 " segments, %" PRIu64 " packets (%"
               PRIu64 " video), %" PRIu32 " shifted", o.output, o.segment_count, res.packets,
               res.video_packets, res.shifted_segments);
        return EXIT_OK;
    }
    if (st == MLVPIPE_ERR_ARG)   /* e.g. an output that is one of the segments */
        return cli_usage_error(command, "%s", err.message);
    cli_log(st == MLVPIPE_ERR_INTERRUPTED ? MLVPIPE_LOG_WARNING : MLVPIPE_LOG_ERROR, "%s",
            err.message);
    if (st == MLVPIPE_ERR_INTERRUPTED)
        return EXIT_INTERRUPTED;
    return res.output_failed ? EXIT_OUTPUT : cli_exit_for_input(st);
}
