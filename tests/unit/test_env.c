/* The environment parser: each case runs this program again with some
 * OMP_* / GOMP_* variables and checks the ICVs the child reports and the
 * warnings it printed (an invalid value: exactly one warning naming the
 * variable and the value, and the default kept). */
#define _GNU_SOURCE
#include <omp.h>
#include <sched.h>

#include "child_run.h"
#include "pvomp_check.h"

/* ------------------------------------------------------------ the child */

static void report(void)
{
    omp_sched_t kind;
    int chunk;
    omp_get_schedule(&kind, &chunk);
    printf("max_threads=%d\n", omp_get_max_threads());
    printf("sched_kind=%#x\n", (unsigned)kind);
    printf("sched_chunk=%d\n", chunk);
    printf("dynamic=%d\n", omp_get_dynamic());
    printf("max_active_levels=%d\n", omp_get_max_active_levels());
    printf("thread_limit=%d\n", omp_get_thread_limit());
    printf("proc_bind=%d\n", (int)omp_get_proc_bind());
    printf("num_places=%d\n", omp_get_num_places());
    printf("cancellation=%d\n", omp_get_cancellation());
    printf("default_device=%d\n", omp_get_default_device());
    printf("max_task_priority=%d\n", omp_get_max_task_priority());
    printf("max_teams=%d\n", omp_get_max_teams());
    printf("teams_thread_limit=%d\n", omp_get_teams_thread_limit());
    printf("default_allocator=%lu\n", (unsigned long)omp_get_default_allocator());
    char fmt[256];
    omp_get_affinity_format(fmt, sizeof fmt);
    printf("affinity_format=%s\n", fmt);
    /* With a list, the next nesting level sees the second element. */
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(1)
    {
        printf("nested_max_threads=%d\n", omp_get_max_threads());
        printf("nested_proc_bind=%d\n", (int)omp_get_proc_bind());
    }
    fflush(stdout);
}

/* ------------------------------------------------------------ the cases */

#define MAXV 8
struct env_case {
    const char *vars[MAXV];  /* NAME=value */
    const char *expect[12];  /* key=value lines the child must print */
    const char *warn_about;  /* NULL: no warning at all; else: exactly one, naming this */
    const char *arg;         /* child mode: "child" (default) or "child-display" */
    const char *stderr_has[6];
};

static char nprocs_line[64];

