/* Explicit tasks through libomp's ABI, on GOMP_task.  clang allocates a
 * task with __kmpc_omp_task_alloc (the kmp_task_t header, the task's
 * privates after it, and a block for the shared variables' pointers), fills
 * it, then hands it over with __kmpc_omp_task{,_with_deps}.  pvomp gives
 * GOMP_task an 8-byte argument, the kmp_task_t pointer; the GOMP task runs
 * the task's routine and frees the block.
 *
 * KNOWN LIMIT: an if(0) task (task_begin_if0 ... task_complete_if0, the body
 * called by clang in between) runs as part of its parent task here, so a
 * taskwait inside it also waits for its siblings' children. */
#include <stdlib.h>
#include <string.h>

#include "kmpc/kmpc.h"
#include "runtime/task_internal.h"

void *pv_malloc(size_t size);
void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
               long arg_align, bool if_clause, unsigned flags, void **depend, int priority,
               void *detach);
void GOMP_taskwait(void);
void GOMP_taskwait_depend(void **depend);
void GOMP_taskyield(void);
void GOMP_taskgroup_start(void);
void GOMP_taskgroup_end(void);

typedef kmp_int32 (*kmp_routine_entry_t)(kmp_int32 gtid, void *task);

/* clang's kmp_task_t header; the privates follow it. */
typedef struct {
    void *shareds;
    kmp_routine_entry_t routine;
    kmp_int32 part_id;
    kmp_routine_entry_t destructors; /* data1 */
    kmp_int32 priority;              /* data2 */
} kmp_task_t;

/* libomp's kmp_tasking_flags_t bits that clang sets. */
enum {
    KMP_TASK_TIED = 1u << 0,
    KMP_TASK_FINAL = 1u << 1,
    KMP_TASK_MERGED_IF0 = 1u << 2,
    KMP_TASK_DESTRUCTORS = 1u << 3,
    KMP_TASK_PRIORITY = 1u << 5,
    KMP_TASK_DETACHABLE = 1u << 6,
};


/* Before the header, what pvomp keeps of the allocation's flags. */
struct task_block {
    kmp_int32 flags;
    kmp_int32 pad;
    _Alignas(16) kmp_task_t task;
};

static struct task_block *block_of(kmp_task_t *t)
{
    return (struct task_block *)((char *)t - offsetof(struct task_block, task));
}

PV_KMPC_EXPORT kmp_task_t *__kmpc_omp_task_alloc(ident_t *loc, kmp_int32 gtid, kmp_int32 flags,
                                                 size_t sizeof_kmp_task_t, size_t sizeof_shareds,
                                                 kmp_routine_entry_t task_entry)
{
    (void)loc, (void)gtid;
    if (flags & KMP_TASK_DETACHABLE)
        pv_unsupported("__kmpc_omp_task_alloc with detach (task_allow_completion_event)");
    size_t head = offsetof(struct task_block, task);
    size_t task_bytes = (sizeof_kmp_task_t + 15) & ~(size_t)15;
    struct task_block *b = pv_malloc(head + task_bytes + sizeof_shareds);
    memset(b, 0, head + task_bytes);
    b->flags = flags;
    kmp_task_t *t = &b->task;
    t->shareds = sizeof_shareds ? (char *)t + task_bytes : NULL;
    t->routine = task_entry;
    return t;
}

/* The task whose routine this thread runs.  clang splits an untied task at
 * its scheduling points: the routine re-submits its own kmp_task_t (part_id
 * advanced) and returns, to be resumed later as the same task.  GOMP_task
 * has no way to resume a task, so that stops with a message (KNOWN LIMIT:
 * untied tasks that reach a scheduling point). */
static __thread kmp_task_t *running;

static void run_task(void *arg)
{
    kmp_task_t *t = *(kmp_task_t **)arg, *outer = running;
    struct task_block *b = block_of(t);
    kmp_int32 gtid = pv_kmpc_gtid();
    running = t;
    t->routine(gtid, t);
    running = outer;
    if (b->flags & KMP_TASK_DESTRUCTORS)
        t->destructors(gtid, t);
    free(b);
}

static void submit(kmp_task_t *t, void **depend)
{
    struct task_block *b = block_of(t);
    if (t == running)
        pv_unsupported("__kmpc_omp_task resuming an untied task");
    unsigned gflags = 0;
    if (!(b->flags & KMP_TASK_TIED))
        gflags |= PV_GTF_UNTIED;
    if (b->flags & KMP_TASK_FINAL)
        gflags |= PV_GTF_FINAL;
    int priority = 0;
    if (b->flags & KMP_TASK_PRIORITY) {
        gflags |= PV_GTF_PRIORITY;
        priority = t->priority;
    }
    if (depend)
        gflags |= PV_GTF_DEPEND;
    GOMP_task(run_task, &t, NULL, sizeof t, _Alignof(kmp_task_t *), true, gflags, depend,
              priority, NULL);
}

