/* Parallel regions: num_threads, if, nesting with max-active-levels and
 * thread-limit, the level/ancestor/team-size/active-level queries at every
 * level, proc_bind, thread pool reuse, and the legacy GOMP_parallel_start/end.
 *
 * Modes (argv[1]): none = the general checks; "thread_limit" expects
 * OMP_THREAD_LIMIT=3; "list" expects OMP_NUM_THREADS=3,2 and
 * OMP_MAX_ACTIVE_LEVELS=2; "places" expects OMP_PLACES=threads and
 * OMP_PROC_BIND=close. */
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>

#include "pvomp_check.h"
#include "omp_test.h"

/* The pre-GCC-4.9 entry points; declared here because omp.h does not. */
void GOMP_parallel_start(void (*fn)(void *), void *data, unsigned num_threads);
void GOMP_parallel_end(void);

#define MAXT 64

/* Every thread number of a team of n runs exactly once. */
static void check_team_once(const int *seen, int n)
{
    for (int i = 0; i < MAXT; i++)
        CHECK(seen[i] == (i < n ? 1 : 0));
}

static void test_num_threads(void)
{
    CHECK(!omp_in_parallel());
    CHECK(omp_get_level() == 0 && omp_get_active_level() == 0);
    CHECK(omp_get_thread_num() == 0 && omp_get_num_threads() == 1);
    CHECK(omp_get_dynamic() == 0);

    static const int sizes[] = {1, 2, 3, 4, 7, 16, 2};
    for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int n = sizes[k];
        int seen[MAXT] = {0}, bad = 0;
#pragma omp parallel num_threads(n)
        {
            TEST_INC(&seen[omp_get_thread_num()]);
            if (omp_get_num_threads() != n || omp_get_level() != 1 ||
                omp_get_active_level() != (n > 1) || omp_in_parallel() != (n > 1))
                TEST_INC(&bad);
        }
        CHECK(bad == 0);
        check_team_once(seen, n);
    }

    /* nthreads-var through omp_set_num_threads, and the default team. */
    int def = omp_get_max_threads();
    CHECK(def >= 1);
    omp_set_num_threads(3);
    CHECK(omp_get_max_threads() == 3);
    {
        int seen[MAXT] = {0}, inner_max = 0;
#pragma omp parallel
        {
            TEST_INC(&seen[omp_get_thread_num()]);
            if (omp_get_thread_num() == 0)
                inner_max = omp_get_max_threads();
        }
        check_team_once(seen, 3);
        CHECK(inner_max == 3);
    }
    omp_set_num_threads(def);
    {
        int seen[MAXT] = {0};
#pragma omp parallel
        TEST_INC(&seen[omp_get_thread_num()]);
        check_team_once(seen, def);
    }
}

static void test_if(void)
{
    int size = -1, level = -1, active = -1, inpar = -1;
    int zero = 0;
#pragma omp parallel if (zero) num_threads(4)
    {
        size = omp_get_num_threads();
        level = omp_get_level();
        active = omp_get_active_level();
        inpar = omp_in_parallel();
    }
    CHECK(size == 1 && level == 1 && active == 0 && inpar == 0);

    int one = 1, seen[MAXT] = {0}, bad = 0;
#pragma omp parallel if (one) num_threads(2)
    {
        TEST_INC(&seen[omp_get_thread_num()]);
        if (!omp_in_parallel() || omp_get_active_level() != 1)
            TEST_INC(&bad);
    }
    CHECK(bad == 0);
    check_team_once(seen, 2);
}

/* Checks the queries of the calling thread at nesting level `lvl`, where
 * tn[k] is the thread number the thread (or its ancestor) had at level k and
 * size[k] the team size at level k (tn[0] = 0, size[0] = 1). */
static int queries_wrong(int lvl, const int *tn, const int *size)
{
    int wrong = 0, active = 0;
    for (int k = 1; k <= lvl; k++)
        active += size[k] > 1;
    wrong |= omp_get_level() != lvl;
    wrong |= omp_get_active_level() != active;
    wrong |= omp_in_parallel() != (active > 0);
    wrong |= omp_get_thread_num() != tn[lvl];
    wrong |= omp_get_num_threads() != size[lvl];
    for (int k = 0; k <= lvl; k++) {
        wrong |= omp_get_ancestor_thread_num(k) != tn[k];
        wrong |= omp_get_team_size(k) != size[k];
    }
    wrong |= omp_get_ancestor_thread_num(lvl + 1) != -1;
    wrong |= omp_get_team_size(lvl + 1) != -1;
    wrong |= omp_get_ancestor_thread_num(-1) != -1;
    wrong |= omp_get_team_size(-1) != -1;
    return wrong;
}

