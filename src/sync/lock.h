/* The omp_*_lock routines in gcc's layouts (lock.c), as the family's other
 * bindings of them call them: libomp's nestable lock (kmpc_locks.c) and
 * gfortran's omp_lib (fortran_locks.c).  Private to src/sync: no other
 * module finds it (tests/layers).  Declared without PV_EXPORT, as their
 * callers always had them: lock.c's definitions carry it, for the symbol
 * versions that export them as omp_*_lock. */
#ifndef PV_SYNC_LOCK_H
#define PV_SYNC_LOCK_H

#include <stdint.h>

/* omp_lock_t: one futex word (lock.c). */
typedef _Atomic uint32_t pv_lock_word;
struct pv_nest_lock;    /* omp_nest_lock_t (16 bytes) */
struct pv_nest_lock_25; /* OpenMP 2.5's omp_nest_lock_t (8 bytes) */

/* The default versions, NAME@@OMP_3.0. */
void pv_init_lock_30(pv_lock_word *w);
void pv_destroy_lock_30(pv_lock_word *w);
void pv_set_lock_30(pv_lock_word *w);
void pv_unset_lock_30(pv_lock_word *w);
int pv_test_lock_30(pv_lock_word *w);
void pv_init_nest_lock_30(struct pv_nest_lock *l);
void pv_destroy_nest_lock_30(struct pv_nest_lock *l);
void pv_set_nest_lock_30(struct pv_nest_lock *l);
void pv_unset_nest_lock_30(struct pv_nest_lock *l);
int pv_test_nest_lock_30(struct pv_nest_lock *l);

/* The simple lock routines by their exported names, which the dynamic
 * linker resolves to the default versions above (or to a tool's that
 * interposes them): libomp's __kmpc_*_lock entries call them so
 * (kmpc_locks.c). */
void omp_init_lock(void *l);
void omp_destroy_lock(void *l);
void omp_set_lock(void *l);
void omp_unset_lock(void *l);
int omp_test_lock(void *l);

/* The compat versions, NAME@OMP_1.0. */
void pv_init_lock_25(pv_lock_word *w);
void pv_destroy_lock_25(pv_lock_word *w);
void pv_set_lock_25(pv_lock_word *w);
void pv_unset_lock_25(pv_lock_word *w);
int pv_test_lock_25(pv_lock_word *w);
void pv_init_nest_lock_25(struct pv_nest_lock_25 *l);
void pv_destroy_nest_lock_25(struct pv_nest_lock_25 *l);
void pv_set_nest_lock_25(struct pv_nest_lock_25 *l);
void pv_unset_nest_lock_25(struct pv_nest_lock_25 *l);
int pv_test_nest_lock_25(struct pv_nest_lock_25 *l);

#endif