PV_KMPC_EXPORT kmp_int32 __kmpc_omp_task(ident_t *loc, kmp_int32 gtid, kmp_task_t *new_task)
{
    (void)loc, (void)gtid;
    submit(new_task, NULL);
    return 0; /* TASK_CURRENT_NOT_QUEUED, as libomp returns */
}

/* libomp's dependence record: address, length, and kind bits. */
typedef struct {
    intptr_t base_addr;
    size_t len;
    uint8_t flags; /* 1 in, 2 out, 4 mutexinoutset, 8 inoutset */
} kmp_depend_info_t;

/* The GOMP depend array (new layout: [0, n, nout, nmutex, nin, addr...,
 * depobj...]) for libomp's records; inoutset items go as depobjs, whose
 * {addr, kind} pairs live in `objs`.  Returns the array (in `buf`). */
static void **gomp_depend(void **buf, void *(*objs)[2], kmp_int32 n, const kmp_depend_info_t *d)
{
    size_t nout = 0, nin = 0, nset = 0, k = 5;
    for (kmp_int32 i = 0; i < n; i++) {
        if (d[i].flags & 8)
            nset++;
        else if (d[i].flags & 6)
            nout++;
        else
            nin++;
    }
    buf[0] = 0, buf[1] = (void *)(uintptr_t)n, buf[2] = (void *)(uintptr_t)nout, buf[3] = 0;
    buf[4] = (void *)(uintptr_t)nin;
    for (int pass = 0; pass < 3; pass++)
        for (kmp_int32 i = 0; i < n; i++) {
            int kind = d[i].flags & 8 ? 2 : d[i].flags & 6 ? 0 : 1;
            if (kind != pass)
                continue;
            if (kind == 2) {
                objs[0][0] = (void *)d[i].base_addr;
                objs[0][1] = (void *)(uintptr_t)PV_DEP_INOUTSET;
                buf[k++] = objs[0];
                objs++;
            } else {
                buf[k++] = (void *)d[i].base_addr;
            }
        }
    return buf;
}

PV_KMPC_EXPORT kmp_int32 __kmpc_omp_task_with_deps(ident_t *loc, kmp_int32 gtid,
                                                   kmp_task_t *new_task, kmp_int32 ndeps,
                                                   kmp_depend_info_t *dep_list,
                                                   kmp_int32 ndeps_noalias,
                                                   kmp_depend_info_t *noalias_dep_list)
{
    (void)loc, (void)gtid, (void)ndeps_noalias, (void)noalias_dep_list;
    if (ndeps <= 0) {
        submit(new_task, NULL);
        return 0;
    }
    void **buf = pv_malloc((5 + (size_t)ndeps) * sizeof(void *) + (size_t)ndeps * 2 * sizeof(void *));
    void *(*objs)[2] = (void *(*)[2])(buf + 5 + ndeps);
    submit(new_task, gomp_depend(buf, objs, ndeps, dep_list));
    free(buf); /* GOMP_task has registered the dependences */
    return 0;
}

PV_KMPC_EXPORT void __kmpc_omp_wait_deps(ident_t *loc, kmp_int32 gtid, kmp_int32 ndeps,
                                         kmp_depend_info_t *dep_list, kmp_int32 ndeps_noalias,
                                         kmp_depend_info_t *noalias_dep_list)
{
    (void)loc, (void)gtid, (void)ndeps_noalias, (void)noalias_dep_list;
    if (ndeps <= 0)
        return;
    void **buf = pv_malloc((5 + (size_t)ndeps) * sizeof(void *) + (size_t)ndeps * 2 * sizeof(void *));
    void *(*objs)[2] = (void *(*)[2])(buf + 5 + ndeps);
    GOMP_taskwait_depend(gomp_depend(buf, objs, ndeps, dep_list));
    free(buf);
}

PV_KMPC_EXPORT void __kmpc_omp_task_begin_if0(ident_t *loc, kmp_int32 gtid, kmp_task_t *task)
{
    (void)loc, (void)gtid, (void)task;
}

PV_KMPC_EXPORT void __kmpc_omp_task_complete_if0(ident_t *loc, kmp_int32 gtid, kmp_task_t *task)
{
    (void)loc, (void)gtid;
    free(block_of(task));
}

PV_KMPC_EXPORT kmp_int32 __kmpc_omp_taskwait(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    GOMP_taskwait();
    return 0;
}

PV_KMPC_EXPORT kmp_int32 __kmpc_omp_taskyield(ident_t *loc, kmp_int32 gtid, int end_part)
{
    (void)loc, (void)gtid, (void)end_part;
    GOMP_taskyield();
    return 0;
}

PV_KMPC_EXPORT void __kmpc_taskgroup(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    GOMP_taskgroup_start();
}

PV_KMPC_EXPORT void __kmpc_end_taskgroup(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    GOMP_taskgroup_end();
}
