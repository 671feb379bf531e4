/* libomp's __kmpc_atomic_* routines, called as code written for libomp
 * calls them: concurrent updates of every size class (compare-and-swap for
 * 1..8 bytes, the global lock for long double and wide complex), capture
 * (old and new value), reversed operands, min/max, mixed right-hand sides,
 * read/write/swap, OpenMP 5.1 compare-and-swap, the generic N-byte form. */
#define _GNU_SOURCE
#include <complex.h>
#include <omp.h>
#include <stdbool.h>
#include <stdio.h>

#include "pvomp_check.h"
#include "omp_test.h"

typedef void ident_t;
void __kmpc_atomic_fixed4_add(ident_t *, int, int *, int);
void __kmpc_atomic_fixed1_add(ident_t *, int, char *, char);
void __kmpc_atomic_fixed8_max(ident_t *, int, long long *, long long);
long long __kmpc_atomic_fixed8_min_cpt(ident_t *, int, long long *, long long, int);
void __kmpc_atomic_float8_add(ident_t *, int, double *, double);
void __kmpc_atomic_float10_add(ident_t *, int, long double *, long double);
long double __kmpc_atomic_float10_max_cpt(ident_t *, int, long double *, long double, int);
void __kmpc_atomic_cmplx4_add_cpt(ident_t *, int, float _Complex *, float _Complex,
                                  float _Complex *, int);
void __kmpc_atomic_cmplx8_add(ident_t *, int, double _Complex *, double _Complex);
double _Complex __kmpc_atomic_cmplx8_swp(ident_t *, int, double _Complex *, double _Complex);
int __kmpc_atomic_fixed4_sub_cpt_rev(ident_t *, int, int *, int, int);
unsigned __kmpc_atomic_fixed4u_shr_cpt_rev(ident_t *, int, unsigned *, unsigned, int);
void __kmpc_atomic_fixed4_mul_float8(ident_t *, int, int *, double);
void __kmpc_atomic_float4_add_float8(ident_t *, int, float *, double);
short __kmpc_atomic_fixed2_rd(ident_t *, int, short *);
void __kmpc_atomic_float4_wr(ident_t *, int, float *, float);
long long __kmpc_atomic_fixed8_swp(ident_t *, int, long long *, long long);
bool __kmpc_atomic_bool_4_cas(ident_t *, int, int *, int, int);
bool __kmpc_atomic_bool_8_cas_cpt(ident_t *, int, long long *, long long, long long, long long *);
short __kmpc_atomic_val_2_cas(ident_t *, int, short *, short, short);
char __kmpc_atomic_val_1_cas_cpt(ident_t *, int, char *, char, char, char *);
void __kmpc_atomic_4(ident_t *, int, void *, void *, void (*)(void *, void *, void *));
void __kmpc_atomic_start(void);
void __kmpc_atomic_end(void);

static void add_float(void *out, void *lhs, void *rhs)
{
    *(float *)out = *(float *)lhs + *(float *)rhs;
}

#define N 20000

