/* Unit tests for farm plans: chunk boundaries, shell quoting (checked by a real shell), and
 * the three engines' job descriptions (JSON parsed back, scripts checked with bash -n). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "farm/plan.h"
#include "common/json.h"

/* Chunks of numbers[] as "first-last/frames,..." */
static mp_status chunk_text(const uint32_t *numbers, uint32_t count, uint32_t size, char *buf,
                            size_t bufsize)
{
    farm_chunk *c;
    uint32_t n;
    mp_error err = {0};
    buf[0] = 0;
    mp_status st = mp_farm_chunks(numbers, count, size, &c, &n, &err);
    if (st != MP_OK)
        return st;
    size_t used = 0;
    for (uint32_t i = 0; i < n; i++)
        used += (size_t)snprintf(buf + used, bufsize - used, "%s%u-%u/%u", i ? "," : "",
                                 c[i].first, c[i].last, c[i].frames);
    free(c);
    return MP_OK;
}

static void test_chunks_even_and_clamped(void **state)
{
    (void)state;
    uint32_t numbers[53];
    char buf[512];
    for (uint32_t i = 0; i < 48; i++)
        numbers[i] = i;
    assert_int_equal(chunk_text(numbers, 48, 12, buf, sizeof buf), MP_OK);
    assert_string_equal(buf, "0-11/12,12-23/12,24-35/12,36-47/12");
    /* A clip starting at frame 5: chunks count from it; the last one ends at the clip. */
    for (uint32_t i = 0; i < 48; i++)
        numbers[i] = 5 + i;
    assert_int_equal(chunk_text(numbers, 48, 10, buf, sizeof buf), MP_OK);
    assert_string_equal(buf, "5-14/10,15-24/10,25-34/10,35-44/10,45-52/8");
    /* Chunk bigger than the clip: one chunk. Size 1: one per frame. */
    assert_int_equal(chunk_text(numbers, 3, 100, buf, sizeof buf), MP_OK);
    assert_string_equal(buf, "5-7/3");
    assert_int_equal(chunk_text(numbers, 3, 1, buf, sizeof buf), MP_OK);
    assert_string_equal(buf, "5-5/1,6-6/1,7-7/1");
}

static void test_chunks_gaps_and_limits(void **state)
{
    (void)state;
    char buf[512];
    /* Dropped frames: chunks 10-19, 20-29 and 40-99 hold nothing and are left out; the
     * boundaries of the others do not move. */
    const uint32_t gaps[] = {0, 1, 2, 30, 31, 100};
    assert_int_equal(chunk_text(gaps, 6, 10, buf, sizeof buf), MP_OK);
    assert_string_equal(buf, "0-9/3,30-39/2,100-100/1");
    /* Frame numbers at the top of the range do not overflow. */
    const uint32_t top[] = {4294967290u, 4294967295u};
    assert_int_equal(chunk_text(top, 2, 4, buf, sizeof buf), MP_OK);
    assert_string_equal(buf, "4294967290-4294967293/1,4294967294-4294967295/1");
    assert_int_equal(chunk_text(top, 2, 0, buf, sizeof buf), MP_ERR_ARG);
    assert_int_equal(chunk_text(top, 0, 4, buf, sizeof buf), MP_ERR_ARG);
}

static void quoted(const char *s, char *buf, size_t size)
{
    mp_text t = {0};
    mp_farm_shell_quote(&t, s);
    assert_false(t.failed);
    snprintf(buf, size, "%s", t.data);
    mp_text_free(&t);
}

/* What /bin/sh makes of the quoted word: printf '%s|' WORD. */
static void shell_echo(const char *s, char *out, size_t size)
{
    char word[512], cmd[1024];
    quoted(s, word, sizeof word);
    snprintf(cmd, sizeof cmd, "printf '%%s|' %s", word);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    size_t n = fread(out, 1, size - 1, f);
    out[n] = 0;
    assert_int_equal(pclose(f), 0);
}

