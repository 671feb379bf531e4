/* References to the entry points GCC 13-16 added to libgomp's ABI
 * (src/runtime/abi/libgomp16_added.txt), for tests built by gcc 12, whose
 * omp.h has none of them and which cannot emit versioned references: each
 * NAME@VER is declared as NAME_v and bound by .symver.  A program that uses
 * one links against pvomp's libgomp.so (the only one that defines them). */
#ifndef PVOMP_TESTS_GCC16_REFS_H
#define PVOMP_TESTS_GCC16_REFS_H

#include <omp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A reference to NAME@VER, called as NAME_v. */
#define VREF(ret, name, ver, params) \
    ret name##_v params;             \
    __asm__(".symver " #name "_v, " #name "@" ver)

VREF(int, omp_in_explicit_task, "OMP_5.2", (void));
VREF(int, omp_in_explicit_task_, "OMP_5.2", (void));
VREF(void, GOMP_taskwait_depend_nowait, "GOMP_5.1.1", (void **depend));
VREF(void, GOMP_add_alloc, "GOMP_5.1.2", (void *ptr));
VREF(bool, GOMP_is_alloc, "GOMP_5.1.2", (void *ptr));
VREF(void *, GOMP_target_map_indirect_ptr, "GOMP_5.1.2", (void *ptr));
VREF(void *, omp_get_mapped_ptr, "OMP_5.1.1", (const void *ptr, int dev));
VREF(int, omp_target_is_accessible, "OMP_5.1.1", (const void *ptr, size_t size, int dev));
VREF(int, omp_target_memcpy_async, "OMP_5.1.1",
     (void *dst, const void *src, size_t len, size_t doff, size_t soff, int ddev, int sdev,
      int ndeps, omp_depend_t *deps));
VREF(int, omp_target_memcpy_rect_async, "OMP_5.1.1",
     (void *dst, const void *src, size_t elem, int dims, const size_t *volume,
      const size_t *doffs, const size_t *soffs, const size_t *ddims, const size_t *sdims,
      int ddev, int sdev, int ndeps, omp_depend_t *deps));
VREF(void *, omp_target_memset, "GOMP_6.0.1", (void *ptr, int val, size_t n, int dev));
VREF(void *, omp_target_memset_async, "GOMP_6.0.1",
     (void *ptr, int val, size_t n, int dev, int ndeps, omp_depend_t *deps));
VREF(const char *, omp_get_uid_from_device, "GOMP_6.0", (int dev));
VREF(int, omp_get_device_from_uid, "GOMP_6.0", (const char *uid));
VREF(void, omp_get_uid_from_device_, "GOMP_6.0", (const char **res, size_t *len, int32_t dev));
VREF(void, omp_get_uid_from_device_8_, "GOMP_6.0",
     (const char **res, size_t *len, int64_t dev));
VREF(int32_t, omp_get_device_from_uid_, "GOMP_6.0", (const char *uid, size_t len));
VREF(void, GOMP_interop, "GOMP_5.1.3",
     (int dev, int n_init, void ***init, const int *targetsync, const char **prefer, int n_use,
      void **use, int n_destroy, void ***destroy, unsigned flags, void **depend));
VREF(int, omp_get_num_interop_properties, "GOMP_5.1.3", (const void *interop));
VREF(intptr_t, omp_get_interop_int, "GOMP_5.1.3", (const void *interop, int prop, int *rc));
VREF(void *, omp_get_interop_ptr, "GOMP_5.1.3", (const void *interop, int prop, int *rc));
VREF(const char *, omp_get_interop_str, "GOMP_5.1.3", (const void *interop, int prop, int *rc));
VREF(const char *, omp_get_interop_name, "GOMP_5.1.3", (const void *interop, int prop));
VREF(const char *, omp_get_interop_type_desc, "GOMP_5.1.3", (const void *interop, int prop));
VREF(const char *, omp_get_interop_rc_desc, "GOMP_5.1.3", (const void *interop, int rc));
VREF(void, omp_get_interop_name_, "GOMP_5.1.3",
     (const char **res, size_t *len, const void *interop, int32_t prop));
VREF(void, omp_get_interop_str_, "GOMP_5.1.3",
     (const char **res, size_t *len, const void *interop, int32_t prop, int32_t *rc));
VREF(void, omp_get_interop_type_desc_, "GOMP_5.1.3",
     (const char **res, size_t *len, const void *interop, int32_t prop));
VREF(void, omp_get_interop_rc_desc_, "GOMP_5.1.3",
     (const char **res, size_t *len, const void *interop, int32_t rc));

#endif
