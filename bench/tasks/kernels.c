/* Task kernels in the style of the Barcelona OpenMP Tasks Suite (our own
 * code): each builds its input, runs the task-parallel version, checks the
 * result against a sequential computation and prints its elapsed time.
 *
 *   fib        recursive fib(27) with a task per call, no cut-off
 *   fib_cut    fib(34) with a cut-off (sequential below depth 12 from the top)
 *   nqueens    all solutions of N queens, a task per placed queen, taskwait
 *   sort       merge sort of N ints, tasks down to 2048 elements
 *   sparselu   LU factorisation of a block-sparse matrix, tasks ordered by
 *              depend clauses on the blocks (no taskwait inside)
 *   uts        an unbalanced tree (node's child count from a hash of its id,
 *              geometric-like), a task per node, nodes counted
 *
 * Usage: kernels NAME [REPS]: prints "T NAME <ms>" per repetition and exits 1
 * when a result is wrong (bench/tasks/kernels.sh runs them on three runtimes). */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failed;

/* ------------------------------------------------------------------ fib */
static long fib_seq(int n)
{
    return n < 2 ? n : fib_seq(n - 1) + fib_seq(n - 2);
}

static long fib_task(int n, int cut)
{
    if (n < 2)
        return n;
    if (n < cut)
        return fib_seq(n);
    long a, b;
#pragma omp task shared(a)
    a = fib_task(n - 1, cut);
#pragma omp task shared(b)
    b = fib_task(n - 2, cut);
#pragma omp taskwait
    return a + b;
}

static long fib_want(int n)
{
    long a = 0, b = 1;
    for (int i = 0; i < n; i++) {
        long t = a + b;
        a = b;
        b = t;
    }
    return a;
}

static void run_fib(int cut)
{
    int n = cut ? 34 : 27;
    long r = 0;
#pragma omp parallel
#pragma omp single
    r = fib_task(n, cut ? n - 12 : 0);
    if (r != fib_want(n))
        failed = 1;
}

/* -------------------------------------------------------------- nqueens */
static int queens_ok(const char *pos, int row, int col)
{
    for (int i = 0; i < row; i++) {
        int d = pos[i] - col;
        if (d == 0 || d == row - i || d == i - row)
            return 0;
    }
    return 1;
}

static long queens_seq(int n, int row, char *pos)
{
    if (row == n)
        return 1;
    long c = 0;
    for (int col = 0; col < n; col++)
        if (queens_ok(pos, row, col)) {
            pos[row] = (char)col;
            c += queens_seq(n, row + 1, pos);
        }
    return c;
}

static long queens_task(int n, int row, const char *pos)
{
    if (row == n)
        return 1;
    long count[32] = {0};
    for (int col = 0; col < n; col++) {
#pragma omp task shared(count) firstprivate(col)
        {
            char mine[32];
            memcpy(mine, pos, (size_t)row);
            if (queens_ok(mine, row, col)) {
                mine[row] = (char)col;
                count[col] = queens_task(n, row + 1, mine);
            }
        }
    }
#pragma omp taskwait
    long c = 0;
    for (int col = 0; col < n; col++)
        c += count[col];
    return c;
}

static void run_nqueens(void)
{
    const int n = 10;
    char pos[32];
    long r = 0;
#pragma omp parallel
#pragma omp single
    r = queens_task(n, 0, pos);
    if (r != queens_seq(n, 0, pos))
        failed = 1;
}

/* ----------------------------------------------------------------- sort */
static void merge(const int *a, size_t na, const int *b, size_t nb, int *out)
{
    size_t i = 0, j = 0, k = 0;
    while (i < na && j < nb)
        out[k++] = a[i] <= b[j] ? a[i++] : b[j++];
    while (i < na)
        out[k++] = a[i++];
    while (j < nb)
        out[k++] = b[j++];
}