static void test_shell_quote(void **state)
{
    (void)state;
    char buf[512];
    quoted("/data/A001.MLV", buf, sizeof buf);
    assert_string_equal(buf, "/data/A001.MLV");
    quoted("--output=x,y:z@h%1+2", buf, sizeof buf);
    assert_string_equal(buf, "--output=x,y:z@h%1+2");
    quoted("", buf, sizeof buf);
    assert_string_equal(buf, "''");
    quoted("it's", buf, sizeof buf);
    assert_string_equal(buf, "'it'\\''s'");
    /* Every hostile word comes back from a real shell as one word, unchanged. */
    const char *hostile[] = {"a b", "it's", "$HOME", "`id`", "$(id)", "a;b&c|d", "*", "~",
                             "\"q\"", "back\\slash", "{1}", "!x", "'", "''", "é ü"};
    for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
        char want[256];
        snprintf(want, sizeof want, "%s|", hostile[i]);
        shell_echo(hostile[i], buf, sizeof buf);
        assert_string_equal(buf, want);
    }
}

static void test_check_text(void **state)
{
    (void)state;
    mp_error err = {0};
    assert_int_equal(mp_farm_check_text("clip path", "/a b/c'd", &err), MP_OK);
    assert_int_equal(mp_farm_check_text("clip path", "/a\nMLVPIPE_JOB", &err), MP_ERR_ARG);
    assert_non_null(strstr(err.msg, "clip path"));
    assert_non_null(strstr(err.msg, "offset 2"));
}

static const farm_chunk three[] = {{0, 9, 10}, {10, 19, 10}, {20, 24, 5}};

static void base_plan(farm_plan *p)
{
    memset(p, 0, sizeof *p);
    p->tool = "mlvpipe test";
    p->program = "/opt/ml pipe/mlvpipe";
    p->clip = "/shared/it's A001.MLV";
    p->output = "/shared/out $x";
    p->name = "it's A001";
    p->levels = "/shared/out $x/A001.levels.json";
    p->phase = -1;
    p->guid = 0x1122334455667788ull;
    p->frame_count = 25;
    p->first_frame = 0;
    p->last_frame = 24;
    p->chunk_size = 10;
    p->chunks = three;
    p->chunk_count = 3;
}

static char *render(const farm_plan *p, farm_engine e)
{
    mp_text t = {0};
    mp_error err = {0};
    assert_int_equal(mp_farm_plan_render(p, e, &t, &err), MP_OK);
    return t.data;
}

/* bash -n on the script: it parses (quotes balanced, here-documents closed). */
static void assert_bash_parses(const char *script)
{
    char path[] = "/tmp/test_farm_plan_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, script, strlen(script)), (ssize_t)strlen(script));
    close(fd);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "bash -n %s 2>/dev/null", path);
    int rc = system(cmd);
    unlink(path);
    assert_int_equal(rc, 0);
}

static void test_slurm_script(void **state)
{
    (void)state;
    farm_plan p;
    base_plan(&p);
    p.threads = 2;
    p.sbatch[p.sbatch_count++] = "--partition=render";
    char *s = render(&p, FARM_SLURM);
    assert_bash_parses(s);
    assert_non_null(strstr(s, "--array=0-2 --dependency=afterok:\"$analyze\""));
    assert_non_null(strstr(s, "frames=(0-9 10-19 20-24)\n"));
    /* Every job's --sbatch lines, then the work's resources (not on the final job). */
    assert_non_null(strstr(s, "#SBATCH --partition=render\n#SBATCH --cpus-per-task=2\n"));
    assert_non_null(strstr(s, "--frames \"${frames[$SLURM_ARRAY_TASK_ID]}\""));
    assert_non_null(strstr(s, "'/opt/ml pipe/mlvpipe' convert '/shared/it'\\''s A001.MLV' -o "
                              "'/shared/out $x' --levels"));
    assert_non_null(strstr(s, "--skip-existing"));
    /* DNG frames of a clip without audio: nothing to do after the chunks. */
    assert_null(strstr(s, "final="));
    free(s);

    /* With audio, a whole-clip convert --skip-existing after the array writes the WAV. */
    p.has_audio = 1;
    s = render(&p, FARM_SLURM);
    assert_bash_parses(s);
    assert_non_null(strstr(s, "--dependency=afterok:\"$convert\""));
    assert_non_null(strstr(s, "echo \"$analyze $convert $final\""));
    const char *final_job = strstr(s, "final=$(sbatch");
    assert_non_null(final_job);
    /* the WAV step is a convert with the tasks' --threads 2: as many CPUs, not their memory */
    assert_non_null(strstr(final_job, "#SBATCH --partition=render\n#SBATCH --cpus-per-task=2\n"));
    assert_non_null(strstr(final_job, "--threads 2"));
    assert_null(strstr(final_job, "--mem"));
    free(s);

    /* Movies: a segments array for -o and a join job. */
    p.format = "ffv1";
    p.movie_ext = "mkv";
    s = render(&p, FARM_SLURM);
    assert_bash_parses(s);
    assert_non_null(strstr(s, "segments=('/shared/out $x/it'\\''s A001_segments/it'\\''s "
                              "A001_000000-000009.mkv' "));
    assert_non_null(strstr(s, "-o \"${segments[$SLURM_ARRAY_TASK_ID]}\""));
    assert_non_null(strstr(s, "mlvpipe' join --overwrite '/shared/out $x/it'\\''s A001.mkv' "));
    assert_non_null(strstr(s, "--overwrite"));
    free(s);
}