static const struct env_case cases[] = {
    /* defaults */
    {{NULL}, {nprocs_line, "sched_kind=0x2", "sched_chunk=1", "dynamic=0", "max_active_levels=1",
              "thread_limit=2147483647", "proc_bind=0", "num_places=0", "max_teams=0",
              "default_allocator=1", "affinity_format=level %L thread %i affinity %A"}, NULL},
    /* OMP_NUM_THREADS */
    {{"OMP_NUM_THREADS=3"}, {"max_threads=3", "max_active_levels=1"}, NULL},
    {{"OMP_NUM_THREADS= 5 "}, {"max_threads=5"}, NULL},
    {{"OMP_NUM_THREADS=4,2"}, {"max_threads=4", "max_active_levels=255", "nested_max_threads=2"}, NULL},
    {{"OMP_NUM_THREADS=0"}, {nprocs_line}, "OMP_NUM_THREADS"},
    {{"OMP_NUM_THREADS=-2"}, {nprocs_line}, "OMP_NUM_THREADS"},
    {{"OMP_NUM_THREADS=abc"}, {nprocs_line}, "OMP_NUM_THREADS"},
    {{"OMP_NUM_THREADS=2,"}, {nprocs_line, "max_active_levels=1"}, "OMP_NUM_THREADS"},
    {{"OMP_NUM_THREADS=2,0"}, {nprocs_line}, "OMP_NUM_THREADS"},
    /* OMP_SCHEDULE */
    {{"OMP_SCHEDULE=static"}, {"sched_kind=0x80000001", "sched_chunk=0"}, NULL},
    {{"OMP_SCHEDULE=STATIC,7"}, {"sched_kind=0x80000001", "sched_chunk=7"}, NULL},
    {{"OMP_SCHEDULE=dynamic,5"}, {"sched_kind=0x2", "sched_chunk=5"}, NULL},
    {{"OMP_SCHEDULE=dynamic,0"}, {"sched_kind=0x2", "sched_chunk=1"}, NULL},
    {{"OMP_SCHEDULE=guided"}, {"sched_kind=0x3", "sched_chunk=1"}, NULL},
    {{"OMP_SCHEDULE=auto"}, {"sched_kind=0x4"}, NULL},
    {{"OMP_SCHEDULE=monotonic:guided,7"}, {"sched_kind=0x80000003", "sched_chunk=7"}, NULL},
    {{"OMP_SCHEDULE= nonmonotonic : static , 4 "}, {"sched_kind=0x1", "sched_chunk=4"}, NULL},
    {{"OMP_SCHEDULE=fastest"}, {"sched_kind=0x2", "sched_chunk=1"}, "OMP_SCHEDULE"},
    {{"OMP_SCHEDULE=static,x"}, {"sched_kind=0x2", "sched_chunk=1"}, "OMP_SCHEDULE"},
    {{"OMP_SCHEDULE=monotonic,static"}, {"sched_kind=0x2"}, "OMP_SCHEDULE"},
    {{"OMP_SCHEDULE=dynamic,-3"}, {"sched_kind=0x2", "sched_chunk=1"}, "OMP_SCHEDULE"},
    /* booleans */
    {{"OMP_DYNAMIC=true"}, {"dynamic=1"}, NULL},
    {{"OMP_DYNAMIC= TRUE "}, {"dynamic=1"}, NULL},
    {{"OMP_DYNAMIC=false"}, {"dynamic=0"}, NULL},
    {{"OMP_DYNAMIC=yes"}, {"dynamic=0"}, "OMP_DYNAMIC"},
    {{"OMP_CANCELLATION=true"}, {"cancellation=1"}, NULL},
    {{"OMP_CANCELLATION=1"}, {"cancellation=0"}, "OMP_CANCELLATION"},
    /* nesting */
    {{"OMP_NESTED=true"}, {"max_active_levels=255"}, NULL},
    {{"OMP_NESTED=false", "OMP_NUM_THREADS=2,2"}, {"max_active_levels=1"}, NULL},
    {{"OMP_NESTED=maybe"}, {"max_active_levels=1"}, "OMP_NESTED"},
    {{"OMP_MAX_ACTIVE_LEVELS=3"}, {"max_active_levels=3"}, NULL},
    {{"OMP_MAX_ACTIVE_LEVELS=0"}, {"max_active_levels=0"}, NULL},
    {{"OMP_MAX_ACTIVE_LEVELS=1000"}, {"max_active_levels=255"}, NULL},
    {{"OMP_MAX_ACTIVE_LEVELS=2", "OMP_NESTED=true"}, {"max_active_levels=2"}, NULL},
    {{"OMP_MAX_ACTIVE_LEVELS=-1"}, {"max_active_levels=1"}, "OMP_MAX_ACTIVE_LEVELS"},
    /* limits */
    {{"OMP_THREAD_LIMIT=5"}, {"thread_limit=5"}, NULL},
    {{"OMP_THREAD_LIMIT=3000000000"}, {"thread_limit=2147483647"}, NULL},
    {{"OMP_THREAD_LIMIT=0"}, {"thread_limit=2147483647"}, "OMP_THREAD_LIMIT"},
    {{"OMP_NUM_TEAMS=4", "OMP_TEAMS_THREAD_LIMIT=3"}, {"max_teams=4", "teams_thread_limit=3"}, NULL},
    {{"OMP_NUM_TEAMS=0"}, {"max_teams=0"}, "OMP_NUM_TEAMS"},
    {{"OMP_TEAMS_THREAD_LIMIT=x"}, {"teams_thread_limit=0"}, "OMP_TEAMS_THREAD_LIMIT"},
    {{"OMP_DEFAULT_DEVICE=2"}, {"default_device=2"}, NULL},
    {{"OMP_DEFAULT_DEVICE=-1"}, {"default_device=0"}, "OMP_DEFAULT_DEVICE"},
    {{"OMP_MAX_TASK_PRIORITY=10"}, {"max_task_priority=10"}, NULL},
    {{"OMP_MAX_TASK_PRIORITY=3000000000"}, {"max_task_priority=0"}, "OMP_MAX_TASK_PRIORITY"},
    /* binding */
    {{"OMP_PROC_BIND=spread"}, {"proc_bind=4", "nested_proc_bind=4"}, NULL},
    {{"OMP_PROC_BIND=spread,close"}, {"proc_bind=4", "nested_proc_bind=3", "max_active_levels=255"}, NULL},
    {{"OMP_PROC_BIND=primary"}, {"proc_bind=2"}, NULL},
    {{"OMP_PROC_BIND=false"}, {"proc_bind=0", "num_places=0"}, NULL},
    {{"OMP_PROC_BIND=true,close"}, {"proc_bind=0"}, "OMP_PROC_BIND"},
    {{"OMP_PROC_BIND=close,false"}, {"proc_bind=0"}, "OMP_PROC_BIND"},
    {{"OMP_PROC_BIND=sideways"}, {"proc_bind=0"}, "OMP_PROC_BIND"},
    {{"OMP_PLACES=threads"}, {"proc_bind=1"}, NULL},
    {{"OMP_PLACES=threads", "OMP_PROC_BIND=false"}, {"proc_bind=0", "num_places=0"}, NULL},
    {{"OMP_PLACES=cores(x)"}, {"proc_bind=0", "num_places=0"}, "OMP_PLACES"},
    {{"OMP_PLACES={0"}, {"proc_bind=0", "num_places=0"}, "OMP_PLACES"},
    {{"OMP_PLACES={0}:0"}, {"proc_bind=0", "num_places=0"}, "OMP_PLACES"},
    {{"OMP_PLACES=!{0}"}, {"proc_bind=0", "num_places=0"}, "OMP_PLACES"},
    /* syntax errors are reported even when OMP_PROC_BIND=false ignores places */
    {{"OMP_PLACES=sockets(", "OMP_PROC_BIND=false"}, {"num_places=0"}, "OMP_PLACES"},
    /* the rest */
    {{"OMP_ALLOCATOR=omp_pteam_mem_alloc"}, {"default_allocator=7"}, NULL},
    {{"OMP_ALLOCATOR=omp_large_cap_mem_alloc "}, {"default_allocator=2"}, NULL},
    {{"OMP_ALLOCATOR=malloc"}, {"default_allocator=1"}, "OMP_ALLOCATOR"},
    {{"OMP_AFFINITY_FORMAT=T%n of %N"}, {"affinity_format=T%n of %N"}, NULL},
    {{"OMP_STACKSIZE=12q"}, {nprocs_line}, "OMP_STACKSIZE"},
    {{"GOMP_STACKSIZE=k"}, {nprocs_line}, "GOMP_STACKSIZE"},
    {{"OMP_WAIT_POLICY=sometimes"}, {nprocs_line}, "OMP_WAIT_POLICY"},
    {{"GOMP_SPINCOUNT=lots"}, {nprocs_line}, "GOMP_SPINCOUNT"},
    /* the late-waiter rules' tuning: keys separated by ',' or ':' */
    {{"PVOMP_WAIT_ADAPT=1,yield=50,gap=100"}, {nprocs_line}, NULL},
    {{"PVOMP_WAIT_ADAPT=1:yield=50:late=0"}, {nprocs_line}, NULL},
    {{"PVOMP_WAIT_ADAPT=1:yield=soon"}, {nprocs_line}, "PVOMP_WAIT_ADAPT"},
    {{"PVOMP_WAIT_ADAPT=1,often=5"}, {nprocs_line}, "PVOMP_WAIT_ADAPT"},
    {{"OMP_DISPLAY_ENV=loud"}, {nprocs_line}, "OMP_DISPLAY_ENV"},
    {{"OMP_DISPLAY_AFFINITY=sure"}, {nprocs_line}, "OMP_DISPLAY_AFFINITY"},
    {{"OMP_TARGET_OFFLOAD=never"}, {nprocs_line}, "OMP_TARGET_OFFLOAD"},
    {{"PVOMP_DEVICE_MEMORY=own"}, {nprocs_line}, "PVOMP_DEVICE_MEMORY"},
    {{"GOMP_WAIT_POLICY=fast", "OMP_WAIT_POLICY=active"}, {nprocs_line}, "GOMP_WAIT_POLICY"},
    /* libomp's hidden helpers: up to 1024; above, warned and 1024 */
    {{"LIBOMP_NUM_HIDDEN_HELPER_THREADS=1024"}, {nprocs_line}, NULL},
    {{"LIBOMP_NUM_HIDDEN_HELPER_THREADS=1025"}, {nprocs_line}, "LIBOMP_NUM_HIDDEN_HELPER_THREADS"},
    {{"LIBOMP_NUM_HIDDEN_HELPER_THREADS=lots"}, {nprocs_line}, "LIBOMP_NUM_HIDDEN_HELPER_THREADS"},
    /* OMP_DISPLAY_ENV prints the block once, at startup */
    {{"OMP_DISPLAY_ENV=true"}, {nprocs_line}, NULL, NULL,
     {"OPENMP DISPLAY ENVIRONMENT BEGIN", "  _OPENMP = '201511'", "OPENMP DISPLAY ENVIRONMENT END"}},
};

