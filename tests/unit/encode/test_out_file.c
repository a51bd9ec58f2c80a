/* Temporary file + rename: complete files only under the final name; a killed writer leaves
 * no final name; existing files are kept unless overwriting; write errors (EACCES, ENOSPC,
 * EFBIG) come back as one line naming the path; whole-buffer files in one call. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/out_file.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/mlvpipe-out-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "chmod -R u+w '%s'; rm -rf '%s'", dir, dir);
    return system(cmd);
}

static int entries(const char *d)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "exit $(ls -A '%s' | wc -l)", d);
    int r = system(cmd);
    return WEXITSTATUS(r);
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void test_commit_and_no_overwrite(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/a.dng", dir);
    mp_out_file f;
    mp_error err = {0};
    assert_int_equal(mp_out_open(&f, path, 0, &err), MP_OK);
    assert_int_equal(mp_out_write(&f, "hello", 5, &err), MP_OK);
    assert_false(exists(path));                  /* not visible before the commit */
    assert_int_equal(entries(dir), 1);
    assert_int_equal(mp_out_pwrite(&f, "J", 1, 0, &err), MP_OK);
    assert_int_equal(mp_out_commit(&f, 1, &err), MP_OK);
    assert_true(exists(path));
    assert_int_equal(entries(dir), 1);           /* the temporary name is gone */
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, 5);

    assert_int_equal(mp_out_open(&f, path, 0, &err), MP_ERR_IO);
    assert_non_null(strstr(err.msg, "a.dng: exists"));

    /* Someone creates the final name while we write: the rename refuses to replace it. */
    char other[128];
    snprintf(other, sizeof other, "%s/b.dng", dir);
    assert_int_equal(mp_out_open(&f, other, 0, &err), MP_OK);
    assert_int_equal(mp_out_write(&f, "new", 3, &err), MP_OK);
    FILE *fp = fopen(other, "w");
    fputs("first", fp);
    fclose(fp);
    assert_int_equal(mp_out_commit(&f, 0, &err), MP_ERR_IO);
    assert_non_null(strstr(err.msg, "b.dng: exists"));
    assert_int_equal(stat(other, &st), 0);
    assert_int_equal(st.st_size, 5);
    assert_int_equal(entries(dir), 2);           /* temporary file removed */

    assert_int_equal(mp_out_open(&f, other, 1, &err), MP_OK);   /* overwrite on request */
    assert_int_equal(mp_out_write(&f, "new", 3, &err), MP_OK);
    assert_int_equal(mp_out_commit(&f, 0, &err), MP_OK);
    assert_int_equal(stat(other, &st), 0);
    assert_int_equal(st.st_size, 3);

    assert_int_equal(mp_out_open(&f, path + 0, 1, &err), MP_OK);
    mp_out_abort(&f);
    mp_out_abort(&f);                            /* twice is harmless */
    assert_int_equal(entries(dir), 2);
}

static void test_killed_writer_leaves_no_final_name(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/killed.dng", dir);
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        mp_out_file f;
        static char block[1 << 16];
        if (mp_out_open(&f, path, 0, NULL) != MP_OK)
            _exit(1);
        for (int i = 0; i < 16; i++)
            mp_out_write(&f, block, sizeof block, NULL);
        if (write(ready[1], "x", 1) != 1)
            _exit(1);
        for (;;)
            pause();
    }
    char c;
    assert_int_equal(read(ready[0], &c, 1), 1);
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFSIGNALED(status));
    close(ready[0]);
    close(ready[1]);
    assert_false(exists(path));
}

/* Permission checks do not apply to root: drop to "nobody" in a child when needed. */
static void test_read_only_folder(void **state)
{
    (void)state;
    char ro[128], path[160];
    snprintf(ro, sizeof ro, "%s/ro", dir);
    assert_int_equal(mkdir(ro, 0555), 0);
    assert_int_equal(chmod(ro, 0555), 0);
    snprintf(path, sizeof path, "%s/x.dng", ro);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    if (pid == 0) {
        if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            _exit(2);
        mp_out_file f;
        mp_error err = {0};
        mp_status st = mp_out_open(&f, path, 0, &err);
        dprintf(fds[1], "%d %s", st, err.msg);
        _exit(0);
    }
    close(fds[1]);
    char msg[700] = {0};
    assert_true(read(fds[0], msg, sizeof msg - 1) > 0);
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    assert_int_equal(WEXITSTATUS(status), 0);
    char want[300];
    snprintf(want, sizeof want, "%d %s: cannot create: %s", MP_ERR_IO, path, strerror(EACCES));
    assert_string_equal(msg, want);
    assert_int_equal(entries(ro), 0);
}

