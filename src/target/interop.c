/* The interop construct (GOMP_interop) and the interop routines
 * (OpenMP 5.1, 18.12; GCC 15's GOMP_5.1.3 node).
 *
 * An interop object gives a program the foreign runtime behind a device
 * (CUDA, HIP, HSA, ...).  No device of pvomp has one: device 0 runs in this
 * process on pvomp's own threads.  So, as libgomp does for a device without
 * a foreign runtime, `init` makes every object omp_interop_none (NULL),
 * `use` has nothing to do, and `destroy` leaves omp_interop_none; the
 * property routines answer omp_irc_empty for omp_interop_none and
 * omp_irc_out_of_range for a property id outside [omp_ipr_first, -1].
 * The construct's depend clauses are honoured: it waits for the storage's
 * earlier tasks (as taskwait depend does) before it returns. */
#include <stdint.h>
#include <stdlib.h>

#include "base/compiler.h"
#include "base/message.h"
#include "target/target.h"
#include "runtime/omp_api.h"

/* OpenMP's omp_interop_property_t and omp_interop_rc_t values. */
enum { IPR_FR_ID = -1, IPR_FIRST = -9 };
enum {
    IRC_NO_VALUE = 1, IRC_SUCCESS = 0, IRC_EMPTY = -1, IRC_OUT_OF_RANGE = -2,
    IRC_TYPE_INT = -3, IRC_TYPE_PTR = -4, IRC_TYPE_STR = -5, IRC_OTHER = -6,
};

typedef void *pv_interop;   /* omp_interop_t; NULL is omp_interop_none */

PV_EXPORT void GOMP_interop(int device_num, int n_init, pv_interop **init,
                            const int *target_targetsync, const char **prefer_type, int n_use,
                            pv_interop *use, int n_destroy, pv_interop **destroy,
                            unsigned flags, void **depend)
{
    (void)device_num, (void)target_targetsync, (void)prefer_type, (void)use, (void)n_use;
    (void)flags;   /* nowait: nothing is left to run later */
    for (int i = 0; i < n_destroy; i++) {
        if (*destroy[i])
            pv_warn("interop destroy: %p is not an interop object of this runtime "
                    "(pvomp creates none); set to omp_interop_none",
                    *destroy[i]);
        *destroy[i] = NULL;
    }
    for (int i = 0; i < n_init; i++)
        *init[i] = NULL;   /* no foreign runtime: omp_interop_none */
    if (depend)
        GOMP_taskwait_depend(depend);
}

PV_EXPORT int omp_get_num_interop_properties(const pv_interop interop)
{
    (void)interop;
    return 0;   /* no implementation-defined properties */
}

static int query(const pv_interop interop, int property_id, int *ret_code)
{
    int rc = property_id < IPR_FIRST || property_id >= 0 ? IRC_OUT_OF_RANGE : IRC_EMPTY;
    (void)interop;   /* never one of ours but omp_interop_none */
    if (ret_code)
        *ret_code = rc;
    return rc;
}

PV_EXPORT intptr_t omp_get_interop_int(const pv_interop interop, int property_id,
                                       int *ret_code)
{
    query(interop, property_id, ret_code);
    return 0;
}

PV_EXPORT void *omp_get_interop_ptr(const pv_interop interop, int property_id, int *ret_code)
{
    query(interop, property_id, ret_code);
    return NULL;
}

PV_EXPORT const char *omp_get_interop_str(const pv_interop interop, int property_id,
                                          int *ret_code)
{
    query(interop, property_id, ret_code);
    return NULL;
}

/* The property names the specification gives ids -1 .. -9. */
PV_EXPORT const char *omp_get_interop_name(const pv_interop interop, int property_id)
{
    static const char *const names[] = {"fr_id",    "fr_name",  "vendor",
                                        "vendor_name", "device_num", "platform",
                                        "device",   "device_context", "targetsync"};
    (void)interop;
    if (property_id < IPR_FIRST || property_id >= 0)
        return NULL;
    return names[IPR_FR_ID - property_id];
}

/* The type of a property's value: only an object a foreign runtime made
 * has one (libgomp answers NULL for omp_interop_none too). */
PV_EXPORT const char *omp_get_interop_type_desc(const pv_interop interop, int property_id)
{
    (void)interop, (void)property_id;
    return NULL;
}

PV_EXPORT const char *omp_get_interop_rc_desc(const pv_interop interop, int ret_code)
{
    (void)interop;
    switch (ret_code) {
    case IRC_NO_VALUE:
        return "the property has no value";
    case IRC_SUCCESS:
        return "success";
    case IRC_EMPTY:
        return "the interop object is omp_interop_none";
    case IRC_OUT_OF_RANGE:
        return "the property id is out of range";
    case IRC_TYPE_INT:
        return "the property is an integer (omp_get_interop_int)";
    case IRC_TYPE_PTR:
        return "the property is a pointer (omp_get_interop_ptr)";
    case IRC_TYPE_STR:
        return "the property is a string (omp_get_interop_str)";
    default:
        return NULL;   /* omp_irc_other and unknown codes: no description */
    }
}