/* Values the display block must show, line by line. */
struct display_case {
    const char *vars[12];
    const char *lines[24];
};

static const struct display_case displays[] = {
    {{"OMP_NUM_THREADS=3,2", "OMP_SCHEDULE=guided,4", "OMP_STACKSIZE=1M", "GOMP_SPINCOUNT=10k",
      "OMP_DYNAMIC=true", "OMP_THREAD_LIMIT=7", "OMP_CANCELLATION=true", "OMP_DEFAULT_DEVICE=1",
      "OMP_MAX_TASK_PRIORITY=3", "OMP_TARGET_OFFLOAD=disabled", "OMP_ALLOCATOR=omp_thread_mem_alloc"},
     {"  OMP_DYNAMIC = 'TRUE'", "  OMP_NESTED = 'TRUE'", "  OMP_NUM_THREADS = '3,2'",
      "  OMP_SCHEDULE = 'GUIDED,4'", "  OMP_PROC_BIND = 'FALSE'", "  OMP_PLACES = ''",
      "  OMP_STACKSIZE = '1048576'", "  OMP_WAIT_POLICY = 'PASSIVE'", "  OMP_THREAD_LIMIT = '7'",
      "  OMP_MAX_ACTIVE_LEVELS = '255'", "  OMP_NUM_TEAMS = '0'", "  OMP_TEAMS_THREAD_LIMIT = '0'",
      "  OMP_CANCELLATION = 'TRUE'", "  OMP_DEFAULT_DEVICE = '1'", "  OMP_MAX_TASK_PRIORITY = '3'",
      "  OMP_DISPLAY_AFFINITY = 'FALSE'",
      "  OMP_AFFINITY_FORMAT = 'level %L thread %i affinity %A'",
      "  OMP_ALLOCATOR = 'omp_thread_mem_alloc'", "  OMP_TARGET_OFFLOAD = 'DISABLED'",
      "  GOMP_STACKSIZE = '1048576'", "  GOMP_SPINCOUNT = '10000'", "  GOMP_CPU_AFFINITY = ''"}},
    {{"OMP_SCHEDULE=static", "OMP_WAIT_POLICY=active", "OMP_STACKSIZE=100 K", "OMP_NESTED=false"},
     {"  OMP_SCHEDULE = 'STATIC'", "  OMP_WAIT_POLICY = 'ACTIVE'", "  OMP_STACKSIZE = '102400'",
      "  OMP_NESTED = 'FALSE'", "  GOMP_SPINCOUNT = '30000000000'",
      "  GOMP_WAIT_POLICY = 'ACTIVE'"}},
    {{"OMP_SCHEDULE=nonmonotonic:static,3", "GOMP_SPINCOUNT=infinite", "OMP_WAIT_POLICY=passive"},
     {"  OMP_SCHEDULE = 'NONMONOTONIC:STATIC,3'", "  OMP_WAIT_POLICY = 'PASSIVE'",
      "  GOMP_SPINCOUNT = '18446744073709551615'", "  GOMP_WAIT_POLICY = 'PASSIVE'"}},
    {{"OMP_SCHEDULE=monotonic:dynamic", "OMP_WAIT_POLICY=passive"},
     {"  OMP_SCHEDULE = 'MONOTONIC:DYNAMIC'", "  GOMP_SPINCOUNT = '0'"}},
    /* GOMP_WAIT_POLICY wins over OMP_WAIT_POLICY */
    {{"OMP_WAIT_POLICY=active", "GOMP_WAIT_POLICY=PASSIVE"},
     {"  OMP_WAIT_POLICY = 'PASSIVE'", "  GOMP_WAIT_POLICY = 'PASSIVE'", "  GOMP_SPINCOUNT = '0'"}},
    /* device 0's memory: shared by default, separate on request, bad values warned */
    {{"OMP_DYNAMIC=false"}, {"  PVOMP_DEVICE_MEMORY = 'SHARED'"}},
    {{"PVOMP_DEVICE_MEMORY= Separate "}, {"  PVOMP_DEVICE_MEMORY = 'SEPARATE'"}},
    {{"PVOMP_DEVICE_MEMORY=shared"}, {"  PVOMP_DEVICE_MEMORY = 'SHARED'"}},
    {{"PVOMP_DEVICE_MEMORY=separately"}, {"  PVOMP_DEVICE_MEMORY = 'SHARED'"}},
    {{"GOMP_SPINCOUNT=3T"}, {"  GOMP_SPINCOUNT = '3000000000000'", "  GOMP_WAIT_POLICY = 'DEFAULT'"}},
    {{"GOMP_SPINCOUNT=2M", "OMP_WAIT_POLICY=active"}, {"  GOMP_SPINCOUNT = '2000000'"}},
    {{"OMP_PROC_BIND=spread,master,close"}, {"  OMP_PROC_BIND = 'SPREAD,MASTER,CLOSE'"}},
    {{"OMP_STACKSIZE=3g"}, {"  OMP_STACKSIZE = '3221225472'"}},
    {{"OMP_STACKSIZE=12b"}, {"  OMP_STACKSIZE = '0'"}},  /* below the minimum: warned, default */
    {{"GOMP_STACKSIZE=64"}, {"  OMP_STACKSIZE = '65536'"}},
};

