/* Thread binding inside parallel regions (OMP_PLACES / OMP_PROC_BIND: the
 * threads really run on their place's CPUs) and the affinity-format API.
 * Each binding case runs this program again with its environment. */
#define _GNU_SOURCE
#include <omp.h>
#include <pthread.h>
#include <sched.h>

#include "child_run.h"
#include "pvomp_check.h"

/* ------------------------------------------------------------ children */

/* The calling thread's mask equals its place's CPUs; the place lies in its
 * partition; the partition is a run of consecutive places. */
static void check_thread_binding(int *place_out)
{
    int np = omp_get_num_places();
    int p = omp_get_place_num();
    cpu_set_t mask;
    CHECK(pthread_getaffinity_np(pthread_self(), sizeof mask, &mask) == 0);
    *place_out = p;
    if (np == 0) {
        CHECK(p == -1 && omp_get_partition_num_places() == 0);
        return;
    }
    CHECK(p >= 0 && p < np);
    int n = omp_get_place_num_procs(p);
    int ids[CPU_SETSIZE];
    omp_get_place_proc_ids(p, ids);
    CHECK(CPU_COUNT(&mask) == n);
    for (int i = 0; i < n; i++)
        CHECK(CPU_ISSET(ids[i], &mask));
    int pl = omp_get_partition_num_places();
    int nums[CPU_SETSIZE];
    omp_get_partition_place_nums(nums);
    CHECK(pl >= 1 && pl <= np);
    bool in = false;
    for (int i = 0; i < pl; i++) {
        CHECK(nums[i] == nums[0] + i);
        in |= nums[i] == p;
    }
    CHECK(in);
}

/* Run a region of n threads and check every thread; returns the places. */
static void region(int n, int *places)
{
#pragma omp parallel num_threads(n)
    {
        CHECK(omp_get_num_threads() == n);
        check_thread_binding(&places[omp_get_thread_num()]);
    }
}

static int child_bind(void)
{
    int np = omp_get_num_places();
    int places[64];
    omp_set_dynamic(0);
    int master = -1;
    check_thread_binding(&master);
    omp_proc_bind_t bind = omp_get_proc_bind();
    for (int n = 1; n <= 2 * np + 1 && n <= 64; n++) {
        region(n, places);
        if (np == 0)
            continue;
        /* The spec's rules, seen from the outside. */
        for (int i = 0; i < n; i++) {
            if (bind == omp_proc_bind_primary)
                CHECK(places[i] == master);
            if ((bind == omp_proc_bind_close || bind == omp_proc_bind_true) && n <= np)
                CHECK(places[i] == (master + i) % np);
            if (bind == omp_proc_bind_spread && n <= np)
                CHECK(i == 0 ? places[i] == master : places[i] != places[i - 1]);
            if (n > np && i > 0) /* consecutive threads share or advance places */
                CHECK(places[i] == places[i - 1] || places[i] == (places[i - 1] + 1) % np);
        }
        CHECK(places[0] == master);
    }
    /* Nested: the inner team stays inside the outer thread's partition. */
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
    {
        int lo = -1, len = omp_get_partition_num_places();
        if (np) {
            int nums[CPU_SETSIZE];
            omp_get_partition_place_nums(nums);
            lo = nums[0];
        }
#pragma omp parallel num_threads(2)
        {
            int p;
            check_thread_binding(&p);
            if (np)
                CHECK(p >= lo && p < lo + len);
        }
    }
    printf("binding ok: %d places, bind %d\n", np, (int)bind);
    return 0;
}

static int child_display(void)
{
    /* The bodies must not be empty: gcc drops an empty parallel region. */
    static volatile int sink;
    for (int r = 0; r < 3; r++) {
#pragma omp parallel num_threads(2)
        sink = omp_get_thread_num();
    }
#pragma omp parallel num_threads(1)
    sink = omp_get_thread_num();
    return sink;
}

/* The first two CPUs this process may run on (-1: none). */
static void first_two_cpus(int *c0, int *c1)
{
    cpu_set_t mask;
    CHECK(sched_getaffinity(0, sizeof mask, &mask) == 0);
    *c0 = *c1 = -1;
    for (int c = 0; c < CPU_SETSIZE && *c1 < 0; c++)
        if (CPU_ISSET(c, &mask))
            *(*c0 < 0 ? c0 : c1) = c;
}

