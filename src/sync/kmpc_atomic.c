/* __kmpc_atomic_*: libomp's atomic update routines.  clang 14 itself never
 * calls them (it inlines native atomics and calls libatomic's
 * __atomic_compare_exchange for long double and complex), but code written
 * against libomp does, as do other compilers' objects.  One routine per type
 * and operation, named __kmpc_atomic_<type>_<op>[_rev][_cpt]:
 *   type: fixedN (N-byte signed), fixedNu, float4/8/10 (float, double,
 *         long double), cmplx4/8/10 (their _Complex);
 *   op:   add sub mul div andb orb xor shl shr andl orl eqv neqv min max,
 *         and rd wr swp;  _rev: x = rhs op x;  _cpt: returns the new value
 *         (flag != 0) or the old one; <op>_float8 / <op>_cmplx8: the
 *         right-hand side is double / double _Complex.
 * cmplx4's capture and swap return their value through an extra `out`
 * pointer, as libomp's do.  Types of 1, 2, 4 or 8 bytes are updated with a
 * compare-and-swap loop on the whole word; long double and the wider
 * complex types under one global lock (GOMP_atomic_start, the lock gcc's
 * code uses for the same purpose; __kmpc_atomic_start/end take it too).
 * Only the names of libomp's node VERSION (kmpc.abi) are exported; the
 * version script keeps the few extra combinations these macros make local. */
#include <stdbool.h>
#include <string.h>

#include "abi/kmpc.h"

/* Read-modify-write of *lhs: old <- *lhs, new <- expr (of old and r). */
#define UPDATE_CAS(T, W, lhs, old, new, expr)                                              \
    do {                                                                                   \
        W ow_ = __atomic_load_n((W *)(lhs), __ATOMIC_RELAXED), nw_;                        \
        do {                                                                               \
            memcpy(&old, &ow_, sizeof(T));                                                 \
            new = (T)(expr);                                                               \
            nw_ = 0;                                                                       \
            memcpy(&nw_, &new, sizeof(T));                                                 \
        } while (!__atomic_compare_exchange_n((W *)(lhs), &ow_, nw_, true, __ATOMIC_ACQ_REL, \
                                              __ATOMIC_RELAXED));                          \
    } while (0)

#define UPDATE_LOCK(T, W, lhs, old, new, expr)                                             \
    do {                                                                                   \
        GOMP_atomic_start();                                                               \
        old = *(lhs);                                                                      \
        new = (T)(expr);                                                                   \
        *(lhs) = new;                                                                      \
        GOMP_atomic_end();                                                                 \
    } while (0)

/* The plain update of an operation (no capture), shared by OP2 and OP_OUT2. */
#define OP_PLAIN(M, tn, T, W, op, R, expr)                                                 \
    PV_EXPORT void __kmpc_atomic_##tn##_##op(ident_t *loc, int gtid, T *lhs, R r)     \
    {                                                                                      \
        (void)loc, (void)gtid;                                                             \
        T x, n_;                                                                           \
        UPDATE_##M(T, W, lhs, x, n_, expr);                                                \
    }

/* One operation of a type: plain (name) and capture (cname); M is CAS or
 * LOCK.  OP names them <op> and <op>_cpt, OPR <op>_rev and <op>_cpt_rev. */
#define OP(M, tn, T, W, op, R, expr) OP2(M, tn, T, W, op, op##_cpt, R, expr)
#define OPR(M, tn, T, W, op, R, expr) OP2(M, tn, T, W, op##_rev, op##_cpt_rev, R, expr)
#define OP2(M, tn, T, W, op, cname, R, expr)                                               \
    OP_PLAIN(M, tn, T, W, op, R, expr)                                                     \
    PV_EXPORT T __kmpc_atomic_##tn##_##cname(ident_t *loc, int gtid, T *lhs, R r,     \
                                             int flag)                                     \
    {                                                                                      \
        (void)loc, (void)gtid;                                                             \
        T x, n_;                                                                           \
        UPDATE_##M(T, W, lhs, x, n_, expr);                                                \
        return flag ? n_ : x;                                                              \
    }

