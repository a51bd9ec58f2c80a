/* Runs a fuzz target without libFuzzer (as dav1d does): each file named on the command line,
 * or each file of each folder named, is given to LLVMFuzzerTestOneInput once. Built with
 * the normal compiler for every test build, so the seed corpus is replayed by the test suite
 * (under ASan/UBSan in the sanitizer build). Prints how many inputs ran. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 1;
    }
    uint8_t *buf = NULL;
    size_t size = 0, cap = 0;
    for (;;) {
        if (size == cap) {
            cap = cap ? 2 * cap : 65536;
            uint8_t *p = realloc(buf, cap);
            if (!p)
                abort();
            buf = p;
        }
        size_t got = fread(buf + size, 1, cap - size, f);
        if (!got)
            break;
        size += got;
    }
    fclose(f);
    /* an exact-size copy, so that ASan sees reads past the input's end */
    uint8_t *exact = malloc(size ? size : 1);
    if (!exact)
        abort();
    memcpy(exact, buf, size);
    free(buf);
    LLVMFuzzerTestOneInput(exact, size);
    free(exact);
    return 0;
}

int main(int argc, char **argv)
{
    unsigned ran = 0, failed = 0;
    for (int i = 1; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) != 0) {
            fprintf(stderr, "replay: no %s\n", argv[i]);
            return 1;
        }
        if (!S_ISDIR(sb.st_mode)) {
            failed += run_file(argv[i]);
            ran++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        const struct dirent *e;
        while (d && (e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            failed += run_file(path);
            ran++;
        }
        if (d)
            closedir(d);
    }
    printf("replayed %u inputs\n", ran);
    return failed || !ran;
}
