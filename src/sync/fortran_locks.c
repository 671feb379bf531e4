/* The Fortran bindings of the lock routines (omp_*_lock_, the rest of
 * gfortran's omp_lib is src/api/fortran.c): arguments come by reference.
 *
 * Lock kinds on LP64 Linux (gcc 12): omp_lock_kind = 4, the lock itself;
 * omp_nest_lock_kind = 8, too small for the 16-byte C lock, so the Fortran
 * variable holds a pointer to one allocated by init.  The OpenMP 2.5 layouts
 * (@OMP_1.0) fit their kinds and are used directly. */
#include <stdint.h>
#include <stdlib.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "sync/lock.h"

/* ---------------------------------------------------------------- locks */

#define F_LOCK_SYMVER(impl, name)                                    \
    __asm__(".symver " #impl "_30, " #name "@@OMP_3.0");             \
    __asm__(".symver " #impl "_25, " #name "@OMP_1.0")

PV_EXPORT void pv_f_init_lock_30(int32_t *l) { pv_init_lock_30((pv_lock_word *)l); }
PV_EXPORT void pv_f_destroy_lock_30(int32_t *l) { pv_destroy_lock_30((pv_lock_word *)l); }
PV_EXPORT void pv_f_set_lock_30(int32_t *l) { pv_set_lock_30((pv_lock_word *)l); }
PV_EXPORT void pv_f_unset_lock_30(int32_t *l) { pv_unset_lock_30((pv_lock_word *)l); }
PV_EXPORT int32_t pv_f_test_lock_30(int32_t *l) { return pv_test_lock_30((pv_lock_word *)l); }

PV_EXPORT void pv_f_init_nest_lock_30(void **l)
{
    *l = pv_aligned_alloc(16, 16);
    pv_init_nest_lock_30(*l);
}
PV_EXPORT void pv_f_destroy_nest_lock_30(void **l)
{
    pv_destroy_nest_lock_30(*l);
    free(*l);
    *l = NULL;
}
PV_EXPORT void pv_f_set_nest_lock_30(void **l) { pv_set_nest_lock_30(*l); }
PV_EXPORT void pv_f_unset_nest_lock_30(void **l) { pv_unset_nest_lock_30(*l); }
PV_EXPORT int32_t pv_f_test_nest_lock_30(void **l) { return pv_test_nest_lock_30(*l); }

PV_EXPORT void pv_f_init_lock_25(int32_t *l) { pv_init_lock_25((pv_lock_word *)l); }
PV_EXPORT void pv_f_destroy_lock_25(int32_t *l) { pv_destroy_lock_25((pv_lock_word *)l); }
PV_EXPORT void pv_f_set_lock_25(int32_t *l) { pv_set_lock_25((pv_lock_word *)l); }
PV_EXPORT void pv_f_unset_lock_25(int32_t *l) { pv_unset_lock_25((pv_lock_word *)l); }
PV_EXPORT int32_t pv_f_test_lock_25(int32_t *l) { return pv_test_lock_25((pv_lock_word *)l); }
PV_EXPORT void pv_f_init_nest_lock_25(int64_t *l) { pv_init_nest_lock_25((void *)l); }
PV_EXPORT void pv_f_destroy_nest_lock_25(int64_t *l) { pv_destroy_nest_lock_25((void *)l); }
PV_EXPORT void pv_f_set_nest_lock_25(int64_t *l) { pv_set_nest_lock_25((void *)l); }
PV_EXPORT void pv_f_unset_nest_lock_25(int64_t *l) { pv_unset_nest_lock_25((void *)l); }
PV_EXPORT int32_t pv_f_test_nest_lock_25(int64_t *l) { return pv_test_nest_lock_25((void *)l); }

F_LOCK_SYMVER(pv_f_init_lock, omp_init_lock_);
F_LOCK_SYMVER(pv_f_destroy_lock, omp_destroy_lock_);
F_LOCK_SYMVER(pv_f_set_lock, omp_set_lock_);
F_LOCK_SYMVER(pv_f_unset_lock, omp_unset_lock_);
F_LOCK_SYMVER(pv_f_test_lock, omp_test_lock_);
F_LOCK_SYMVER(pv_f_init_nest_lock, omp_init_nest_lock_);
F_LOCK_SYMVER(pv_f_destroy_nest_lock, omp_destroy_nest_lock_);
F_LOCK_SYMVER(pv_f_set_nest_lock, omp_set_nest_lock_);
F_LOCK_SYMVER(pv_f_unset_nest_lock, omp_unset_nest_lock_);
F_LOCK_SYMVER(pv_f_test_nest_lock, omp_test_nest_lock_);
