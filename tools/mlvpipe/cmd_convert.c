#include <stdio.h>

#include "cli.h"

int cmd_convert(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "mlvpipe: 'convert' is not implemented yet\n");
    return EXIT_INTERNAL;
}