static int failures;

#define FAIL(...)                                        \
    do {                                                 \
        fprintf(stderr, "FAIL: " __VA_ARGS__);           \
        failures++;                                      \
    } while (0)

static void show_case(const char *const *vars)
{
    fprintf(stderr, "  environment:");
    for (int i = 0; vars[i]; i++)
        fprintf(stderr, " %s", vars[i]);
    fprintf(stderr, "\n");
}

static bool exited_ok(const struct child_result *r)
{
    return WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0;
}

static void run_env_case(const char *self, const struct env_case *c)
{
    struct child_result *r = calloc(1, sizeof *r);
    child_run(self, c->arg ? c->arg : "child", c->vars, r);
    if (!exited_ok(r)) {
        FAIL("child exited with status %#x\n%s", r->status, r->err);
        show_case(c->vars);
        free(r);
        return;
    }
    for (int i = 0; c->expect[i]; i++) {
        const char *eq = strchr(c->expect[i], '=');
        char key[128];
        snprintf(key, sizeof key, "%.*s", (int)(eq - c->expect[i]), c->expect[i]);
        const char *got = value_of(r->out, key);
        if (!got || strcmp(got, eq + 1) != 0) {
            FAIL("expected %s, got %s=%s\n", c->expect[i], key, got ? got : "(nothing)");
            show_case(c->vars);
        }
    }
    int warnings = count_lines_with(r->err, "pvomp: warning:");
    if (!c->warn_about && warnings != 0) {
        FAIL("unexpected warning(s):\n%s", r->err);
        show_case(c->vars);
    }
    if (c->warn_about) {
        const char *value = NULL;
        for (int i = 0; c->vars[i]; i++)
            if (strncmp(c->vars[i], c->warn_about, strlen(c->warn_about)) == 0 &&
                c->vars[i][strlen(c->warn_about)] == '=')
                value = c->vars[i] + strlen(c->warn_about) + 1;
        char quoted[256];
        snprintf(quoted, sizeof quoted, "'%s'", value ? value : "");
        if (warnings != 1 || count_lines_with(r->err, c->warn_about) != 1 ||
            count_lines_with(r->err, quoted) != 1) {
            FAIL("expected one warning naming %s and %s, stderr was:\n%s", c->warn_about, quoted,
                 r->err);
            show_case(c->vars);
        }
    }
    for (int i = 0; c->stderr_has[i]; i++)
        if (count_lines_with(r->err, c->stderr_has[i]) != 1) {
            FAIL("expected one stderr line with \"%s\", stderr was:\n%s", c->stderr_has[i], r->err);
            show_case(c->vars);
        }
    free(r);
}

