/* The omp_* C API of the core: wtime/wtick, schedule, dynamic, nested,
 * max active levels, thread limit, num procs, in_parallel, cancellation,
 * places and proc-bind queries, affinity format, display_env, pause,
 * allocators (predefined, traits, aligned, calloc, realloc, the allocate
 * clause through GOMP_alloc/GOMP_free) and the device queries of a host-only
 * runtime.
 *
 * Modes: none = defaults (run with no OMP_* variable set); "env" = the
 * values set by the CTest entry (see tests/omp/CMakeLists.txt);
 * "nested_env" = OMP_NESTED=true; "list_env" = OMP_NUM_THREADS=2,3; "badenv" =
 * re-runs itself with invalid values and checks that each gets exactly one
 * warning line naming it and that the defaults are kept. */
#define _GNU_SOURCE
#include <limits.h>
#include <omp.h>
#include <sched.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pvomp_check.h"
#include "omp_test.h"

/* Run fn with stdout and stderr redirected to a temporary file; return the
 * output (malloc'd). */
static char *capture_output(void (*fn)(void))
{
    char path[] = "/tmp/pvomp-api-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    unlink(path);
    fflush(stdout);
    fflush(stderr);
    int save1 = dup(1), save2 = dup(2);
    CHECK(save1 >= 0 && save2 >= 0);
    dup2(fd, 1);
    dup2(fd, 2);
    fn();
    fflush(stdout);
    fflush(stderr);
    dup2(save1, 1);
    dup2(save2, 2);
    close(save1);
    close(save2);
    off_t len = lseek(fd, 0, SEEK_END);
    CHECK(len >= 0);
    char *buf = malloc((size_t)len + 1);
    CHECK(buf != NULL);
    CHECK(pread(fd, buf, (size_t)len, 0) == len);
    buf[len] = 0;
    close(fd);
    return buf;
}

static void display_env_plain(void)
{
    omp_display_env(0);
}

static void display_env_verbose(void)
{
    omp_display_env(1);
}

static void test_time(void)
{
    double tick = omp_get_wtick();
    CHECK(tick > 0 && tick < 1);
    double prev = omp_get_wtime();
    for (int i = 0; i < 200000; i++) {
        double now = omp_get_wtime();
        CHECK(now >= prev);
        prev = now;
    }
    /* It measures seconds: a 20 ms sleep shows up as about 20 ms. */
    double t0 = omp_get_wtime();
    usleep(20000);
    double dt = omp_get_wtime() - t0;
    CHECK(dt >= 0.019 && dt < 5.0);
    /* Every thread reads the same clock. */
    int bad = 0;
#pragma omp parallel num_threads(3)
    {
        double t = omp_get_wtime();
        if (t < t0 || omp_get_wtick() != tick)
            TEST_INC(&bad);
    }
    CHECK(bad == 0);
}

static void test_icv_routines(void)
{
    omp_sched_t k;
    int chunk;
    omp_set_schedule(omp_sched_guided, 9);
    omp_get_schedule(&k, &chunk);
    CHECK(k == omp_sched_guided && chunk == 9);
    omp_set_schedule(omp_sched_dynamic | omp_sched_monotonic, 4);
    omp_get_schedule(&k, &chunk);
    CHECK(k == (omp_sched_dynamic | omp_sched_monotonic) && chunk == 4);
    omp_set_schedule(omp_sched_auto, 0);
    omp_get_schedule(&k, &chunk);
    CHECK(k == omp_sched_auto);
    omp_set_schedule(omp_sched_static, 0);

    CHECK(omp_get_dynamic() == 0);
    omp_set_dynamic(1);
    CHECK(omp_get_dynamic() == 1);
    omp_set_dynamic(0);
    CHECK(omp_get_dynamic() == 0);

    int supported = omp_get_supported_active_levels();
    CHECK(supported >= 1);
    omp_set_max_active_levels(supported + 1000);
    CHECK(omp_get_max_active_levels() == supported);
    omp_set_max_active_levels(1);
    CHECK(omp_get_max_active_levels() == 1);
    CHECK(omp_get_nested() == 0);
    omp_set_nested(1);
    CHECK(omp_get_max_active_levels() == (supported > 1 ? supported : 1));
    CHECK(omp_get_nested() == (supported > 1));
    omp_set_nested(0);
    CHECK(omp_get_max_active_levels() == 1 && omp_get_nested() == 0);
    omp_set_max_active_levels(3);
    CHECK(omp_get_max_active_levels() == 3);

    /* ICVs set inside a region belong to that thread's data environment. */
    int inner_dyn = -1;
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 1) {
            omp_set_dynamic(1);
            inner_dyn = omp_get_dynamic();
        }
    }
    CHECK(inner_dyn == 1 && omp_get_dynamic() == 0);

    CHECK(omp_get_max_task_priority() == 0);
    CHECK(omp_in_final() == 0);
    CHECK(omp_get_cancellation() == 0);
    CHECK(omp_get_thread_limit() > 1024);
}

