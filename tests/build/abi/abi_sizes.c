/* Settings of other sizes than this header's (version.h), against the library of today, as
 * the header's macros would pass them from a newer or an older header:
 *   abi_sizes CLIP OUT.md5
 * a struct from a newer header whose extra member is zero converts (to OUT.md5); set, it is
 * refused before any work, naming the byte; one shorter than API 4.0's is refused; the
 * defaults fill a newer header's extra member with zero; a member a newer header took from
 * the reserved room of the convert or join settings (API 4.2), set, is refused. Prints one
 * line per case. */
#include <stdio.h>
#include <string.h>

#include <mlvpipe/mlvpipe.h>

typedef struct newer_settings {
    mlvpipe_convert_settings s;
    int future;                   /* a member of an API this library does not know */
} newer_settings;

static void show(const char *what, mlvpipe_status st, const mlvpipe_error *err)
{
    printf("%s: %s%s%s\n", what, mlvpipe_status_name(st), st ? ": " : "",
           st ? err->message : "");
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    newer_settings n;
    memset(&n, 0xff, sizeof n);
    mlvpipe_default_convert_settings_sized(&n.s, sizeof n);
    printf("defaults: future %d\n", n.future);
    n.s.input = argv[1];
    n.s.output = argv[2];
    n.s.format = "md5";
    mlvpipe_error err;
    mlvpipe_convert_result r;
    n.future = 1;
    show("newer, set", mlvpipe_convert_movie_sized(&n.s, sizeof n, NULL, &r, &err), &err);
    n.future = 0;
    show("newer, zero", mlvpipe_convert_movie_sized(&n.s, sizeof n, NULL, &r, &err), &err);
    show("shorter than 4.0",
         mlvpipe_convert_movie_sized(&n.s, offsetof(mlvpipe_convert_settings, defects_from),
                                     NULL, &r, &err), &err);
    n.s.reserved[0] = 1;   /* a member a newer header took from the reserved room */
    show("reserved, set", mlvpipe_convert_movie(&n.s, NULL, &r, &err), &err);
    n.s.reserved[0] = 0;
    mlvpipe_join_settings j = {.output = argv[2], .segments = (const char *const *)argv,
                               .segment_count = 1, .reserved = {[6] = 1}};
    mlvpipe_join_result jr;
    show("join reserved, set", mlvpipe_join(&j, &jr, &err), &err);
    return 0;
}