/* Spread, close and primary twice each over 11 places for 8 threads: at
 * each change of policy some threads move, and then every thread of the
 * team shows its line (the spec's rule), so 3 x 8 lines. */
static int child_display_places(void)
{
    static volatile int sink;
    omp_set_num_threads(8);
    for (int r = 0; r < 2; r++) {
#pragma omp parallel proc_bind(spread)
        sink = omp_get_thread_num();
    }
    for (int r = 0; r < 2; r++) {
#pragma omp parallel proc_bind(close)
        sink = omp_get_thread_num();
    }
    for (int r = 0; r < 2; r++) {
#pragma omp parallel proc_bind(primary)
        sink = omp_get_thread_num();
    }
    return sink < 0;
}

/* A bad format, three ways: captured twice, then set and displayed. */
static int child_bad_format(const char *bad)
{
    char fmt[128], buf[256];
    snprintf(fmt, sizeof fmt, "A%sB%%L", bad);
    for (int i = 0; i < 2; i++) {
        omp_capture_affinity(buf, sizeof buf, fmt);
        printf("capture:%s\n", buf);
    }
    snprintf(fmt, sizeof fmt, "D%sE%%n", bad);
    omp_set_affinity_format(fmt);
    omp_display_affinity(NULL);
    printf("still running\n");
    return 0;
}

/* ------------------------------------------------------- affinity format */

static void expect_capture(const char *fmt, const char *want)
{
    char buf[256];
    size_t n = omp_capture_affinity(buf, sizeof buf, fmt);
    if (n != strlen(want) || strcmp(buf, want) != 0) {
        fprintf(stderr, "FAIL: format '%s' gave '%s' (%zu), want '%s'\n", fmt, buf, n, want);
        exit(1);
    }
}

static void format_api(void)
{
    char buf[64];
    const char *dflt = "level %L thread %i affinity %A";
    CHECK(omp_get_affinity_format(NULL, 0) == strlen(dflt));
    CHECK(omp_get_affinity_format(buf, sizeof buf) == strlen(dflt) && strcmp(buf, dflt) == 0);
    CHECK(omp_get_affinity_format(buf, 6) == strlen(dflt) && strcmp(buf, "level") == 0);
    omp_set_affinity_format("x%Ly");
    CHECK(omp_get_affinity_format(buf, sizeof buf) == 4 && strcmp(buf, "x%Ly") == 0);
    expect_capture(NULL, "x0y");
    expect_capture("", "x0y");

    expect_capture("%%", "%");
    expect_capture("L%L", "L0");
    expect_capture("%5L|", "0    |");
    expect_capture("%.5L|", "    0|");
    expect_capture("%0.5L|", "00000|");
    expect_capture("%0.7a", "-000001");
    /* "0" without ".": left-justified, no zeros (libomp's reading) */
    expect_capture("%0L|%03L|%018{thread_num}|", "0|0  |0                 |");
    expect_capture("%.3a", " -1");
    expect_capture("%0.5{nesting_level}%3{num_threads}!%{num_threads}!", "000001  !1!");
    expect_capture("%n %N %t %T", "0 1 0 1");
    expect_capture("%{thread_num} %{team_num} %{num_teams} %{ancestor_tnum}", "0 0 1 -1");

    char want[512];
    snprintf(want, sizeof want, "%d", (int)getpid());
    expect_capture("%P", want);
    expect_capture("%{process_id}", want);
    snprintf(want, sizeof want, "0x%lx", (unsigned long)pthread_self());
    expect_capture("%i", want);
    char zero_padded[128];
    snprintf(zero_padded, sizeof zero_padded, "0x%0*lx", 20, (unsigned long)pthread_self());
    expect_capture("%0.22{native_thread_id}", zero_padded);
    char host[256];
    CHECK(gethostname(host, sizeof host) == 0);
    expect_capture("%H", host);
    snprintf(want, sizeof want, "%40s|", host);
    expect_capture("%.40H|", want);

    /* %A without places: the CPUs of the process, as ranges. */
    cpu_set_t mask;
    CHECK(sched_getaffinity(0, sizeof mask, &mask) == 0);
    char cpus[512] = "";
    size_t len = 0;
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, &mask))
            continue;
        int e = c;
        while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, &mask))
            e++;
        len += (size_t)snprintf(cpus + len, sizeof cpus - len, e > c ? "%s%d-%d" : "%s%d",
                                len ? "," : "", c, e);
        c = e;
    }
    expect_capture("%A", cpus);
    expect_capture("%{thread_affinity}", cpus);

    /* Short buffers: the full length comes back, the text is cut and ended. */
    CHECK(omp_capture_affinity(buf, 3, "abcdef") == 6 && strcmp(buf, "ab") == 0);
    CHECK(omp_capture_affinity(NULL, 0, "abc%%") == 4);

    /* Inside a region. */
    int ok[3] = {0, 0, 0};
