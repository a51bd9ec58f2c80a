#include <stdio.h>

#include "cli.h"

int cmd_info(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "mlvpipe: 'info' is not implemented yet\n");
    return EXIT_INTERNAL;
}