/* Three nested regions of 2 threads requested each, with max-active-levels
 * `mal`: levels deeper than mal get teams of one. */
static void test_nested3(int mal)
{
    omp_set_max_active_levels(mal);
    CHECK(omp_get_max_active_levels() == mal);
    int size[4] = {1, mal >= 1 ? 2 : 1, mal >= 2 ? 2 : 1, mal >= 3 ? 2 : 1};
    int combos[2][2][2] = {{{0}}};
    int bad = 0;
#pragma omp parallel num_threads(2)
    {
        int tn[4] = {0, omp_get_thread_num(), 0, 0};
        if (queries_wrong(1, tn, size))
            TEST_INC(&bad);
#pragma omp parallel num_threads(2)
        {
            int tn2[4] = {0, tn[1], omp_get_thread_num(), 0};
            if (queries_wrong(2, tn2, size))
                TEST_INC(&bad);
#pragma omp parallel num_threads(2)
            {
                int tn3[4] = {0, tn2[1], tn2[2], omp_get_thread_num()};
                if (queries_wrong(3, tn3, size))
                    TEST_INC(&bad);
                if (tn3[1] < 2 && tn3[2] < 2 && tn3[3] < 2)
                    TEST_INC(&combos[tn3[1]][tn3[2]][tn3[3]]);
            }
            /* Back at level 2, the queries are those of level 2 again. */
            if (queries_wrong(2, tn2, size))
                TEST_INC(&bad);
        }
    }
    CHECK(bad == 0);
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            for (int c = 0; c < 2; c++)
                CHECK(combos[a][b][c] == (a < size[1] && b < size[2] && c < size[3]));
    CHECK(omp_get_level() == 0 && omp_get_active_level() == 0);
}

/* nthreads-var belongs to each implicit task: a thread that sets it changes
 * only its own nested regions. */
static void test_icv_scope(void)
{
    omp_set_max_active_levels(2);
    int outer_max = omp_get_max_threads();
    int inner_size[2] = {0, 0};
#pragma omp parallel num_threads(2)
    {
        int me = omp_get_thread_num();
        if (me == 1)
            omp_set_num_threads(3);
#pragma omp barrier
#pragma omp parallel num_threads(me == 1 ? 3 : 2)
        {
            if (omp_get_thread_num() == 0)
                inner_size[me] = omp_get_num_threads();
        }
        /* Without a clause, thread 1's nested region uses its own value. */
        if (me == 1) {
            int n = 0;
#pragma omp parallel
            {
                if (omp_get_thread_num() == 0)
                    n = omp_get_num_threads();
            }
            CHECK(n == 3);
        }
    }
    CHECK(inner_size[0] == 2 && inner_size[1] == 3);
    CHECK(omp_get_max_threads() == outer_max);
}

static void test_proc_bind(void)
{
    int seen[MAXT] = {0}, bad = 0;
#pragma omp parallel num_threads(2) proc_bind(close)
    {
        TEST_INC(&seen[omp_get_thread_num()]);
        int p = omp_get_place_num();
        if (p < -1 || p >= omp_get_num_places())
            TEST_INC(&bad);
    }
#pragma omp parallel num_threads(2) proc_bind(spread)
    TEST_INC(&seen[omp_get_thread_num()]);
#pragma omp parallel num_threads(2) proc_bind(master)
    TEST_INC(&seen[omp_get_thread_num()]);
#pragma omp parallel num_threads(2) proc_bind(primary)
    TEST_INC(&seen[omp_get_thread_num()]);
    CHECK(bad == 0);
    CHECK(seen[0] == 4 && seen[1] == 4 && seen[2] == 0);
}