static int cmp_int(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

/* Sort a[0..n) using tmp; the result is in a. */
static void msort(int *a, int *tmp, size_t n)
{
    if (n <= 2048) {
        qsort(a, n, sizeof *a, cmp_int);
        return;
    }
    size_t h = n / 2;
#pragma omp task
    msort(a, tmp, h);
#pragma omp task
    msort(a + h, tmp + h, n - h);
#pragma omp taskwait
    merge(a, h, a + h, n - h, tmp);
    memcpy(a, tmp, n * sizeof *a);
}

static void run_sort(void)
{
    const size_t n = 1u << 20;
    int *a = malloc(n * sizeof *a), *tmp = malloc(n * sizeof *a);
    uint32_t s = 12345;
    long long sum = 0;
    for (size_t i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        a[i] = (int)(s >> 1);
        sum += a[i];
    }
#pragma omp parallel
#pragma omp single
    msort(a, tmp, n);
    for (size_t i = 0; i < n; i++) {
        sum -= a[i];
        if (i && a[i - 1] > a[i])
            failed = 1;
    }
    if (sum)
        failed = 1;
    free(a);
    free(tmp);
}

/* ------------------------------------------------------------- sparselu */
#define LU_NB 24 /* blocks per side */
#define LU_BS 24 /* block side */
typedef double block_t[LU_BS * LU_BS];

static int lu_present(int i, int j)
{
    /* A band and a few scattered blocks, the diagonal always. */
    return i == j || abs(i - j) <= 2 || (i * 7 + j * 3) % 11 == 0;
}

static void lu_fill(block_t **m)
{
    for (int i = 0; i < LU_NB; i++)
        for (int j = 0; j < LU_NB; j++) {
            m[i * LU_NB + j] = NULL;
            if (!lu_present(i, j))
                continue;
            double *b = malloc(sizeof(block_t));
            for (int k = 0; k < LU_BS * LU_BS; k++)
                b[k] = (double)(((i * 31 + j * 17 + k * 7) % 23) + 1) / 23.0;
            if (i == j)
                for (int k = 0; k < LU_BS; k++)
                    b[k * LU_BS + k] += LU_NB * LU_BS; /* diagonally dominant */
            m[i * LU_NB + j] = (block_t *)b;
        }
}

static void lu0(double *d)
{
    for (int k = 0; k < LU_BS; k++)
        for (int i = k + 1; i < LU_BS; i++) {
            d[i * LU_BS + k] /= d[k * LU_BS + k];
            for (int j = k + 1; j < LU_BS; j++)
                d[i * LU_BS + j] -= d[i * LU_BS + k] * d[k * LU_BS + j];
        }
}

static void fwd(const double *d, double *c) /* c = L(d)^-1 c */
{
    for (int k = 0; k < LU_BS; k++)
        for (int i = k + 1; i < LU_BS; i++)
            for (int j = 0; j < LU_BS; j++)
                c[i * LU_BS + j] -= d[i * LU_BS + k] * c[k * LU_BS + j];
}

static void bdiv(const double *d, double *r) /* r = r U(d)^-1 */
{
    for (int i = 0; i < LU_BS; i++)
        for (int k = 0; k < LU_BS; k++) {
            r[i * LU_BS + k] /= d[k * LU_BS + k];
            for (int j = k + 1; j < LU_BS; j++)
                r[i * LU_BS + j] -= r[i * LU_BS + k] * d[k * LU_BS + j];
        }
}

static void bmod(const double *r, const double *c, double *t) /* t -= r c */
{
    for (int i = 0; i < LU_BS; i++)
        for (int k = 0; k < LU_BS; k++)
            for (int j = 0; j < LU_BS; j++)
                t[i * LU_BS + j] -= r[i * LU_BS + k] * c[k * LU_BS + j];
}

static void lu_factor(block_t **m, int tasks)
{
    for (int k = 0; k < LU_NB; k++) {
        double *d = *m[k * LU_NB + k];
#pragma omp task depend(inout : d[0]) if (tasks)
        lu0(d);
        for (int j = k + 1; j < LU_NB; j++)
            if (m[k * LU_NB + j]) {
                double *c = *m[k * LU_NB + j];
#pragma omp task depend(in : d[0]) depend(inout : c[0]) if (tasks)
                fwd(d, c);
            }
        for (int i = k + 1; i < LU_NB; i++)
            if (m[i * LU_NB + k]) {
                double *r = *m[i * LU_NB + k];
#pragma omp task depend(in : d[0]) depend(inout : r[0]) if (tasks)
                bdiv(d, r);
            }
        for (int i = k + 1; i < LU_NB; i++) {
            if (!m[i * LU_NB + k])
                continue;
            for (int j = k + 1; j < LU_NB; j++) {
                if (!m[k * LU_NB + j])
                    continue;
                if (!m[i * LU_NB + j]) { /* fill-in: allocated by the creating thread */
                    m[i * LU_NB + j] = calloc(1, sizeof(block_t));
                }
                double *r = *m[i * LU_NB + k], *c = *m[k * LU_NB + j], *t = *m[i * LU_NB + j];
#pragma omp task depend(in : r[0], c[0]) depend(inout : t[0]) if (tasks)
                bmod(r, c, t);
            }
        }
    }
#pragma omp taskwait
}

static void run_sparselu(void)
{
    block_t *a[LU_NB * LU_NB], *b[LU_NB * LU_NB];
    lu_fill(a);
    lu_fill(b);
#pragma omp parallel
#pragma omp single
    lu_factor(a, 1);
    lu_factor(b, 0); /* the same order, run at once: the reference */
    for (int i = 0; i < LU_NB * LU_NB; i++) {
        if (!a[i] != !b[i]) {
            failed = 1;
            continue;
        }
        if (a[i] && memcmp(a[i], b[i], sizeof(block_t)) != 0)
            failed = 1;
        free(a[i]);
        free(b[i]);
    }
}

/* ------------------------------------------------------------------ uts */
static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

/* Children of node `id` at `depth`: 0 to 3, one on average (a critical
 * branching process: most subtrees tiny, a few deep); none past depth 40. */
static int uts_children(uint64_t id, int depth)
{
    if (depth >= 40)
        return 0;
    uint64_t h = mix(id);
    int c = (int)(h % 8);
    return c < 6 ? (int)(h >> 8) % 2 : c - 4; /* mean 1: critical, very unbalanced */
}

static long uts_seq(uint64_t id, int depth)
{
    long n = 1;
    int k = uts_children(id, depth);
    for (int i = 0; i < k; i++)
        n += uts_seq(mix(id * 8 + (uint64_t)i + 1), depth + 1);
    return n;
}

static long uts_nodes;

static void uts_task(uint64_t id, int depth)
{
    __atomic_fetch_add(&uts_nodes, 1, __ATOMIC_RELAXED);
    int k = uts_children(id, depth);
    for (int i = 0; i < k; i++) {
        uint64_t child = mix(id * 8 + (uint64_t)i + 1);
#pragma omp task firstprivate(child, depth)
        uts_task(child, depth + 1);
    }
}

static void run_uts(void)
{
    /* A root with many children, each an unbalanced subtree. */
    long want = 1, got;
    uts_nodes = 1;
    for (uint64_t r = 0; r < 20000; r++)
        want += uts_seq(mix(r + 77), 1);
#pragma omp parallel
#pragma omp single
    for (uint64_t r = 0; r < 20000; r++) {
        uint64_t id = mix(r + 77);
#pragma omp task firstprivate(id)
        uts_task(id, 1);
    }
    got = uts_nodes;
    if (got != want)
        failed = 1;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*fn)(void);
    } k[] = {{"fib", NULL}, {"fib_cut", NULL}, {"nqueens", run_nqueens}, {"sort", run_sort},
             {"sparselu", run_sparselu}, {"uts", run_uts}};
    if (argc < 2) {
        fprintf(stderr, "usage: kernels fib|fib_cut|nqueens|sort|sparselu|uts [REPS]\n");
        return 2;
    }
    int reps = argc > 2 ? atoi(argv[2]) : 1;
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        if (strcmp(argv[1], k[i].name) != 0)
            continue;
        for (int r = 0; r < reps; r++) {
            double t0 = omp_get_wtime();
            if (i < 2)
                run_fib((int)i);
            else
                k[i].fn();
            printf("T %s %.3f\n", k[i].name, (omp_get_wtime() - t0) * 1e3);
        }
        if (failed)
            fprintf(stderr, "kernels: %s: wrong result\n", argv[1]);
        return failed;
    }
    fprintf(stderr, "kernels: no kernel '%s'\n", argv[1]);
    return 2;
}