/* Without --mem: the measured model (doc/farm.md "Memory"), by frame size, threads and what
 * the task does, half again and rounded up to 64 MiB. */
static void test_default_mem(void **state)
{
    (void)state;
    farm_plan p;
    base_plan(&p);
    p.width = 1920;
    p.height = 1080;
    p.threads = 4;
    assert_int_equal(mp_farm_default_mem_mb(&p, 0), 192);    /* measured: 118 MB */
    assert_int_equal(mp_farm_default_mem_mb(&p, 1), 512);    /* measured: 333 MB */
    p.threads = 0;                                           /* one thread */
    assert_int_equal(mp_farm_default_mem_mb(&p, 1), 192);    /* measured: 111 MB */
    p.width = 4096;
    p.height = 2160;
    p.threads = 8;
    assert_int_equal(mp_farm_default_mem_mb(&p, 0), 832);
    assert_int_equal(mp_farm_default_mem_mb(&p, 1), 3776);
    p.mem = NULL;
    p.developed = 1;
    p.format = "prores422hq";
    p.movie_ext = "mov";
    char *s = render(&p, FARM_SLURM);
    assert_non_null(strstr(s, "#SBATCH --mem=832M\n"));    /* analyze */
    assert_non_null(strstr(s, "#SBATCH --mem=3776M\n"));   /* the ProRes tasks */
    free(s);
}

static void test_parallel_script(void **state)
{
    (void)state;
    farm_plan p;
    base_plan(&p);
    p.sshlogin = "2/node1,2/node2";
    p.jobs = 2;
    p.extra[p.extra_count++] = "--some-option=a b";
    char *s = render(&p, FARM_PARALLEL);
    assert_bash_parses(s);
    assert_non_null(strstr(s, "parallel --halt now,fail=1 -q --sshlogin 2/node1,2/node2 "
                              "--jobs 2 "));
    assert_non_null(strstr(s, "'--some-option=a b' --frames {1} \\\n  ::: 0-9 10-19 20-24\n"));
    free(s);
}

