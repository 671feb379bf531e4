/* The asynchronous device memory routines (OpenMP 5.1, 18.8.7-18.8.8;
 * GCC 13's OMP_5.1.1) and omp_target_memset(_async) (OpenMP 6.0; GCC 16's
 * GOMP_6.0.1).
 *
 * An _async routine checks its arguments at once (EINVAL for an invalid
 * device or pointer, as the synchronous routine), then makes the copy or
 * the fill a deferrable task whose dependences are the depend objects
 * (omp_depend_t) given: the task runs when they are satisfied, and a later
 * task or taskwait that depends on the same storage waits for it.  The
 * copies keep everything they read after the call returns (the rect
 * routine's arrays included), so the caller may reuse them at once.
 *
 * Every device's memory is addressable from the host here, so a fill is a
 * memset wherever the block lives (OMPT: 6.0's memset kinds for a 6.0 tool,
 * nothing for a 5.1 tool, which has no kind for it; the flight log records
 * it as a transfer to the device).  The tasks' copies and fills are
 * reported to a 6.0 tool with the _async kinds. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/message.h"
#include "ompt/ompt.h"
#include "runtime/task_internal.h"
#include "target/target.h"

/* gcc's omp_depend_t: a depend object, two words (address, kind). */
typedef struct {
    void *addr;
    uintptr_t kind;
} pv_depobj;

/* Run fn(arg) as a task (arg copied, arg_size bytes) that depends on the
 * count depend objects, in GOMP_task's array layout: [0, n, 0, 0, 0, obj...].
 * The exported routines wrap it in SPAWN_SITE: the task's site (flight log,
 * a tool's codeptr_ra) is the program's call of the routine. */
static void spawn(void (*fn)(void *), void *arg, long arg_size, int count, pv_depobj *objs)
{
    if (count <= 0 || !objs) {
        GOMP_task(fn, arg, NULL, arg_size, 8, true, 0, NULL, 0, NULL);
        return;
    }
    void **depend = pv_malloc((5 + (size_t)count) * sizeof *depend);
    depend[0] = NULL;
    depend[1] = (void *)(uintptr_t)count;
    depend[2] = depend[3] = depend[4] = NULL;
    for (int i = 0; i < count; i++)
        depend[5 + i] = &objs[i];
    GOMP_task(fn, arg, NULL, arg_size, 8, true, PV_GTF_TASK_DEPEND, depend, 0, NULL);
    free(depend);   /* GOMP_task registers the dependences before it returns */
}

#define SPAWN_SITE(call)             \
    do {                             \
        PV_TASK_SITE_OUTER_BEGIN();  \
        PV_OMPT_GIVE();              \
        call;                        \
        PV_OMPT_GIVEN_DROP();        \
        PV_TASK_SITE_OUTER_END();    \
    } while (0)

/* ------------------------------------------------------------ memcpy */
struct copy_args {
    void *dst;
    const void *src;
    size_t length;
    int dst_dev, src_dev;
};

static void copy_task(void *p)
{
    struct copy_args *a = p;
    if (a->length)   /* none: the task only keeps its place in the dependences */
        pv_dev_copy(a->dst_dev, a->dst, a->src_dev, a->src, a->length, PV_COPY_ASYNC);
}

PV_EXPORT int omp_target_memcpy_async(void *dst, const void *src, size_t length,
                                      size_t dst_offset, size_t src_offset, int dst_device_num,
                                      int src_device_num, int depobj_count,
                                      pv_depobj *depobj_list)
{
    struct pv_device *dd = NULL, *sd = NULL;
    if (pv_target_which(dst_device_num, &dd) < 0 || pv_target_which(src_device_num, &sd) < 0)
        return EINVAL;
    if (length && (!dst || !src))
        return EINVAL;
    struct copy_args a = {(char *)dst + dst_offset, (const char *)src + src_offset, length,
                          pv_target_devnum(dst_device_num), pv_target_devnum(src_device_num)};
    SPAWN_SITE(spawn(copy_task, &a, sizeof a, depobj_count, depobj_list));
    return 0;
}

/* The rect copy's arrays follow the header in the same block. */
struct rect_args {
    void *dst;
    const void *src;
    size_t element_size;
    int num_dims, dst_dev, src_dev;
    size_t *v;   /* volume, dst_offsets, src_offsets, dst_dims, src_dims */
};

static void rect_task(void *p)
{
    struct rect_args *a = p;
    size_t n = (size_t)a->num_dims;
    int r = pv_target_copy_rect(a->dst, a->src, a->element_size, a->num_dims, a->v, a->v + n,
                                a->v + 2 * n, a->v + 3 * n, a->v + 4 * n, a->dst_dev,
                                a->src_dev, true);
    if (r)
        pv_warn("omp_target_memcpy_rect_async: the copy failed (%d: sizes overflow)", r);
    free(a->v);
}

PV_EXPORT int omp_target_memcpy_rect_async(void *dst, const void *src, size_t element_size,
                                           int num_dims, const size_t *volume,
                                           const size_t *dst_offsets, const size_t *src_offsets,
                                           const size_t *dst_dimensions,
                                           const size_t *src_dimensions, int dst_device_num,
                                           int src_device_num, int depobj_count,
                                           pv_depobj *depobj_list)
{
    int r = pv_target_rect_check(dst, src, num_dims, volume, dst_offsets, src_offsets,
                                 dst_dimensions, src_dimensions, dst_device_num,
                                 src_device_num);
    if (r)
        return r;
    size_t n = (size_t)num_dims, bytes = n * sizeof(size_t);
    struct rect_args a = {dst, src, element_size, num_dims, dst_device_num, src_device_num,
                          pv_malloc(5 * bytes)};
    const size_t *from[5] = {volume, dst_offsets, src_offsets, dst_dimensions, src_dimensions};
    for (int i = 0; i < 5; i++)
        memcpy(a.v + i * n, from[i], bytes);
    SPAWN_SITE(spawn(rect_task, &a, sizeof a, depobj_count, depobj_list));
    return 0;
}

/* ------------------------------------------------------------ memset */
struct fill_args {
    void *ptr;
    size_t count;
    int val, device;   /* device: -1 for the host */
};

static void fill(const struct fill_args *a, bool async)
{
    if (!a->count || !a->ptr)
        return;
    if (a->device >= 0)
        pv_dev_fill(a->device, a->ptr, a->val, a->count, async);
    else
        memset(a->ptr, a->val, a->count);
}

static void fill_task(void *p)
{
    fill(p, true);
}

/* An invalid device number fills nothing (libgomp treats it as the host's
 * memory; pvomp does not guess what the pointer is). */
static struct fill_args fill_args(void *ptr, int val, size_t count, int device_num)
{
    struct pv_device *d = NULL;
    int w = pv_target_which(device_num, &d);
    return (struct fill_args){ptr, w < 0 ? 0 : count, val, w == 1 ? d->num : -1};
}

PV_EXPORT void *omp_target_memset(void *ptr, int val, size_t count, int device_num)
{
    struct fill_args a = fill_args(ptr, val, count, device_num);
    fill(&a, false);
    return ptr;
}

PV_EXPORT void *omp_target_memset_async(void *ptr, int val, size_t count, int device_num,
                                        int depobj_count, pv_depobj *depobj_list)
{
    struct fill_args a = fill_args(ptr, val, count, device_num);
    SPAWN_SITE(spawn(fill_task, &a, sizeof a, depobj_count, depobj_list));
    return ptr;
}