static void test_procs_and_places(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CHECK(sched_getaffinity(0, sizeof set, &set) == 0);
    CHECK(omp_get_num_procs() == CPU_COUNT(&set));
    CHECK(!omp_in_parallel());
    int inpar = 0;
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 1)
            inpar = omp_in_parallel();
    }
    CHECK(inpar == 1);

    int np = omp_get_num_places();
    CHECK(np >= 0);
    for (int p = 0; p < np; p++) {
        int n = omp_get_place_num_procs(p);
        CHECK(n >= 1);
        int ids[1024];
        CHECK(n <= 1024);
        omp_get_place_proc_ids(p, ids);
        for (int i = 0; i < n; i++)
            CHECK(ids[i] >= 0);
    }
    CHECK(omp_get_place_num_procs(-1) == 0 && omp_get_place_num_procs(np) == 0);
    int pn = omp_get_place_num();
    CHECK(pn >= -1 && pn < np);
    CHECK(omp_get_partition_num_places() >= 0);
    int pb = omp_get_proc_bind();
    CHECK(pb >= omp_proc_bind_false && pb <= omp_proc_bind_spread);
}

static void test_affinity_format(void)
{
    omp_set_affinity_format("lvl=%L n=%n of %N");
    char buf[128];
    size_t len = omp_get_affinity_format(buf, sizeof buf);
    CHECK(len == strlen("lvl=%L n=%n of %N") && strcmp(buf, "lvl=%L n=%n of %N") == 0);
    char got[2][64];
    size_t glen[2];
#pragma omp parallel num_threads(2)
    {
        int me = omp_get_thread_num();
        glen[me] = omp_capture_affinity(got[me], sizeof got[me], NULL);
    }
    CHECK(strcmp(got[0], "lvl=1 n=0 of 2") == 0 && glen[0] == strlen(got[0]));
    CHECK(strcmp(got[1], "lvl=1 n=1 of 2") == 0);
    /* An explicit format, long field names, and truncation to the buffer
     * with the full length returned. */
    char small[6];
    size_t full = omp_capture_affinity(small, sizeof small, "%{thread_num}/%{num_threads}xyz");
    CHECK(full == strlen("0/1xyz") && strcmp(small, "0/1xy") == 0);
}

static void test_display_env(void)
{
    char *out = capture_output(display_env_plain);
    CHECK(strstr(out, "OPENMP DISPLAY ENVIRONMENT BEGIN") != NULL);
    CHECK(strstr(out, "OPENMP DISPLAY ENVIRONMENT END") != NULL);
    CHECK(strstr(out, "_OPENMP") != NULL && strstr(out, "OMP_NUM_THREADS") != NULL);
    free(out);
    out = capture_output(display_env_verbose);
    CHECK(strstr(out, "OPENMP DISPLAY ENVIRONMENT BEGIN") != NULL);
    CHECK(strstr(out, "OMP_SCHEDULE") != NULL);
    free(out);
}

static int team_sum(int n)
{
    int s = 0;
#pragma omp parallel num_threads(n) reduction(+ : s)
    s += omp_get_thread_num() + 1;
    return s;
}