static int count_threads(void)
{
    DIR *d = opendir("/proc/self/task");
    CHECK(d != NULL);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* The workers of 100 consecutive regions of the same size are the same
 * kernel threads: no thread is created per region. */
static void test_pool_reuse(void)
{
    enum { REGIONS = 100, N = 4 };
    static long tids[REGIONS][N];
    static pthread_t selves[REGIONS][N];
#pragma omp parallel num_threads(N)
    test_delay(100);
    int before = count_threads();
    for (int r = 0; r < REGIONS; r++) {
#pragma omp parallel num_threads(N)
        {
            int me = omp_get_thread_num();
            tids[r][me] = test_gettid();
            selves[r][me] = pthread_self();
        }
    }
    CHECK(count_threads() == before);
    long main_tid = test_gettid();
    long distinct[REGIONS * N];
    int ndistinct = 0;
    for (int r = 0; r < REGIONS; r++) {
        CHECK(tids[r][0] == main_tid);
        CHECK(pthread_equal(selves[r][0], pthread_self()));
        for (int t = 1; t < N; t++) {
            CHECK(tids[r][t] != 0 && tids[r][t] != main_tid);
            int found = 0;
            for (int k = 0; k < ndistinct; k++)
                found |= distinct[k] == tids[r][t];
            if (!found)
                distinct[ndistinct++] = tids[r][t];
        }
        /* Within one region, the workers are distinct threads. */
        for (int a = 1; a < N; a++)
            for (int b = a + 1; b < N; b++)
                CHECK(tids[r][a] != tids[r][b]);
    }
    CHECK(ndistinct == N - 1);
}

/* Nested teams: a thread that forks nested regions of one size one after
 * another gets the same workers in the same member order each time (the
 * master docks them back at the join, before it goes on). */
static void test_nested_reuse(void)
{
    enum { REGIONS = 50, N = 3 };
    static long tids[REGIONS][N];
    int saved = omp_get_max_active_levels();
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(1)
    {
        for (int r = 0; r < REGIONS; r++) {
#pragma omp parallel num_threads(N)
            {
                tids[r][omp_get_thread_num()] = test_gettid();
                test_delay(1000 * omp_get_thread_num()); /* members end out of step */
            }
        }
    }
    omp_set_max_active_levels(saved);
    for (int r = 0; r < REGIONS; r++)
        for (int t = 0; t < N; t++) {
            CHECK(tids[r][t] != 0);
            CHECK(tids[r][t] == tids[0][t]);
        }
    for (int a = 0; a < N; a++)
        for (int b = a + 1; b < N; b++)
            CHECK(tids[0][a] != tids[0][b]);
}

/* Legacy ABI: GOMP_parallel_start forks the team, the caller runs fn as
 * thread 0, GOMP_parallel_end joins. */
struct legacy {
    int seen[MAXT];
    int size;
    int bad;
    int iter[1000];
};

static void legacy_body(void *p)
{
    struct legacy *d = p;
    TEST_INC(&d->seen[omp_get_thread_num()]);
    if (omp_get_thread_num() == 0)
        d->size = omp_get_num_threads();
    if (omp_get_level() < 1)
        TEST_INC(&d->bad);
#pragma omp for schedule(dynamic, 7)
    for (int i = 0; i < 1000; i++)
        TEST_INC(&d->iter[i]);
#pragma omp barrier
}

static void run_legacy(struct legacy *d, unsigned n)
{
    memset(d, 0, sizeof *d);
    GOMP_parallel_start(legacy_body, d, n);
    legacy_body(d);
    GOMP_parallel_end();
}

static void test_legacy(void)
{
    static struct legacy d;
    run_legacy(&d, 3);
    CHECK(d.size == 3 && d.bad == 0);
    check_team_once(d.seen, 3);
    for (int i = 0; i < 1000; i++)
        CHECK(d.iter[i] == 1);
    CHECK(omp_get_level() == 0);

    /* num_threads 0 means "use nthreads-var". */
    int def = omp_get_max_threads();
    omp_set_num_threads(2);
    run_legacy(&d, 0);
    CHECK(d.size == 2);
    check_team_once(d.seen, 2);
    omp_set_num_threads(def);

    /* Nested inside a GOMP_parallel region. */
    omp_set_max_active_levels(2);
    static struct legacy inner[2];
#pragma omp parallel num_threads(2)
    run_legacy(&inner[omp_get_thread_num()], 2);
    for (int t = 0; t < 2; t++) {
        CHECK(inner[t].size == 2 && inner[t].bad == 0);
        check_team_once(inner[t].seen, 2);
    }
}

static void test_dynamic(void)
{
    omp_set_dynamic(1);
    int size = 0;
#pragma omp parallel num_threads(4)
    {
        if (omp_get_thread_num() == 0)
            size = omp_get_num_threads();
    }
    CHECK(size >= 1 && size <= 4);
    omp_set_dynamic(0);
}

/* OMP_THREAD_LIMIT=3: no contention group ever runs more than 3 threads. */
static void mode_thread_limit(void)
{
    CHECK(omp_get_thread_limit() == 3);
    int size = 0;
#pragma omp parallel num_threads(8)
    {
        if (omp_get_thread_num() == 0)
            size = omp_get_num_threads();
    }
    CHECK(size >= 1 && size <= 3);

    omp_set_max_active_levels(2);
    int running = 0, most = 0, bad = 0;
    for (int rep = 0; rep < 50; rep++) {
#pragma omp parallel num_threads(2)
        {
#pragma omp parallel num_threads(2)
            {
                int now = TEST_INC(&running) + 1;
                TEST_MAX(&most, now);
                if (omp_get_num_threads() > 2 || omp_get_thread_limit() != 3)
                    TEST_INC(&bad);
                test_delay(20000);
                __atomic_fetch_sub(&running, 1, __ATOMIC_RELAXED);
            }
        }
    }
    CHECK(bad == 0);
    CHECK(most >= 1 && most <= 3);
}

/* OMP_NUM_THREADS=3,2 with OMP_MAX_ACTIVE_LEVELS=2. */
static void mode_list(void)
{
    CHECK(omp_get_max_threads() == 3);
    CHECK(omp_get_max_active_levels() == 2);
    int outer = 0, inner[MAXT] = {0}, inner_max[MAXT] = {0}, mid_max = 0;
#pragma omp parallel
    {
        int me = omp_get_thread_num();
        if (me == 0) {
            outer = omp_get_num_threads();
            mid_max = omp_get_max_threads();
        }
#pragma omp parallel
        {
            if (omp_get_thread_num() == 0) {
                inner[me] = omp_get_num_threads();
                inner_max[me] = omp_get_max_threads();
            }
        }
    }
    CHECK(outer == 3 && mid_max == 2);
    for (int t = 0; t < 3; t++)
        CHECK(inner[t] == 2 && inner_max[t] == 2);
}

/* OMP_PLACES=threads OMP_PROC_BIND=close: one CPU per place, and a thread's
 * affinity mask is exactly its place. */
static void mode_places(void)
{
    int np = omp_get_num_places();
    CHECK(np >= 1 && np <= omp_get_num_procs());
    CHECK(omp_get_proc_bind() == omp_proc_bind_close);
    CHECK(omp_get_partition_num_places() == np);
    for (int p = 0; p < np; p++)
        CHECK(omp_get_place_num_procs(p) == 1);
    int n = np < 8 ? np : 8;
    int place_of[MAXT], bad = 0;
#pragma omp parallel num_threads(n)
    {
        int me = omp_get_thread_num();
        int p = omp_get_place_num();
        place_of[me] = p;
        if (p < 0 || p >= np) {
            TEST_INC(&bad);
        } else {
            int id = -1;
            omp_get_place_proc_ids(p, &id);
            cpu_set_t set;
            CPU_ZERO(&set);
            if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) != 1 ||
                !CPU_ISSET(id, &set))
                TEST_INC(&bad);
        }
    }
    CHECK(bad == 0);
    /* close with no more threads than places: every thread has its own place. */
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            CHECK(place_of[a] != place_of[b]);

    int sp[2] = {-1, -1};
#pragma omp parallel num_threads(2) proc_bind(spread)
    sp[omp_get_thread_num()] = omp_get_place_num();
    CHECK(sp[0] >= 0 && sp[1] >= 0);
    if (np >= 2)
        CHECK(sp[0] != sp[1]);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "thread_limit") == 0) {
        mode_thread_limit();
    } else if (strcmp(mode, "list") == 0) {
        mode_list();
    } else if (strcmp(mode, "places") == 0) {
        mode_places();
    } else {
        CHECK(argc == 1);
        CHECK(omp_get_thread_limit() > 1024); /* no limit unless OMP_THREAD_LIMIT */
        test_num_threads();
        test_if();
        for (int mal = 1; mal <= 3; mal++)
            test_nested3(mal);
        test_icv_scope();
        test_proc_bind();
        test_pool_reuse();
        test_nested_reuse();
        test_legacy();
        test_dynamic();
    }
    printf("omp_parallel %s: ok\n", mode);
    return 0;
}
