#include <stdio.h>

#include "cli.h"

int cmd_plan(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "mlvpipe: 'plan' is not implemented yet\n");
    return EXIT_INTERNAL;
}