static void test_full_device(void **state)
{
    (void)state;
    int fd = open("/dev/full", O_WRONLY);
    if (fd < 0)
        skip();
    /* The write path on its own: the error names the final path, offset and ENOSPC. */
    mp_out_file f = {.fd = fd, .final_path = "/out/frame.dng"};
    mp_error err = {0};
    assert_int_equal(mp_out_write(&f, "abcd", 4, &err), MP_ERR_IO);
    char want[200];
    snprintf(want, sizeof want, "/out/frame.dng: offset 0: write failed: %s",
             strerror(ENOSPC));
    assert_string_equal(err.msg, want);
    assert_int_equal(mp_out_pwrite(&f, "abcd", 4, 8, &err), MP_ERR_IO);
    assert_non_null(strstr(err.msg, strerror(ENOSPC)));
    mp_out_abort(&f);
}

/* A file-size limit makes a real file's write fail half-way: EFBIG, nothing left behind. */
static void test_write_failure_cleans_up(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/big.dng", dir);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit lim = {4096, 4096};
        setrlimit(RLIMIT_FSIZE, &lim);
        static char block[10000];
        mp_error err = {0};
        mp_status st = mp_out_write_file(path, block, sizeof block, 0, 0, &err);
        dprintf(fds[1], "%d %s", st, err.msg);
        _exit(0);
    }
    close(fds[1]);
    char msg[700] = {0};
    assert_true(read(fds[0], msg, sizeof msg - 1) > 0);
    close(fds[0]);
    waitpid(pid, NULL, 0);
    char want[300];
    snprintf(want, sizeof want, "%d %s: offset 4096: write failed: %s", MP_ERR_IO, path,
             strerror(EFBIG));
    assert_string_equal(msg, want);
    assert_false(exists(path));
    assert_int_equal(entries(dir), 0);
}

/* mp_out_write_file: the whole buffer under the final name; an existing file is kept unless
 * overwriting (write failures: test_write_failure_cleans_up). */
static void test_write_file(void **state)
{
    (void)state;
    char path[128], got[8] = {0};
    snprintf(path, sizeof path, "%s/whole.md5", dir);
    mp_error err = {0};
    assert_int_equal(mp_out_write_file(path, "first", 5, 0, 1, &err), MP_OK);
    assert_int_equal(mp_out_write_file(path, "second", 6, 0, 0, &err), MP_ERR_IO);
    assert_non_null(strstr(err.msg, "exists"));
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(got, 1, sizeof got, f), 5);
    fclose(f);
    assert_string_equal(got, "first");
    assert_int_equal(mp_out_write_file(path, "second", 6, 1, 0, &err), MP_OK);
    assert_non_null(f = fopen(path, "rb"));
    assert_int_equal(fread(got, 1, sizeof got, f), 6);
    fclose(f);
    assert_memory_equal(got, "second", 6);
    assert_int_equal(entries(dir), 1);
}

/* A buffer of several write() calls (out_file.c takes at most 1 MiB a call) lands whole and in
 * order. */
static void test_write_in_pieces(void **state)
{
    (void)state;
    const size_t n = (5u << 19) + 3;
    uint8_t *buf = malloc(n), *got = malloc(n + 1);
    assert_non_null(buf);
    assert_non_null(got);
    for (size_t i = 0; i < n; i++)
        buf[i] = (uint8_t)(i * 7 + (i >> 20));
    char path[128];
    snprintf(path, sizeof path, "%s/big.dng", dir);
    mp_error err = {0};
    assert_int_equal(mp_out_write_file(path, buf, n, 0, 0, &err), MP_OK);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(got, 1, n + 1, f), n);
    fclose(f);
    assert_memory_equal(got, buf, n);
    free(buf);
    free(got);
}

static void test_make_dir(void **state)
{
    (void)state;
    char d[128], file[160];
    mp_error err;
    snprintf(d, sizeof d, "%s/sub", dir);
    assert_int_equal(mp_make_dir(d, &err), MP_OK);
    assert_int_equal(mp_make_dir(d, &err), MP_OK);     /* existing folder is fine */
    snprintf(file, sizeof file, "%s/sub/f", dir);
    fclose(fopen(file, "w"));
    assert_int_equal(mp_make_dir(file, &err), MP_ERR_IO);
    assert_non_null(strstr(err.msg, "not a folder"));
    snprintf(file, sizeof file, "%s/missing/deeper", dir);
    assert_int_equal(mp_make_dir(file, &err), MP_ERR_IO);
    assert_non_null(strstr(err.msg, "missing/deeper: cannot create folder"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_commit_and_no_overwrite, setup, teardown),
        cmocka_unit_test_setup_teardown(test_killed_writer_leaves_no_final_name, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_only_folder, setup, teardown),
        cmocka_unit_test_setup_teardown(test_full_device, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_failure_cleans_up, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_in_pieces, setup, teardown),
        cmocka_unit_test_setup_teardown(test_make_dir, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
