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
 *   strassen   Strassen's 7-multiplication recursion on N x N matrices, a
 *              task per product down to a cut-off size, compared with a plain
 *              multiplication made before the timed runs
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

/* ------------------------------------------------------------- strassen */
#define ST_N 768   /* matrix side (3 x 2^8: halves down to 24) */
#define ST_CUT 32  /* sides up to this are multiplied plainly */

static double *st_a, *st_b, *st_want;

/* c = a b for n x n blocks with row strides lda, ldb, ldc (i-k-j order). */
static void mat_mul(const double *a, int lda, const double *b, int ldb, double *c, int ldc, int n)
{
    for (int i = 0; i < n; i++) {
        double *ci = c + (size_t)i * ldc;
        for (int j = 0; j < n; j++)
            ci[j] = 0;
        for (int k = 0; k < n; k++) {
            double aik = a[(size_t)i * lda + k];
            const double *bk = b + (size_t)k * ldb;
            for (int j = 0; j < n; j++)
                ci[j] += aik * bk[j];
        }
    }
}

/* out = x + sign * y (n x n, strides lx, ly; out is dense n x n); y NULL: out = x. */
static void mat_add(const double *x, int lx, const double *y, int ly, double sign, double *out, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            out[(size_t)i * n + j] =
                x[(size_t)i * lx + j] + (y ? sign * y[(size_t)i * ly + j] : 0.0);
}

static void strassen(const double *a, int lda, const double *b, int ldb, double *c, int ldc, int n);

/* One Strassen product m = (x1 + sx x2)(y1 + sy y2), where a NULL x2 / y2
 * means the operand is x1 / y1 alone; the x blocks have stride lx, the y
 * blocks ly; m is dense h x h. */
static void st_product(const double *x1, const double *x2, double sx, int lx, const double *y1,
                       const double *y2, double sy, int ly, double *m, int h)
{
    double *x = NULL, *y = NULL;
    if (x2) {
        x = malloc(sizeof(double) * (size_t)h * h);
        mat_add(x1, lx, x2, lx, sx, x, h);
        x1 = x;
        lx = h;
    }
    if (y2) {
        y = malloc(sizeof(double) * (size_t)h * h);
        mat_add(y1, ly, y2, ly, sy, y, h);
        y1 = y;
        ly = h;
    }
    strassen(x1, lx, y1, ly, m, h, h);
    free(x);
    free(y);
}

/* c = a b (n x n blocks with strides lda, ldb, ldc): the seven products are
 * tasks, down to ST_CUT. */
static void strassen(const double *a, int lda, const double *b, int ldb, double *c, int ldc, int n)
{
    if (n <= ST_CUT || n % 2) {
        mat_mul(a, lda, b, ldb, c, ldc, n);
        return;
    }
    int h = n / 2;
    size_t hh = (size_t)h * h;
    const double *a11 = a, *a12 = a + h, *a21 = a + (size_t)h * lda, *a22 = a21 + h;
    const double *b11 = b, *b12 = b + h, *b21 = b + (size_t)h * ldb, *b22 = b21 + h;
    double *m1 = malloc(sizeof(double) * 7 * hh);
    double *m2 = m1 + hh, *m3 = m2 + hh, *m4 = m3 + hh, *m5 = m4 + hh, *m6 = m5 + hh, *m7 = m6 + hh;
#pragma omp task
    st_product(a11, a22, 1, lda, b11, b22, 1, ldb, m1, h);
#pragma omp task
    st_product(a21, a22, 1, lda, b11, NULL, 0, ldb, m2, h);
#pragma omp task
    st_product(a11, NULL, 0, lda, b12, b22, -1, ldb, m3, h);
#pragma omp task
    st_product(a22, NULL, 0, lda, b21, b11, -1, ldb, m4, h);
#pragma omp task
    st_product(a11, a12, 1, lda, b22, NULL, 0, ldb, m5, h);
#pragma omp task
    st_product(a21, a11, -1, lda, b11, b12, 1, ldb, m6, h);
#pragma omp task
    st_product(a12, a22, -1, lda, b21, b22, 1, ldb, m7, h);
#pragma omp taskwait
    for (int i = 0; i < h; i++) {
        double *c11 = c + (size_t)i * ldc, *c12 = c11 + h, *c21 = c11 + (size_t)h * ldc,
               *c22 = c21 + h;
        for (int j = 0; j < h; j++) {
            size_t k = (size_t)i * h + j;
            c11[j] = m1[k] + m4[k] - m5[k] + m7[k];
            c12[j] = m3[k] + m5[k];
            c21[j] = m2[k] + m4[k];
            c22[j] = m1[k] - m2[k] + m3[k] + m6[k];
        }
    }
    free(m1);
}

/* Small integer entries: every sum and product Strassen forms is an integer
 * far below 2^53, so it equals the plain product exactly. */
static void prep_strassen(void)
{
    size_t nn = (size_t)ST_N * ST_N;
    st_a = malloc(sizeof(double) * nn);
    st_b = malloc(sizeof(double) * nn);
    st_want = malloc(sizeof(double) * nn);
    uint32_t s = 4242;
    for (size_t i = 0; i < nn; i++) {
        s = s * 1664525u + 1013904223u;
        st_a[i] = (double)((int)(s >> 28) - 8);
        s = s * 1664525u + 1013904223u;
        st_b[i] = (double)((int)(s >> 28) - 8);
    }
    mat_mul(st_a, ST_N, st_b, ST_N, st_want, ST_N, ST_N);
}

static void run_strassen(void)
{
    double *c = malloc(sizeof(double) * (size_t)ST_N * ST_N);
#pragma omp parallel
#pragma omp single
    strassen(st_a, ST_N, st_b, ST_N, c, ST_N, ST_N);
    for (size_t i = 0; i < (size_t)ST_N * ST_N; i++)
        if (c[i] != st_want[i])
            failed = 1;
    free(c);
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
        void (*prep)(void); /* untimed, once: inputs and the reference result */
    } k[] = {{"fib", NULL, NULL},         {"fib_cut", NULL, NULL},
             {"nqueens", run_nqueens, NULL}, {"sort", run_sort, NULL},
             {"sparselu", run_sparselu, NULL}, {"uts", run_uts, NULL},
             {"strassen", run_strassen, prep_strassen}};
    if (argc < 2) {
        fprintf(stderr, "usage: kernels fib|fib_cut|nqueens|sort|sparselu|uts|strassen [REPS]\n");
        return 2;
    }
    int reps = argc > 2 ? atoi(argv[2]) : 1;
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        if (strcmp(argv[1], k[i].name) != 0)
            continue;
        if (k[i].prep)
            k[i].prep();
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