/* cmplx4: the captured value goes out through a pointer. */
#define OP_OUT(M, tn, T, W, op, R, expr) OP_OUT2(M, tn, T, W, op, op##_cpt, R, expr)
#define OP_OUTR(M, tn, T, W, op, R, expr) OP_OUT2(M, tn, T, W, op##_rev, op##_cpt_rev, R, expr)
#define OP_OUT2(M, tn, T, W, op, cname, R, expr)                                           \
    OP_PLAIN(M, tn, T, W, op, R, expr)                                                     \
    PV_EXPORT void __kmpc_atomic_##tn##_##cname(ident_t *loc, int gtid, T *lhs, R r,  \
                                                T *out, int flag)                          \
    {                                                                                      \
        (void)loc, (void)gtid;                                                             \
        T x, n_;                                                                           \
        UPDATE_##M(T, W, lhs, x, n_, expr);                                                \
        *out = flag ? n_ : x;                                                              \
    }

/* rd, wr, swp. */
#define RWS(M, tn, T, W)                                                                   \
    PV_EXPORT T __kmpc_atomic_##tn##_rd(ident_t *loc, int gtid, T *p)                 \
    {                                                                                      \
        (void)loc, (void)gtid;                                                             \
        T x, n_;                                                                           \
        UPDATE_##M(T, W, p, x, n_, x);                                                     \
        return n_;                                                                         \
    }                                                                                      \
    PV_EXPORT void __kmpc_atomic_##tn##_wr(ident_t *loc, int gtid, T *lhs, T r)       \
    {                                                                                      \
        (void)loc, (void)gtid;                                                             \
        T x, n_;                                                                           \
        UPDATE_##M(T, W, lhs, x, n_, r);                                                   \
        (void)x;                                                                           \
    }
#define SWP(M, tn, T, W)                                                                   \
    PV_EXPORT T __kmpc_atomic_##tn##_swp(ident_t *loc, int gtid, T *lhs, T r)         \
    {                                                                                      \
        (void)loc, (void)gtid;                                                             \
        T x, n_;                                                                           \
        UPDATE_##M(T, W, lhs, x, n_, r);                                                   \
        return x;                                                                          \
    }
#define SWP_OUT(M, tn, T, W)                                                               \
    PV_EXPORT void __kmpc_atomic_##tn##_swp(ident_t *loc, int gtid, T *lhs, T r,      \
                                            T *out)                                        \
    {                                                                                      \
        (void)loc, (void)gtid;                                                             \
        T x, n_;                                                                           \
        UPDATE_##M(T, W, lhs, x, n_, r);                                                   \
        *out = x;                                                                          \
    }

/* The arithmetic every type has, and its reversed forms. */
#define ARITH(O, M, tn, T, W)                                                              \
    O(M, tn, T, W, add, T, x + r)                                                          \
    O(M, tn, T, W, sub, T, x - r)                                                          \
    O(M, tn, T, W, mul, T, x * r)                                                          \
    O(M, tn, T, W, div, T, x / r)                                                          \
    O##R(M, tn, T, W, sub, T, r - x)                                                       \
    O##R(M, tn, T, W, div, T, r / x)

#define ORDERED(M, tn, T, W)                                                               \
    OP(M, tn, T, W, max, T, x < r ? r : x)                                                 \
    OP(M, tn, T, W, min, T, x > r ? r : x)

#define INTEGER(tn, T, W)                                                                  \
    ARITH(OP, CAS, tn, T, W)                                                               \
    ORDERED(CAS, tn, T, W)                                                                 \
    OP(CAS, tn, T, W, andb, T, x & r)                                                      \
    OP(CAS, tn, T, W, orb, T, x | r)                                                       \
    OP(CAS, tn, T, W, xor, T, x ^ r)                                                       \
    OP(CAS, tn, T, W, shl, T, x << r)                                                      \
    OP(CAS, tn, T, W, shr, T, x >> r)                                                      \
    OPR(CAS, tn, T, W, shl, T, r << x)                                                     \
    OPR(CAS, tn, T, W, shr, T, r >> x)                                                     \
    OP(CAS, tn, T, W, andl, T, x && r)                                                     \
    OP(CAS, tn, T, W, orl, T, x || r)                                                      \
    OP(CAS, tn, T, W, eqv, T, ~(x ^ r))                                                    \
    OP(CAS, tn, T, W, neqv, T, x ^ r)                                                      \
    OP(CAS, tn, T, W, mul_float8, double, x * r)                                           \
    OP(CAS, tn, T, W, div_float8, double, x / r)                                           \
    RWS(CAS, tn, T, W)                                                                     \
    SWP(CAS, tn, T, W)