#pragma omp parallel num_threads(3)
    {
        char b[64], w[64];
        int id = omp_get_thread_num();
        omp_capture_affinity(b, sizeof b, "%n/%N/%L/%a");
        snprintf(w, sizeof w, "%d/3/1/0", id);
        ok[id] = strcmp(b, w) == 0;
    }
    CHECK(ok[0] && ok[1] && ok[2]);
    omp_set_affinity_format(dflt);
}

static const char *self_path(void);

/* OMP_DISPLAY_AFFINITY: each thread prints its line when it first runs in a
 * region and again only when something shown changed. */
static int display_check(void)
{
    const char *vars[] = {"OMP_DISPLAY_AFFINITY=true", "OMP_AFFINITY_FORMAT=AFF %n/%N L%L", NULL};
    struct child_result *r = calloc(1, sizeof *r);
    child_run(self_path(), "display", vars, r);
    CHECK(WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0);
    if (count_lines_with(r->err, "AFF ") == 0) {
        fprintf(stderr, "FAIL: OMP_DISPLAY_AFFINITY=true printed nothing (the team code must call "
                        "pv_affinity_display_thread() in every member)\n");
        return 1;
    }
    /* three identical 2-thread regions, then a 1-thread one */
    CHECK(count_lines_with(r->err, "AFF 0/2 L1") == 1);
    CHECK(count_lines_with(r->err, "AFF 1/2 L1") == 1);
    CHECK(count_lines_with(r->err, "AFF 0/1 L1") == 1);
    CHECK(count_lines_with(r->err, "AFF ") == 3);
    free(r);

    int c0, c1;
    first_two_cpus(&c0, &c1);
    if (c1 >= 0) {
        char places[256];
        int len = snprintf(places, sizeof places, "OMP_PLACES=");
        for (int i = 0; i < 11; i++)
            len += i % 2 ? snprintf(places + len, sizeof places - len, "{%d,%d},", c0, c1)
                         : snprintf(places + len, sizeof places - len, "{%d},", c0);
        places[len - 1] = '\0';
        const char *pvars[] = {"OMP_DISPLAY_AFFINITY=true", "OMP_AFFINITY_FORMAT=AFF %n/%N {%A}",
                               places, NULL};
        r = calloc(1, sizeof *r);
        child_run(self_path(), "display-places", pvars, r);
        CHECK(WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0);
        int lines = count_lines_with(r->err, "AFF ");
        printf("OMP_DISPLAY_AFFINITY with %s: %d lines (24 expected)\n", places, lines);
        CHECK(lines == 24);
        free(r);
    }
    printf("OMP_DISPLAY_AFFINITY: all checks passed\n");
    return 0;
}

static const char *self_path(void)
{
    static char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    CHECK(n > 0);
    self[n] = '\0';
    return self;
}

