/* Places without depending on the machine: src/runtime/affinity_*.c are
 * compiled into this program, which pretends to run on 2 sockets x 4 cores x
 * 2 hardware threads (a generated sysfs tree) with CPU 15 outside the
 * process mask.  Checks OMP_PLACES parsing (abstract names, counts, explicit
 * lists with intervals and exclusions, restriction to the mask), the printed
 * form, and pv_affinity_assign's close / primary / spread placement. */
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/affinity.h"
#include "runtime/icv.h"
#include "runtime/league.h"
#include "runtime/places.h"
#include "runtime/thread.h"

/* What the runtime would provide. */
__thread struct pv_thread pv_thr;
__thread struct pv_league pv_league;
struct pv_icv pv_initial_icv;
struct pv_global_icv pv_gicv;
unsigned pv_num_procs;
void pv_runtime_init(void) {}

/* api/affinity_api.c's exported routines */
int omp_get_num_places(void);
int omp_get_place_num_procs(int);
void omp_get_place_proc_ids(int, int *);

/* The fake process mask: CPUs 0..14. */
#define NCPU 16
int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set)
{
    (void)pid;
    CPU_ZERO_S(size, set);
    for (int c = 0; c < NCPU - 1; c++)
        CPU_SET_S(c, size, set);
    return 0;
}

static int failures;
#define CHECK(c)                                                               \
    do {                                                                       \
        if (!(c)) {                                                            \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
            failures++;                                                        \
        }                                                                      \
    } while (0)

/* ------------------------------------------------------- fake topology */

static char root[] = "/tmp/pvomp-sysfs-XXXXXX";

static void put(const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *p = path + strlen(root) + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0755);
            *p = '/';
        }
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(2);
    }
    fprintf(f, "%s\n", text);
    fclose(f);
}

/* Linux numbering: core k of socket s holds CPUs s*4+k and s*4+k+8; the
 * last-level cache is shared by two cores; one NUMA node per socket. */
static void make_topology(void)
{
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        exit(2);
    }
    char rel[256], text[64];
    for (int c = 0; c < NCPU; c++) {
        int core = c % 8, sock = core / 4, pair = core / 2;
        snprintf(rel, sizeof rel, "cpu/cpu%d/topology/thread_siblings_list", c);
        snprintf(text, sizeof text, "%d,%d", core, core + 8);
        put(rel, text);
        snprintf(rel, sizeof rel, "cpu/cpu%d/topology/package_cpus_list", c);
        snprintf(text, sizeof text, "%d-%d,%d-%d", sock * 4, sock * 4 + 3, sock * 4 + 8,
                 sock * 4 + 11);
        put(rel, text);
        for (int i = 0; i < 4; i++) {
            snprintf(rel, sizeof rel, "cpu/cpu%d/cache/index%d/level", c, i);
            snprintf(text, sizeof text, "%d", i < 2 ? 1 : i);
            put(rel, text);
            snprintf(rel, sizeof rel, "cpu/cpu%d/cache/index%d/shared_cpu_list", c, i);
            if (i < 3)
                snprintf(text, sizeof text, "%d,%d", core, core + 8);
            else
                snprintf(text, sizeof text, "%d-%d,%d-%d", pair * 2, pair * 2 + 1, pair * 2 + 8,
                         pair * 2 + 9);
            put(rel, text);
        }
    }
    put("node/online", "0-1");
    put("node/node0/cpulist", "0-3,8-11");
    put("node/node1/cpulist", "4-7,12-15");
    pv_affinity_sysfs_root = root;
}

static void remove_topology(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", root);
}

/* -------------------------------------------------------------- parsing */

static void reset(void)
{
    pv_places = NULL; /* leaked on purpose: a test */
    pv_num_places = 0;
}

/* The place list printed like OMP_DISPLAY_ENV does. */
static char *printed(void)
{
    static char buf[4096];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    pv_places_print(f);
    fclose(f);
    return buf;
}

static void expect_places(const char *value, const char *want)
{
    reset();
    bool ok = pv_places_parse("OMP_PLACES", value, true);
    const char *got = ok ? printed() : "(invalid)";
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "FAIL: OMP_PLACES='%s': got '%s', want '%s'\n", value, got, want);
        failures++;
    }
}