/* Unsigned twins: the operations whose result depends on the sign. */
#define UNSIGNED(tn, T, W)                                                                 \
    OP(CAS, tn, T, W, div, T, x / r)                                                       \
    OPR(CAS, tn, T, W, div, T, r / x)                                                      \
    OP(CAS, tn, T, W, shr, T, x >> r)                                                      \
    OPR(CAS, tn, T, W, shr, T, r >> x)

#define FLOAT(M, tn, T, W)                                                                 \
    ARITH(OP, M, tn, T, W)                                                                 \
    ORDERED(M, tn, T, W)                                                                   \
    RWS(M, tn, T, W)                                                                       \
    SWP(M, tn, T, W)

typedef unsigned char locked_word; /* unused container of the LOCK forms */

INTEGER(fixed1, char, kmp_uint8)
INTEGER(fixed2, short, uint16_t)
INTEGER(fixed4, kmp_int32, kmp_uint32)
INTEGER(fixed8, kmp_int64, kmp_uint64)
UNSIGNED(fixed1u, unsigned char, kmp_uint8)
UNSIGNED(fixed2u, unsigned short, uint16_t)
UNSIGNED(fixed4u, kmp_uint32, kmp_uint32)
UNSIGNED(fixed8u, kmp_uint64, kmp_uint64)

FLOAT(CAS, float4, float, kmp_uint32)
FLOAT(CAS, float8, double, kmp_uint64)
FLOAT(LOCK, float10, long double, locked_word)
OP(CAS, float4, float, kmp_uint32, add_float8, double, x + r)
OP(CAS, float4, float, kmp_uint32, sub_float8, double, x - r)
OP(CAS, float4, float, kmp_uint32, mul_float8, double, x * r)
OP(CAS, float4, float, kmp_uint32, div_float8, double, x / r)

typedef float _Complex kmp_cmplx32;
typedef double _Complex kmp_cmplx64;
typedef long double _Complex kmp_cmplx80;

ARITH(OP_OUT, CAS, cmplx4, kmp_cmplx32, kmp_uint64)
OP_OUT(CAS, cmplx4, kmp_cmplx32, kmp_uint64, add_cmplx8, kmp_cmplx64, x + r)
OP_OUT(CAS, cmplx4, kmp_cmplx32, kmp_uint64, sub_cmplx8, kmp_cmplx64, x - r)
OP_OUT(CAS, cmplx4, kmp_cmplx32, kmp_uint64, mul_cmplx8, kmp_cmplx64, x * r)
OP_OUT(CAS, cmplx4, kmp_cmplx32, kmp_uint64, div_cmplx8, kmp_cmplx64, x / r)
RWS(CAS, cmplx4, kmp_cmplx32, kmp_uint64)
SWP_OUT(CAS, cmplx4, kmp_cmplx32, kmp_uint64)
ARITH(OP, LOCK, cmplx8, kmp_cmplx64, locked_word)
RWS(LOCK, cmplx8, kmp_cmplx64, locked_word)
SWP(LOCK, cmplx8, kmp_cmplx64, locked_word)
ARITH(OP, LOCK, cmplx10, kmp_cmplx80, locked_word)
RWS(LOCK, cmplx10, kmp_cmplx80, locked_word)
SWP(LOCK, cmplx10, kmp_cmplx80, locked_word)

/* OpenMP 5.1 atomic compare: bool_N_cas returns whether x was e (and is now
 * d); bool_N_cas_cpt also stores the old value to *pv when it was not;
 * val_N_cas returns the old value; val_N_cas_cpt stores to *pv the value x
 * has afterwards. */
