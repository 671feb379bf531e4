/* Shared by mapvars.c (entry) and mapexit.c (exit, exit data, update). */
#ifndef PV_TARGET_MAPINT_H
#define PV_TARGET_MAPINT_H

#include "target/target.h"

/* GOMP_MAP_* kinds (gomp-constants.h values; the names are ours). */
enum {
    K_ALLOC = 0x00, K_TO = 0x01, K_FROM = 0x02, K_TOFROM = 0x03,
    K_POINTER = 0x04, K_TO_PSET = 0x05, K_FORCE_PRESENT = 0x06, K_DELETE = 0x07,
    K_FORCE_DEVICEPTR = 0x08, K_DEVICE_RESIDENT = 0x09, K_LINK = 0x0a, K_IF_PRESENT = 0x0b,
    K_FIRSTPRIVATE = 0x0c, K_FIRSTPRIVATE_INT = 0x0d, K_USE_DEVICE_PTR = 0x0e,
    K_ZERO_LEN_ARRAY_SECTION = 0x0f,
    K_USE_DEVICE_PTR_IF_PRESENT = 0x10,
    K_ALWAYS_TO = 0x11, K_ALWAYS_FROM = 0x12, K_ALWAYS_TOFROM = 0x13,
    K_STRUCT = 0x1c, K_ALWAYS_POINTER = 0x1d, K_POINTER_TO_ZLAS = 0x1e,
    K_DELETE_ZLAS = 0x1f,
    K_RELEASE = 0x17,
    K_ATTACH = 0x50, K_DETACH = 0x51, K_ATTACH_ZLAS = 0x52, K_FORCE_DETACH = 0xd1,
    K_FLAG_FORCE = 0x80,
    /* GCC 14's present modifier: the item must be mapped already.  gcc
     * passes always,present as these kinds, and present alone as
     * K_FORCE_PRESENT on constructs (nothing to copy: it is mapped) or as
     * K_FLAG_PRESENT | to/from on target update. */
    K_FLAG_PRESENT = 0x84,
    K_ALWAYS_PRESENT_TO = 0x95, K_ALWAYS_PRESENT_FROM = 0x96, K_ALWAYS_PRESENT_TOFROM = 0x97,
};
#define K_SPECIAL 0x0c
#define K_SPECIAL_BITS 0x7c
#define K_IMPLICIT 0x60

/* The item must be present (a runtime error if it is not mapped). */
static inline bool k_present(unsigned k)
{
    return (k & K_FLAG_PRESENT) == K_FLAG_PRESENT || k == K_FORCE_PRESENT;
}
/* force: allocate even when present (OpenACC; an error for OpenMP's maps). */
static inline bool k_force(unsigned k)
{
    return (k & (K_SPECIAL_BITS | K_FLAG_FORCE)) == K_FLAG_FORCE;
}
/* TO_PSET (a Fortran array descriptor) is copied like `to`, although its
 * value has the bits of the special kinds; so are the present forms. */
static inline bool k_copy_to(unsigned k)
{
    bool plain = !(k & K_SPECIAL) || (k & K_FLAG_PRESENT) == K_FLAG_PRESENT;
    return (plain && (k & K_TO)) || k == K_TO_PSET;
}
static inline bool k_copy_from(unsigned k)
{
    bool plain = !(k & K_SPECIAL) || (k & K_FLAG_PRESENT) == K_FLAG_PRESENT;
    return plain && (k & K_FROM);
}
static inline bool k_always_to(unsigned k)
{
    return k == K_ALWAYS_TO || k == K_ALWAYS_TOFROM || k == K_ALWAYS_PRESENT_TO ||
           k == K_ALWAYS_PRESENT_TOFROM;
}
static inline bool k_always_from(unsigned k)
{
    return k == K_ALWAYS_FROM || k == K_ALWAYS_TOFROM || k == K_ALWAYS_PRESENT_FROM ||
           k == K_ALWAYS_PRESENT_TOFROM;
}

/* One list item's kind, alignment and implicit flag. */
struct pv_kind {
    unsigned k;
    size_t align;
    bool implicit;
};
static inline struct pv_kind pv_kind_at(const struct pv_maplist *l, size_t i)
{
    unsigned v = l->kinds[i];
    struct pv_kind r = {.k = v & 0xff, .align = (size_t)1 << ((v >> 8) & 63)};
    if ((r.k & K_SPECIAL_BITS) == K_IMPLICIT) {
        r.implicit = true;
        r.k &= ~(unsigned)K_IMPLICIT;
    }
    return r;
}

/* Reference counts are adjusted at most once per construct (OpenMP 5.0):
 * the heads a construct already touched. */
struct pv_touched {
    struct pv_mapping **v;
    size_t n;
};
bool pv_touch(struct pv_touched *t, struct pv_mapping *head);

/* Entry with a zero-length key: containing a, ending at a (with
 * `allow_end`), or empty at a. */
struct pv_mapping *pv_map_find_0len(struct pv_map_table *t, uintptr_t a, bool allow_end);

/* Copy [host, host + len) of mapping m, leaving attached pointer slots
 * alone. */
void pv_copy_range(struct pv_device *d, struct pv_mapping *m, uintptr_t host, size_t len,
                   bool to_device);
void pv_attach(struct pv_device *d, struct pv_mapping *m, uintptr_t slot, size_t bias,
               bool zlas);
void pv_detach(struct pv_device *d, struct pv_mapping *m, uintptr_t slot, bool force);

/* Drop one reference of m's group (or all, `delete`), once per construct.
 * *copy: the group is (now) unreferenced, copy-from items should copy;
 * return true when this call made it unreferenced (remove the group). */
bool pv_release(struct pv_mapping *m, struct pv_touched *t, bool delete_, bool *copy);
/* Remove a group from the table and free its device memory. */
void pv_remove_group(struct pv_device *d, struct pv_mapping *head);

/* target_map event for a list (entry or exit); flags from the kinds. */
void pv_map_event(struct pv_device *d, const struct pv_maplist *l, bool exit);

#endif