static void parsing(void)
{
    expect_places("threads", "{0},{8},{1},{9},{2},{10},{3},{11},{4},{12},{5},{13},{6},{14},{7}");
    expect_places("THREADS(3)", "{0},{8},{1}");
    expect_places("cores", "{0,8},{1,9},{2,10},{3,11},{4,12},{5,13},{6,14},{7}");
    expect_places(" cores ( 2 ) ", "{0,8},{1,9}");
    expect_places("sockets", "{0:4,8:4},{4:4,12:3}");
    expect_places("sockets(1)", "{0:4,8:4}");
    expect_places("ll_caches", "{0:2,8:2},{2:2,10:2},{4:2,12:2},{6:2,14}");
    expect_places("numa_domains", "{0:4,8:4},{4:4,12:3}");
    expect_places("numa_domains(1)", "{0:4,8:4}");
    /* Explicit lists (the cases of libgomp's affinity-1.c). */
    expect_places("{0}:8", "{0},{1},{2},{3},{4},{5},{6},{7}");
    expect_places("{7,6}:2:-3", "{6:2},{3:2}");
    expect_places("{6,7}:4:-2,!{2,3}", "{6:2},{4:2},{0:2}");
    expect_places("{1}:7:1", "{1},{2},{3},{4},{5},{6},{7}");
    expect_places("{0,1},{3,2,4},{6,5,!6},{6},{7:2:-1,!6}", "{0:2},{2:3},{5},{6},{7}");
    expect_places("1,2,{2,3,!2},3,3,!3,!{5:3:-1,!4,!5},{4},5,!4,!5,"
                  "1:2,!{1},!2,7:3:-2,!{5},!7,!3",
                  "{1},{2},{3}");
    expect_places("{ 0 : 4 : 2 } , { 1 : 2 }", "{0,2,4,6},{1:2}");
    expect_places("{0:3}:2:8", "{0:3},{8:3}");
    /* Restricted to the mask: CPU 15 is not ours. */
    expect_places("{14,15}", "{14}");
    expect_places("{15},{0}", "{0}");
    expect_places("{15}", "(invalid)");
    /* Invalid ones. */
    const char *bad[] = {
        "", "{", "{0", "{0}}", "{0},", "{}", "{0}:0", "{0}:2:", "{a}", "{0}x", "cores(0)",
        "cores(", "cores)", "corez", "{0:0}", "{!0:2}", "!{0}", "{0},!{1}", "{0}:-1",
        "{1,!2}", "!{0}:2", "{0}:2:-1", "{99999999999999999999}", "threads x",
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_places(bad[i], "(invalid)");
    /* Syntax check only: nothing is built. */
    reset();
    CHECK(pv_places_parse("OMP_PLACES", "{0}:4", false) && pv_num_places == 0);
    CHECK(!pv_places_parse("OMP_PLACES", "{0}:", false));
    /* GOMP_CPU_AFFINITY */
    reset();
    CHECK(pv_places_parse_cpu_list("GOMP_CPU_AFFINITY", "3 0-2 8-14:3", true));
    CHECK(strcmp(printed(), "{3},{0},{1},{2},{8},{11},{14}") == 0);
    reset();
    CHECK(!pv_places_parse_cpu_list("GOMP_CPU_AFFINITY", "3-1", true));
    /* The default list: one place per hardware thread. */
    reset();
    CHECK(pv_places_default() && pv_num_places == NCPU - 1);
    /* The place API on the list. */
    reset();
    pv_places_parse("OMP_PLACES", "{3,2,4},{9}", true);
    CHECK(omp_get_num_places() == 2);
    CHECK(omp_get_place_num_procs(0) == 3 && omp_get_place_num_procs(1) == 1);
    CHECK(omp_get_place_num_procs(2) == 0 && omp_get_place_num_procs(-1) == 0);
    int ids[4] = {-1, -1, -1, -1};
    omp_get_place_proc_ids(0, ids);
    CHECK(ids[0] == 2 && ids[1] == 3 && ids[2] == 4 && ids[3] == -1);
    char buf[64];
    CHECK(pv_place_format(buf, sizeof buf, 0) == 3 && strcmp(buf, "2-4") == 0);
    CHECK(pv_place_format(buf, sizeof buf, 99) == 4 && strcmp(buf, "0-14") == 0);
    CHECK(pv_place_format(buf, 3, 99) == 4 && strcmp(buf, "0-") == 0);
}

/* ------------------------------------------------------------ placement */

struct want {
    unsigned place, off, len;
};

static void expect_assign(const char *what, unsigned n, unsigned bind, unsigned parent,
                          unsigned off, unsigned len, const struct want *w)
{
    unsigned place[64], so[64], sl[64];
    pv_affinity_assign(n, bind, parent, off, len, place, so, sl);
    for (unsigned i = 0; i < n; i++)
        if (place[i] != w[i].place || so[i] != w[i].off || sl[i] != w[i].len) {
            fprintf(stderr, "FAIL: %s: thread %u got place %u partition [%u,+%u), want %u [%u,+%u)\n",
                    what, i, place[i], so[i], sl[i], w[i].place, w[i].off, w[i].len);
            failures++;
        }
}

static void placement(void)
{
    reset();
    CHECK(pv_places_parse("OMP_PLACES", "{0}:8", true) && pv_num_places == 8);

    /* spread, T <= P: T subpartitions; the master keeps its place. */
    expect_assign("spread 4 of 8", 4, PV_BIND_SPREAD, 0, 0, 8,
                  (struct want[]){{0, 0, 2}, {2, 2, 2}, {4, 4, 2}, {6, 6, 2}});
    expect_assign("spread 4 of 8 from 3", 4, PV_BIND_SPREAD, 3, 0, 8,
                  (struct want[]){{3, 2, 2}, {4, 4, 2}, {6, 6, 2}, {0, 0, 2}});
    expect_assign("spread 3 of 8", 3, PV_BIND_SPREAD, 0, 0, 8,
                  (struct want[]){{0, 0, 3}, {3, 3, 3}, {6, 6, 2}});
    expect_assign("spread 3 of 8 from 7", 3, PV_BIND_SPREAD, 7, 0, 8,
                  (struct want[]){{7, 6, 2}, {0, 0, 3}, {3, 3, 3}});
    expect_assign("spread 4 of 5", 4, PV_BIND_SPREAD, 0, 0, 5,
                  (struct want[]){{0, 0, 2}, {2, 2, 1}, {3, 3, 1}, {4, 4, 1}});
    expect_assign("spread 2 in partition [4,+4)", 2, PV_BIND_SPREAD, 5, 4, 4,
                  (struct want[]){{5, 4, 2}, {6, 6, 2}});
    /* spread, T > P: one-place subpartitions with consecutive threads. */
    expect_assign("spread 5 of 2", 5, PV_BIND_SPREAD, 6, 6, 2,
                  (struct want[]){{6, 6, 1}, {6, 6, 1}, {6, 6, 1}, {7, 7, 1}, {7, 7, 1}});
    expect_assign("spread 4 of 3", 4, PV_BIND_SPREAD, 0, 0, 3,
                  (struct want[]){{0, 0, 1}, {0, 0, 1}, {1, 1, 1}, {2, 2, 1}});
    /* close: consecutive places from the master's, wrapping in the partition. */
    expect_assign("close 3 of 8 from 6", 3, PV_BIND_CLOSE, 6, 0, 8,
                  (struct want[]){{6, 0, 8}, {7, 0, 8}, {0, 0, 8}});
    expect_assign("close 4 in [4,+4) from 5", 4, PV_BIND_CLOSE, 5, 4, 4,
                  (struct want[]){{5, 4, 4}, {6, 4, 4}, {7, 4, 4}, {4, 4, 4}});
    expect_assign("true is close", 2, PV_BIND_TRUE, 1, 0, 8, (struct want[]){{1, 0, 8}, {2, 0, 8}});
    /* close, T > P: the first T mod P places get one thread more. */
    expect_assign("close 10 of 4 from 1", 10, PV_BIND_CLOSE, 1, 0, 4,
                  (struct want[]){{1, 0, 4}, {1, 0, 4}, {1, 0, 4}, {2, 0, 4}, {2, 0, 4},
                                  {2, 0, 4}, {3, 0, 4}, {3, 0, 4}, {0, 0, 4}, {0, 0, 4}});
    /* primary: everybody on the master's place, partition unchanged. */
    expect_assign("primary 3", 3, PV_BIND_MASTER, 5, 4, 4,
                  (struct want[]){{5, 4, 4}, {5, 4, 4}, {5, 4, 4}});
    /* No places: nobody is bound. */
    reset();
    expect_assign("no places", 2, PV_BIND_CLOSE, 0, 0, 0,
                  (struct want[]){{UINT_MAX, 0, 0}, {UINT_MAX, 0, 0}});
}

int main(void)
{
    make_topology();
    pv_cpu_mask_init();
    CHECK(pv_num_procs == NCPU - 1);
    parsing();
    placement();
    remove_topology();
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("places: all checks passed\n");
    return 0;
}