static void run_bind_case(const char *const *vars)
{
    struct child_result *r = calloc(1, sizeof *r);
    child_run(self_path(), "bind", vars, r);
    if (!WIFEXITED(r->status) || WEXITSTATUS(r->status) != 0 || !strstr(r->out, "binding ok")) {
        fprintf(stderr, "FAIL: binding with");
        for (int i = 0; vars[i]; i++)
            fprintf(stderr, " %s", vars[i]);
        fprintf(stderr, ":\n%s%s", r->out, r->err);
        exit(1);
    }
    if (count_lines_with(r->err, "pvomp: warning") != 0) {
        fprintf(stderr, "FAIL: unexpected warnings:\n%s", r->err);
        exit(1);
    }
    free(r);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "bind") == 0)
        return child_bind();
    if (argc > 1 && strcmp(argv[1], "display") == 0)
        return child_display();
    if (argc > 1 && strcmp(argv[1], "display-places") == 0)
        return child_display_places();
    if (argc > 1 && strncmp(argv[1], "format:", 7) == 0)
        return child_bad_format(argv[1] + 7);
    if (argc > 1 && strcmp(argv[1], "display-check") == 0)
        return display_check();

    format_api();

    /* Explicit places made of CPUs this process really has. */
    int c0, c1;
    first_two_cpus(&c0, &c1);
    char one[64], two[64], itv[64];
    snprintf(one, sizeof one, "OMP_PLACES={%d}", c0);
    snprintf(two, sizeof two, "OMP_PLACES={%d},{%d}", c1 >= 0 ? c1 : c0, c0);
    snprintf(itv, sizeof itv, "OMP_PLACES={%d}:%d:%d", c0, c1 >= 0 ? 2 : 1, c1 >= 0 ? c1 - c0 : 1);

    const char *cases[][3] = {
        {"OMP_PROC_BIND=close", NULL},
        {"OMP_PROC_BIND=spread", NULL},
        {"OMP_PROC_BIND=primary", NULL},
        {"OMP_PROC_BIND=true", "OMP_PLACES=cores"},
        {"OMP_PLACES=threads", NULL},
        {"OMP_PROC_BIND=spread,close", "OMP_PLACES=threads"},
        {"OMP_PROC_BIND=close", one},
        {"OMP_PROC_BIND=spread", two},
        {"OMP_PROC_BIND=close", itv},
        {"OMP_PROC_BIND=false", "OMP_PLACES=threads"},
        {NULL},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_bind_case(cases[i]);

    /* A bad format is said once, printed as written (an unknown type as
     * "undefined"), and the program goes on: through the API (capture, set +
     * display) and through the environment. */
    struct child_result *r = calloc(1, sizeof *r);
    const char *bad[] = {"%{bogus}", "%{foobar}", "%Q", "%.L",
                         "%.{thread_num}", "%{nesting_level"};
    const char *shown[] = {"undefined", "undefined", "undefined"}; /* then as written */
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char arg[64], want[128], dwant[128];
        const char *text = i < sizeof shown / sizeof shown[0] ? shown[i] : bad[i];
        snprintf(arg, sizeof arg, "format:%s", bad[i]);
        child_run(self_path(), arg, NULL, r);
        snprintf(want, sizeof want, "capture:A%sB0", text);
        snprintf(dwant, sizeof dwant, "D%sE0\n", text);
        bool ok = WIFEXITED(r->status) && WEXITSTATUS(r->status) == 0 &&
                  count_lines_with(r->out, want) == 2 && strstr(r->out, "still running") &&
                  strstr(r->err, dwant) && count_lines_with(r->err, "affinity format") == 1;
        /* the environment: OMP_DISPLAY_AFFINITY lines carry the bad text too */
        char envfmt[128];
        snprintf(envfmt, sizeof envfmt, "OMP_AFFINITY_FORMAT=AFF %s %%n/%%N", bad[i]);
        const char *vars[] = {"OMP_DISPLAY_AFFINITY=true", envfmt, NULL};
        struct child_result *e = calloc(1, sizeof *e);
        child_run(self_path(), "display", vars, e);
        snprintf(want, sizeof want, "AFF %s 1/2", text);
        ok = ok && WIFEXITED(e->status) && WEXITSTATUS(e->status) == 0 &&
             count_lines_with(e->err, want) == 1 &&
             count_lines_with(e->err, "affinity format") == 1;
        if (!ok) {
            fprintf(stderr, "FAIL: bad format '%s':\n%s%s--- env:\n%s%s", bad[i], r->out, r->err,
                    e->out, e->err);
            return 1;
        }
        free(e);
    }
    free(r);
    printf("affinity: all checks passed\n");
    return 0;
}