static void run_display_case(const char *self, const struct display_case *c)
{
    struct child_result *r = calloc(1, sizeof *r);
    child_run(self, "child-display", c->vars, r);
    if (!exited_ok(r)) {
        FAIL("child exited with status %#x\n%s", r->status, r->err);
        show_case(c->vars);
        free(r);
        return;
    }
    for (int i = 0; c->lines[i]; i++) {
        /* whole-line match */
        char *hay = r->err;
        bool found = false;
        size_t n = strlen(c->lines[i]);
        for (char *p = strstr(hay, c->lines[i]); p; p = strstr(p + 1, c->lines[i]))
            if ((p == hay || p[-1] == '\n') && p[n] == '\n')
                found = true;
        if (!found) {
            FAIL("display block lacks the line \"%s\":\n%s", c->lines[i], r->err);
            show_case(c->vars);
        }
    }
    free(r);
}

/* The exact shape of the block: libgomp's line order. */
static void check_display_order(const char *self)
{
    static const char *const order[] = {
        "OPENMP DISPLAY ENVIRONMENT BEGIN", "_OPENMP", "OMP_DYNAMIC", "OMP_NESTED",
        "OMP_NUM_THREADS", "OMP_SCHEDULE", "OMP_PROC_BIND", "OMP_PLACES", "OMP_STACKSIZE",
        "OMP_WAIT_POLICY", "OMP_THREAD_LIMIT", "OMP_MAX_ACTIVE_LEVELS", "OMP_NUM_TEAMS",
        "OMP_TEAMS_THREAD_LIMIT", "OMP_CANCELLATION", "OMP_DEFAULT_DEVICE",
        "OMP_MAX_TASK_PRIORITY", "OMP_DISPLAY_AFFINITY", "OMP_AFFINITY_FORMAT", "OMP_ALLOCATOR",
        "OMP_TARGET_OFFLOAD", "OPENMP DISPLAY ENVIRONMENT END", NULL};
    const char *vars[] = {"OMP_DISPLAY_ENV=TRUE", NULL};
    struct child_result *r = calloc(1, sizeof *r);
    child_run(self, "child", vars, r);
    const char *p = r->err;
    if (strncmp(p, "\nOPENMP DISPLAY ENVIRONMENT BEGIN\n", 34) != 0)
        FAIL("the block does not start with an empty line and BEGIN:\n%s", r->err);
    for (int i = 0; order[i]; i++) {
        const char *q = strstr(p, order[i]);
        if (!q) {
            FAIL("display block: \"%s\" missing or out of order:\n%s", order[i], r->err);
            break;
        }
        p = q + strlen(order[i]);
    }
    if (strstr(r->err, "GOMP_SPINCOUNT"))
        FAIL("OMP_DISPLAY_ENV=true must not show the verbose lines\n");
    const char *vvars[] = {"OMP_DISPLAY_ENV=verbose", NULL};
    child_run(self, "child", vvars, r);
    if (!strstr(r->err, "  GOMP_SPINCOUNT = '300000'\n") || !strstr(r->err, "  GOMP_STACKSIZE = '0'\n"))
        FAIL("OMP_DISPLAY_ENV=verbose lacks the GOMP_ lines:\n%s", r->err);
    free(r);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "child") == 0) {
        report();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "child-display") == 0) {
        omp_display_env(1);
        return 0;
    }
    cpu_set_t mask;
    CHECK(sched_getaffinity(0, sizeof mask, &mask) == 0);
    snprintf(nprocs_line, sizeof nprocs_line, "max_threads=%d", CPU_COUNT(&mask));

    const char *self = "/proc/self/exe";
    char path[4096];
    ssize_t n = readlink(self, path, sizeof path - 1);
    CHECK(n > 0);
    path[n] = '\0';

    unsigned ncases = sizeof cases / sizeof cases[0];
    for (unsigned i = 0; i < ncases; i++)
        run_env_case(path, &cases[i]);
    for (unsigned i = 0; i < sizeof displays / sizeof displays[0]; i++)
        run_display_case(path, &displays[i]);
    check_display_order(path);

    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("%u environment cases and %zu display cases passed\n", ncases,
           sizeof displays / sizeof displays[0]);
    return 0;
}
