#include <stdio.h>

#include "cli.h"

int cmd_analyze(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "mlvpipe: 'analyze' is not implemented yet\n");
    return EXIT_INTERNAL;
}