#define CAS_FAMILY(n, T)                                                                   \
    PV_EXPORT bool __kmpc_atomic_bool_##n##_cas(ident_t *loc, int gtid, T *x, T e, T d) \
    {                                                                                      \
        (void)loc, (void)gtid;                                                             \
        return __atomic_compare_exchange_n(x, &e, d, false, __ATOMIC_ACQ_REL,              \
                                           __ATOMIC_ACQUIRE);                              \
    }                                                                                      \
    PV_EXPORT bool __kmpc_atomic_bool_##n##_cas_cpt(ident_t *loc, int gtid, T *x, T e, \
                                                    T d, T *pv)                            \
    {                                                                                      \
        (void)loc, (void)gtid;                                                             \
        bool ok = __atomic_compare_exchange_n(x, &e, d, false, __ATOMIC_ACQ_REL,           \
                                              __ATOMIC_ACQUIRE);                           \
        if (!ok)                                                                           \
            *pv = e;                                                                       \
        return ok;                                                                         \
    }                                                                                      \
    PV_EXPORT T __kmpc_atomic_val_##n##_cas(ident_t *loc, int gtid, T *x, T e, T d)   \
    {                                                                                      \
        (void)loc, (void)gtid;                                                             \
        __atomic_compare_exchange_n(x, &e, d, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);  \
        return e; /* the old value either way */                                           \
    }                                                                                      \
    PV_EXPORT T __kmpc_atomic_val_##n##_cas_cpt(ident_t *loc, int gtid, T *x, T e,    \
                                                T d, T *pv)                                \
    {                                                                                      \
        (void)loc, (void)gtid;                                                             \
        bool ok = __atomic_compare_exchange_n(x, &e, d, false, __ATOMIC_ACQ_REL,           \
                                              __ATOMIC_ACQUIRE);                           \
        *pv = ok ? d : e;                                                                  \
        return e;                                                                          \
    }

CAS_FAMILY(1, char)
CAS_FAMILY(2, short)
CAS_FAMILY(4, kmp_int32)
CAS_FAMILY(8, kmp_int64)

/* Any update of N bytes: f(out, lhs, rhs) computes *out = *lhs op *rhs. */
typedef void (*kmpc_update_fn)(void *out, void *lhs, void *rhs);

#define GENERIC_CAS(n, W)                                                                  \
    PV_EXPORT void __kmpc_atomic_##n(ident_t *loc, int gtid, void *lhs, void *rhs,    \
                                     kmpc_update_fn f)                                     \
    {                                                                                      \
        (void)loc, (void)gtid;                                                             \
        W old = __atomic_load_n((W *)lhs, __ATOMIC_RELAXED), new;                          \
        do                                                                                 \
            f(&new, &old, rhs);                                                            \
        while (!__atomic_compare_exchange_n((W *)lhs, &old, new, true, __ATOMIC_ACQ_REL,   \
                                            __ATOMIC_RELAXED));                            \
    }
#define GENERIC_LOCK(n)                                                                    \
    PV_EXPORT void __kmpc_atomic_##n(ident_t *loc, int gtid, void *lhs, void *rhs,    \
                                     kmpc_update_fn f)                                     \
    {                                                                                      \
        (void)loc, (void)gtid;                                                             \
        GOMP_atomic_start();                                                               \
        f(lhs, lhs, rhs);                                                                  \
        GOMP_atomic_end();                                                                 \
    }

GENERIC_CAS(1, kmp_uint8)
GENERIC_CAS(2, uint16_t)
GENERIC_CAS(4, kmp_uint32)
GENERIC_CAS(8, kmp_uint64)
GENERIC_LOCK(10)
GENERIC_LOCK(16)
GENERIC_LOCK(20)
GENERIC_LOCK(32)

PV_EXPORT void __kmpc_atomic_start(void)
{
    GOMP_atomic_start();
}

PV_EXPORT void __kmpc_atomic_end(void)
{
    GOMP_atomic_end();
}