static void test_pause(void)
{
    CHECK(team_sum(4) == 10);
    CHECK(omp_pause_resource_all(omp_pause_soft) == 0);
    CHECK(team_sum(4) == 10);
    CHECK(omp_pause_resource(omp_pause_soft, omp_get_initial_device()) == 0);
    CHECK(team_sum(3) == 6);
    CHECK(omp_pause_resource_all(omp_pause_hard) == 0);
    CHECK(team_sum(4) == 10);
    CHECK(team_sum(2) == 3);
}

static void test_devices(void)
{
    int nd = omp_get_num_devices();
    CHECK(nd >= 0);
    CHECK(omp_get_initial_device() == nd);
    CHECK(omp_is_initial_device() == 1);
    CHECK(omp_get_device_num() == omp_get_initial_device());
    CHECK(omp_get_default_device() >= 0);
    omp_set_default_device(omp_get_initial_device());
    CHECK(omp_get_default_device() == omp_get_initial_device());
    omp_set_default_device(0);
}

static int aligned(const void *p, uintptr_t a)
{
    return ((uintptr_t)p & (a - 1)) == 0;
}

static void test_allocators(void)
{
    CHECK(omp_get_default_allocator() == omp_default_mem_alloc);
    CHECK(omp_alloc(0, omp_default_mem_alloc) == NULL);

    char *p = omp_alloc(1000, omp_default_mem_alloc);
    CHECK(p != NULL);
    memset(p, 0x5a, 1000);
    p = omp_realloc(p, 5000, omp_default_mem_alloc, omp_default_mem_alloc);
    CHECK(p != NULL);
    for (int i = 0; i < 1000; i++)
        CHECK(p[i] == 0x5a);
    CHECK(omp_realloc(p, 0, omp_default_mem_alloc, omp_default_mem_alloc) == NULL);

    static const size_t aligns[] = {8, 16, 64, 256, 4096};
    for (unsigned k = 0; k < sizeof aligns / sizeof aligns[0]; k++) {
        void *a = omp_aligned_alloc(aligns[k], 100, omp_default_mem_alloc);
        CHECK(a != NULL && aligned(a, aligns[k]));
        memset(a, 1, 100);
        omp_free(a, omp_default_mem_alloc);
        int *c = omp_aligned_calloc(aligns[k], 50, sizeof(int), omp_default_mem_alloc);
        CHECK(c != NULL && aligned(c, aligns[k]));
        for (int i = 0; i < 50; i++)
            CHECK(c[i] == 0);
        omp_free(c, omp_default_mem_alloc);
    }
    long *z = omp_calloc(1000, sizeof(long), omp_default_mem_alloc);
    CHECK(z != NULL);
    for (int i = 0; i < 1000; i++)
        CHECK(z[i] == 0);
    omp_free(z, omp_null_allocator); /* NULL allocator: the one it came from */

    /* Every predefined allocator gives usable memory on the host. */
    const omp_allocator_handle_t predefined[] = {
        omp_default_mem_alloc, omp_large_cap_mem_alloc, omp_const_mem_alloc,
        omp_high_bw_mem_alloc, omp_low_lat_mem_alloc,   omp_cgroup_mem_alloc,
        omp_pteam_mem_alloc,   omp_thread_mem_alloc};
    for (unsigned k = 0; k < sizeof predefined / sizeof predefined[0]; k++) {
        char *q = omp_alloc(256, predefined[k]);
        CHECK(q != NULL);
        memset(q, 7, 256);
        omp_free(q, predefined[k]);
    }

    /* Traits: alignment, and a pool with the null fallback. */
    omp_alloctrait_t at[] = {{omp_atk_alignment, 256}};
    omp_allocator_handle_t a256 = omp_init_allocator(omp_default_mem_space, 1, at);
    CHECK(a256 != omp_null_allocator);
    void *ptrs[10];
    for (int i = 0; i < 10; i++) {
        ptrs[i] = omp_alloc(24 + i * 100, a256);
        CHECK(ptrs[i] != NULL && aligned(ptrs[i], 256));
    }
    for (int i = 0; i < 10; i++)
        omp_free(ptrs[i], a256);
    /* The default allocator is used for omp_null_allocator. */
    omp_set_default_allocator(a256);
    CHECK(omp_get_default_allocator() == a256);
    void *d = omp_alloc(10, omp_null_allocator);
    CHECK(d != NULL && aligned(d, 256));
    omp_free(d, omp_null_allocator);
    omp_set_default_allocator(omp_default_mem_alloc);
    omp_destroy_allocator(a256);

    omp_alloctrait_t pool[] = {{omp_atk_pool_size, 4096}, {omp_atk_fallback, omp_atv_null_fb}};
    omp_allocator_handle_t small = omp_init_allocator(omp_default_mem_space, 2, pool);
    CHECK(small != omp_null_allocator);
    CHECK(omp_alloc(8192, small) == NULL);
    void *ok = omp_alloc(1000, small);
    CHECK(ok != NULL);
    omp_free(ok, small);
    omp_destroy_allocator(small);

    omp_alloctrait_t fb[] = {{omp_atk_pool_size, 1024}, {omp_atk_fallback, omp_atv_default_mem_fb}};
    omp_allocator_handle_t fallback = omp_init_allocator(omp_default_mem_space, 2, fb);
    CHECK(fallback != omp_null_allocator);
    void *big = omp_alloc(100000, fallback);
    CHECK(big != NULL);
    memset(big, 3, 100000);
    omp_free(big, fallback);
    omp_destroy_allocator(fallback);

    /* The allocate clause (GOMP_alloc / GOMP_free). */
    int bad = 0;
    int x = 0;
    long y[64];
    memset(y, 0, sizeof y);
#pragma omp parallel num_threads(3) private(x) firstprivate(y)                         \
    allocate(omp_default_mem_alloc : x) allocate(allocator(omp_low_lat_mem_alloc), align(128) : y)
    {
        x = omp_get_thread_num();
        y[0] = x;
        if (!aligned(y, 128) || y[1] != 0)
            TEST_INC(&bad);
        if (x != omp_get_thread_num() || y[0] != x)
            TEST_INC(&bad);
    }
    CHECK(bad == 0);
}