static void test_json(void **state)
{
    (void)state;
    farm_plan p;
    base_plan(&p);
    p.format = "prores422hq";
    p.movie_ext = "mov";
    p.phase = 1;
    char *s = render(&p, FARM_JSON);
    mp_json_doc doc;
    mp_error err = {0};
    assert_int_equal(mp_json_parse(s, strlen(s), "plan", &doc, &err), MP_OK);
    /* Find "tasks" and check ids, dependencies and one argv. */
    uint32_t tasks = MP_JSON_NONE;
    for (uint32_t c = doc.nodes[0].child; c != MP_JSON_NONE; c = doc.nodes[c].next)
        if (!strcmp(mp_json_key(&doc, c), "tasks"))
            tasks = c;
    assert_true(tasks != MP_JSON_NONE);
    assert_int_equal(doc.nodes[tasks].count, 5);   /* analyze, 3 chunks, join */
    char joined[2048] = "";
    uint32_t k = 0;
    for (uint32_t t = doc.nodes[tasks].child; t != MP_JSON_NONE; t = doc.nodes[t].next, k++) {
        for (uint32_t f = doc.nodes[t].child; f != MP_JSON_NONE; f = doc.nodes[f].next) {
            const char *key = mp_json_key(&doc, f);
            if (!strcmp(key, "id"))
                strcat(joined, mp_json_string(&doc, f)), strcat(joined, "<");
            if (!strcmp(key, "after"))
                for (uint32_t a = doc.nodes[f].child; a != MP_JSON_NONE; a = doc.nodes[a].next)
                    strcat(joined, mp_json_string(&doc, a)), strcat(joined, " ");
            if (!strcmp(key, "argv") && k == 3) {
                strcat(joined, "[");
                for (uint32_t a = doc.nodes[f].child; a != MP_JSON_NONE; a = doc.nodes[a].next)
                    strcat(joined, mp_json_string(&doc, a)), strcat(joined, "|");
                strcat(joined, "]");
            }
        }
        strcat(joined, ";");
    }
    assert_string_equal(joined,
        "analyze<;convert_000000-000009<analyze ;convert_000010-000019<analyze ;"
        "convert_000020-000024<analyze [/opt/ml pipe/mlvpipe|convert|/shared/it's A001.MLV|"
        "--levels|/shared/out $x/A001.levels.json|--to|prores422hq|--phase|1|--progress|json|"
        "--progress-every|10|"
        "--overwrite|--frames|20-24|-o|/shared/out $x/it's A001_segments/it's "
        "A001_000020-000024.mov|];"
        "join<convert_000000-000009 convert_000010-000019 convert_000020-000024 ;");
    mp_json_free(&doc);
    free(s);
}

/* The clip path comes back from the JSON parser unchanged: quotes, backslashes, UTF-8. */
static void test_json_escaping(void **state)
{
    (void)state;
    farm_plan p;
    base_plan(&p);
    p.clip = "/a \"b\" \\c\\ \xc3\xa9.MLV";
    char *s = render(&p, FARM_JSON);
    mp_json_doc doc;
    mp_error err = {0};
    assert_int_equal(mp_json_parse(s, strlen(s), "plan", &doc, &err), MP_OK);
    const char *path = NULL;
    for (uint32_t c = doc.nodes[0].child; c != MP_JSON_NONE; c = doc.nodes[c].next)
        if (!strcmp(mp_json_key(&doc, c), "clip"))
            for (uint32_t f = doc.nodes[c].child; f != MP_JSON_NONE; f = doc.nodes[f].next)
                if (!strcmp(mp_json_key(&doc, f), "path"))
                    path = mp_json_string(&doc, f);
    assert_non_null(path);
    assert_string_equal(path, p.clip);
    mp_json_free(&doc);
    free(s);
}

static void test_refuses_control_characters(void **state)
{
    (void)state;
    farm_plan p;
    base_plan(&p);
    p.output = "/out\nMLVPIPE_JOB\nrm -rf /";
    mp_text t = {0};
    mp_error err = {0};
    assert_int_equal(mp_farm_plan_render(&p, FARM_SLURM, &t, &err), MP_ERR_ARG);
    assert_non_null(strstr(err.msg, "output path"));
    mp_text_free(&t);
    base_plan(&p);
    p.sbatch[p.sbatch_count++] = "--x\ty";
    assert_int_equal(mp_farm_plan_render(&p, FARM_JSON, &t, &err), MP_ERR_ARG);
    mp_text_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chunks_even_and_clamped),
        cmocka_unit_test(test_chunks_gaps_and_limits),
        cmocka_unit_test(test_shell_quote),
        cmocka_unit_test(test_check_text),
        cmocka_unit_test(test_slurm_script),
        cmocka_unit_test(test_default_mem),
        cmocka_unit_test(test_parallel_script),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_json_escaping),
        cmocka_unit_test(test_refuses_control_characters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