int main(void)
{
    int i4 = 0, cas_wins = 0;
    char c1 = 0;
    long long mx = 0, mn = 1LL << 40;
    double d = 0;
    long double ld = 0;
    float _Complex z4 = 0;
    double _Complex z8 = 0;
    float f = 0;
    int cas_word = 0;
    long outside = 0;
#pragma omp parallel num_threads(4)
    {
        int me = omp_get_thread_num();
        for (int i = 0; i < N; i++) {
            __kmpc_atomic_fixed4_add(NULL, 0, &i4, 1);
            __kmpc_atomic_fixed1_add(NULL, 0, &c1, 1);
            __kmpc_atomic_fixed8_max(NULL, 0, &mx, (long long)me * N + i);
            __kmpc_atomic_fixed8_min_cpt(NULL, 0, &mn, (long long)me * N + i, 0);
            __kmpc_atomic_float8_add(NULL, 0, &d, 0.5);
            __kmpc_atomic_float10_add(NULL, 0, &ld, 0.25L);
            float _Complex before;
            __kmpc_atomic_cmplx4_add_cpt(NULL, 0, &z4, 1.0f + 2.0f * I, &before, 0);
            __kmpc_atomic_cmplx8_add(NULL, 0, &z8, 1.0 - 1.0 * I);
            float one = 1.0f;
            __kmpc_atomic_4(NULL, 0, &f, &one, add_float);
            /* each thread's turn at the word: exactly one CAS wins per value */
            if (__kmpc_atomic_bool_4_cas(NULL, 0, &cas_word, i * 4 + me, i * 4 + me + 1))
                TEST_INC(&cas_wins);
            __kmpc_atomic_start();
            outside++; /* a plain update under libomp's global atomic lock */
            __kmpc_atomic_end();
        }
    }
    CHECK(i4 == 4 * N);
    CHECK(c1 == (char)(4 * N));
    CHECK(mx == 4LL * N - 1 && mn == 0);
    CHECK(d == 4 * N * 0.5);
    CHECK(ld == 4 * N * 0.25L);
    CHECK(crealf(z4) == 4 * N && cimagf(z4) == 8 * N);
    CHECK(creal(z8) == 4 * N && cimag(z8) == -4 * N);
    CHECK(f == 4 * N);
    CHECK(outside == 4 * N);
    CHECK(cas_wins <= 4 * N && cas_word == cas_wins);

    /* capture: the old value (flag 0) or the new one (flag 1) */
    long double x = 1.0L;
    CHECK(__kmpc_atomic_float10_max_cpt(NULL, 0, &x, 3.0L, 0) == 1.0L && x == 3.0L);
    CHECK(__kmpc_atomic_float10_max_cpt(NULL, 0, &x, 2.0L, 1) == 3.0L && x == 3.0L);
    int r = 10;
    CHECK(__kmpc_atomic_fixed4_sub_cpt_rev(NULL, 0, &r, 4, 1) == -6 && r == -6); /* r = 4 - r */
    unsigned u = 2;
    CHECK(__kmpc_atomic_fixed4u_shr_cpt_rev(NULL, 0, &u, 64u, 0) == 2 && u == 16); /* u = 64 >> u */
    int m = 7;
    __kmpc_atomic_fixed4_mul_float8(NULL, 0, &m, 1.5);
    CHECK(m == 10);
    float g = 1.0f;
    __kmpc_atomic_float4_add_float8(NULL, 0, &g, 0.5);
    CHECK(g == 1.5f);
    float _Complex before;
    __kmpc_atomic_cmplx4_add_cpt(NULL, 0, &z4, 1.0f, &before, 1);
    CHECK(crealf(before) == 4 * N + 1);
    double _Complex old8 = __kmpc_atomic_cmplx8_swp(NULL, 0, &z8, 5.0);
    CHECK(creal(old8) == 4 * N && creal(z8) == 5.0);
    short s = 12;
    CHECK(__kmpc_atomic_fixed2_rd(NULL, 0, &s) == 12);
    __kmpc_atomic_float4_wr(NULL, 0, &g, 9.0f);
    CHECK(g == 9.0f);
    long long q = 3;
    CHECK(__kmpc_atomic_fixed8_swp(NULL, 0, &q, 8) == 3 && q == 8);

    /* compare-and-swap forms */
    long long w = 5, pv = 0;
    CHECK(!__kmpc_atomic_bool_8_cas_cpt(NULL, 0, &w, 4, 9, &pv) && pv == 5 && w == 5);
    pv = 0;
    CHECK(__kmpc_atomic_bool_8_cas_cpt(NULL, 0, &w, 5, 9, &pv) && pv == 0 && w == 9);
    short sw = 1;
    CHECK(__kmpc_atomic_val_2_cas(NULL, 0, &sw, 2, 3) == 1 && sw == 1);
    CHECK(__kmpc_atomic_val_2_cas(NULL, 0, &sw, 1, 3) == 1 && sw == 3);
    char cw = 'a', cv = 0;
    CHECK(__kmpc_atomic_val_1_cas_cpt(NULL, 0, &cw, 'b', 'c', &cv) == 'a' && cv == 'a');
    CHECK(__kmpc_atomic_val_1_cas_cpt(NULL, 0, &cw, 'a', 'c', &cv) == 'a' && cv == 'c' &&
          cw == 'c');
    printf("kmpc_atomic: ok\n");
    return 0;
}