/* -------------------------------------------------------------- env modes */
static void mode_env(void)
{
    /* Set by CMake: OMP_THREAD_LIMIT=3 OMP_CANCELLATION=true OMP_DYNAMIC=true
     * OMP_MAX_ACTIVE_LEVELS=4 OMP_NUM_THREADS=5 OMP_SCHEDULE=guided,7
     * OMP_MAX_TASK_PRIORITY=9 OMP_PROC_BIND=spread OMP_NUM_TEAMS=4
     * OMP_TEAMS_THREAD_LIMIT=2 OMP_DEFAULT_DEVICE=0 */
    CHECK(omp_get_thread_limit() == 3);
    CHECK(omp_get_cancellation() == 1);
    CHECK(omp_get_dynamic() == 1);
    CHECK(omp_get_max_active_levels() == 4 || omp_get_max_active_levels() == omp_get_supported_active_levels());
    CHECK(omp_get_max_threads() == 5);
    omp_sched_t k;
    int chunk;
    omp_get_schedule(&k, &chunk);
    CHECK(k == omp_sched_guided && chunk == 7);
    CHECK(omp_get_max_task_priority() == 9);
    CHECK(omp_get_proc_bind() == omp_proc_bind_spread);
    CHECK(omp_get_max_teams() == 4);
    CHECK(omp_get_teams_thread_limit() == 2);
    CHECK(omp_get_default_device() == 0);
    int size = 0;
#pragma omp parallel num_threads(8)
    {
        if (omp_get_thread_num() == 0)
            size = omp_get_num_threads();
    }
    CHECK(size >= 1 && size <= 3);
}

/* OMP_NESTED=true: max-active-levels-var is the supported number. */
static void mode_nested_env(void)
{
    int supported = omp_get_supported_active_levels();
    CHECK(supported > 1);
    CHECK(omp_get_nested() == 1);
    CHECK(omp_get_max_active_levels() == supported);
    int inner = 0;
#pragma omp parallel num_threads(2)
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 1 && omp_get_active_level() == 2)
            TEST_INC(&inner);
    }
    CHECK(inner == 2);
}

/* OMP_NUM_THREADS=2,3 with no OMP_MAX_ACTIVE_LEVELS: a list with more than
 * one element enables as many active levels (at least). */
static void mode_list_env(void)
{
    CHECK(omp_get_max_active_levels() >= 2);
    int sizes[2] = {0, 0};
#pragma omp parallel
    {
        if (omp_get_thread_num() == 0)
            sizes[0] = omp_get_num_threads();
#pragma omp parallel
        {
            if (omp_get_thread_num() == 0 && omp_get_ancestor_thread_num(1) == 0)
                sizes[1] = omp_get_num_threads();
        }
    }
    CHECK(sizes[0] == 2 && sizes[1] == 3);
}

static const char *const bad_vars[][2] = {
    {"OMP_NUM_THREADS", "abc"},       {"OMP_SCHEDULE", "sometimes"},
    {"OMP_DYNAMIC", "maybe"},         {"OMP_MAX_ACTIVE_LEVELS", "-4"},
    {"OMP_THREAD_LIMIT", "0x"},       {"OMP_PROC_BIND", "sideways"},
    {"OMP_CANCELLATION", "perhaps"},  {"OMP_STACKSIZE", "12Q"},
    {"OMP_WAIT_POLICY", "lazy"},
};
#define NBAD (sizeof bad_vars / sizeof bad_vars[0])

static void mode_badenv_child(void)
{
    /* Defaults kept. */
    cpu_set_t set;
    CPU_ZERO(&set);
    CHECK(sched_getaffinity(0, sizeof set, &set) == 0);
    CHECK(omp_get_max_threads() == CPU_COUNT(&set));
    CHECK(omp_get_dynamic() == 0);
    CHECK(omp_get_cancellation() == 0);
    CHECK(omp_get_thread_limit() > 1024);
    omp_sched_t k;
    int chunk;
    omp_get_schedule(&k, &chunk);
    CHECK((k & ~omp_sched_monotonic) == omp_sched_dynamic || (k & ~omp_sched_monotonic) == omp_sched_static);
    CHECK(team_sum(2) == 3);
}

static void mode_badenv(char *self)
{
    int pfd[2];
    CHECK(pipe(pfd) == 0);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        for (unsigned i = 0; i < NBAD; i++)
            setenv(bad_vars[i][0], bad_vars[i][1], 1);
        dup2(pfd[1], 2);
        close(pfd[0]);
        close(pfd[1]);
        execl(self, self, "badenv-child", (char *)NULL);
        _exit(127);
    }
    close(pfd[1]);
    static char out[65536];
    size_t len = 0;
    ssize_t r;
    while ((r = read(pfd[0], out + len, sizeof out - 1 - len)) > 0)
        len += (size_t)r;
    out[len] = 0;
    close(pfd[0]);
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    fputs(out, stderr);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    for (unsigned i = 0; i < NBAD; i++) {
        int lines = 0;
        for (char *line = out; *line;) {
            char *nl = strchr(line, '\n');
            size_t n = nl ? (size_t)(nl - line) : strlen(line);
            char save = line[n];
            line[n] = 0;
            if (strstr(line, bad_vars[i][0]))
                lines++;
            line[n] = save;
            line += n + (nl != NULL);
        }
        if (lines != 1) {
            fprintf(stderr, "%s=%s: %d warning lines, want exactly 1\n", bad_vars[i][0],
                    bad_vars[i][1], lines);
            CHECK(lines == 1);
        }
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "env") == 0) {
        mode_env();
    } else if (strcmp(mode, "nested_env") == 0) {
        mode_nested_env();
    } else if (strcmp(mode, "list_env") == 0) {
        mode_list_env();
    } else if (strcmp(mode, "badenv") == 0) {
        mode_badenv(argv[0]);
    } else if (strcmp(mode, "badenv-child") == 0) {
        mode_badenv_child();
    } else {
        CHECK(argc == 1);
        test_time();
        test_icv_routines();
        test_procs_and_places();
        test_affinity_format();
        test_display_env();
        test_pause();
        test_devices();
        test_allocators();
    }
    printf("omp_api %s: ok\n", mode);
    return 0;
}
