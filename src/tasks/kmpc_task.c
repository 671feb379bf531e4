/* Explicit tasks through libomp's ABI, on GOMP_task.  clang allocates a
 * task with __kmpc_omp_task_alloc (the kmp_task_t header, the task's
 * privates after it, and a block for the shared variables' pointers), fills
 * it, then hands it over with __kmpc_omp_task{,_with_deps}.  pvomp gives
 * GOMP_task an 8-byte argument, the kmp_task_t pointer; the GOMP task runs
 * the task's routine and frees the block.  An if(0) task's routine is
 * called by the program itself, between task_begin_if0 and
 * task_complete_if0: it is pvomp's task of that protocol
 * (pv_task_if0_begin/_end) meanwhile. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "tasks/kmpc_task.h"
#include "runtime/task_internal.h"
#include "runtime/omp_api.h"
#include "base/alloc.h"
#include "base/message.h"

PV_EXPORT kmp_task_t *__kmpc_omp_task_alloc(ident_t *loc, kmp_int32 gtid, kmp_int32 flags,
                                            size_t sizeof_kmp_task_t, size_t sizeof_shareds,
                                            kmp_routine_entry_t task_entry)
{
    (void)loc, (void)gtid;
    size_t head = offsetof(struct pv_kmpc_task_block, task);
    size_t task_bytes = (sizeof_kmp_task_t + 15) & ~(size_t)15;
    struct pv_kmpc_task_block *b = pv_malloc(head + task_bytes + sizeof_shareds);
    memset(b, 0, head + task_bytes);
    b->flags = flags;
    b->task_bytes = task_bytes;
    b->shareds_bytes = sizeof_shareds;
    kmp_task_t *t = &b->task;
    t->shareds = sizeof_shareds ? (char *)t + task_bytes : NULL;
    t->routine = task_entry;
    return t;
}

kmp_task_t *pv_kmpc_task_clone(kmp_task_t *t)
{
    struct pv_kmpc_task_block *b = pv_kmpc_block_of(t);
    size_t head = offsetof(struct pv_kmpc_task_block, task);
    size_t bytes = head + b->task_bytes + b->shareds_bytes;
    struct pv_kmpc_task_block *c = pv_malloc(bytes);
    memcpy(c, b, bytes);
    if (t->shareds)
        c->task.shareds = (char *)&c->task + b->task_bytes;
    return &c->task;
}

static void run_destructors(kmp_task_t *t)
{
    if (pv_kmpc_block_of(t)->flags & KMP_TASK_DESTRUCTORS)
        t->destructors(pv_kmpc_gtid(), t);
}

void pv_kmpc_task_discard(kmp_task_t *t)
{
    run_destructors(t);
    free(pv_kmpc_block_of(t));
}

/* The later of a detached task's body end and its fulfilment frees it
 * (acq_rel: that one sees all the other did with the block). */
static void end_of_detached(struct pv_kmpc_event *ev, unsigned mine)
{
    if (!(atomic_fetch_or_explicit(&ev->ends, mine, memory_order_acq_rel) & ~mine))
        return;
    free(pv_kmpc_block_of(ev->task));
    free(ev);
}

void pv_kmpc_task_ended(kmp_task_t *t)
{
    struct pv_kmpc_event *ev = pv_kmpc_block_of(t)->event;
    run_destructors(t);
    if (ev)
        end_of_detached(ev, PV_KMPC_BODY_ENDED);
    else
        free(pv_kmpc_block_of(t));
}

/* The task whose routine this thread runs (struct pv_kmpc_running).  An
 * untied task that re-submits itself stays the same pvomp task: its next
 * part runs after a scheduling point (taskyield: other tasks may run). */
static __thread struct pv_kmpc_running *running __attribute__((tls_model("initial-exec")));

/* As pv_kmpc_body: the frame that calls the task's routine (this one, or
 * the one it is inlined into) is the task's exit_frame, as in libomp (clang
 * inlines the task's outlined body into its routine, so the tool's
 * __builtin_frame_address(1) there is this frame). */
static void run_part(struct pv_kmpc_running *self, kmp_int32 gtid)
{
    kmp_task_t *t = self->task;
    if (pv_ompt_tool())
        pv_ompt_exit_frame(__builtin_frame_address(0));
    self->again = 0;
    self->outer = running;
    running = self;
    if (t->routine) /* NULL: a dependence-only task (taskwait nowait) */
        t->routine(gtid, t);
    running = self->outer;
}

static void run_next_parts(struct pv_kmpc_running *self, kmp_int32 gtid)
{
    while (self->again) {
        GOMP_taskyield(); /* the untied task's scheduling point */
        run_part(self, gtid);
    }
}

/* What GOMP_task copies for a task: the event word first (GOMP_task writes
 * a detached task's event into the first word of its data, as gcc's code
 * expects), then the kmp_task_t. */
struct gomp_arg {
    void *event;
    kmp_task_t *task;
};

static void run_task(void *arg)
{
    struct pv_kmpc_running self = {((struct gomp_arg *)arg)->task, 0, NULL};
    kmp_int32 gtid = pv_kmpc_gtid();
    run_part(&self, gtid);
    run_next_parts(&self, gtid);
    pv_kmpc_task_ended(self.task);
}

/* GOMP_task's flags for the clause flags of libomp's block. */
static unsigned gomp_flags(const struct pv_kmpc_task_block *b)
{
    unsigned gflags = 0;
    if (!(b->flags & KMP_TASK_TIED))
        gflags |= PV_GTF_UNTIED;
    if (b->flags & KMP_TASK_FINAL)
        gflags |= PV_GTF_FINAL;
    if (b->event)
        gflags |= PV_GTF_DETACH;
    return gflags;
}

/* A target task's GOMP task: its body hands the routine to the hidden
 * helper threads and returns; the task completes (its dependences are
 * released, taskwait and taskgroup see it done) when the helper fulfils
 * its event, after the routine (kmpc_hidden.c). */
static void run_hidden(void *arg)
{
    pv_kmpc_hidden_post(pv_kmpc_block_of(((struct gomp_arg *)arg)->task));
}

void pv_kmpc_task_submit(kmp_task_t *t, void **depend)
{
    struct pv_kmpc_task_block *b = pv_kmpc_block_of(t);
    if (running && t == running->task) { /* an untied task's next part */
        running->again = 1;
        return;
    }
    void (*body)(void *) = run_task;
    if (b->hidden_helper) {
        body = run_hidden;
        __kmpc_task_allow_completion_event(NULL, 0, t);
    }
    unsigned gflags = gomp_flags(b);
    int priority = 0;
    if (b->flags & KMP_TASK_PRIORITY) {
        gflags |= PV_GTF_PRIORITY;
        priority = t->priority;
    }
    if (depend)
        gflags |= PV_GTF_DEPEND;
    struct gomp_arg arg = {NULL, t};
    /* GOMP_task publishes pvomp's event before the task can run */
    void *detach = b->event ? (void *)&b->event->gomp : NULL;
    GOMP_task(body, &arg, NULL, sizeof arg, _Alignof(struct gomp_arg), true, gflags, depend,
              priority, detach);
}

PV_EXPORT kmp_int32 __kmpc_omp_task(ident_t *loc, kmp_int32 gtid, kmp_task_t *new_task)
{
    (void)loc, (void)gtid;
    PV_TASK_SITE_OUTER_BEGIN();
    PV_OMPT_GIVE();
    pv_kmpc_task_submit(new_task, NULL);
    PV_OMPT_GIVEN_DROP(); /* not taken by an untied task's next part */
    PV_TASK_SITE_OUTER_END();
    return 0; /* TASK_CURRENT_NOT_QUEUED, as libomp returns */
}

/* libomp's dependence record: address, length, and kind bits. */
typedef struct {
    intptr_t base_addr;
    size_t len;
    uint8_t flags; /* 1 in, 2 out, 4 mutexinoutset, 8 inoutset, 0x80 all */
} kmp_depend_info_t;

enum { KMP_DEP_ALL = 0x80 };

/* omp_all_memory in libomp's records: the `all` flag bit, or (as libomp
 * also reads it) an address of all ones. */
static bool is_all_memory(const kmp_depend_info_t *d)
{
    return (d->flags & KMP_DEP_ALL) || (uintptr_t)d->base_addr == UINTPTR_MAX;
}

/* The GOMP depend array (new layout: [0, n, nout, nmutex, nin, addr...,
 * depobj...]) for libomp's records; inoutset items go as depobjs, whose
 * {addr, kind} pairs live in `objs`.  Returns the array (in `buf`). */
enum { DEP_OUT, DEP_MUTEX, DEP_IN, DEP_SET, DEP_KINDS }; /* the array's order */

static int dep_kind(uint8_t flags)
{
    return flags & 8 ? DEP_SET : flags & 4 ? DEP_MUTEX : flags & 2 ? DEP_OUT : DEP_IN;
}

static void **gomp_depend(void **buf, void *(*objs)[2], kmp_int32 n, const kmp_depend_info_t *d)
{
    size_t count[DEP_KINDS] = {0}, k = 5;
    for (kmp_int32 i = 0; i < n; i++)
        if (is_all_memory(&d[i])) { /* as libomp: the other items add nothing */
            /* pvomp's (gcc 13's) omp_all_memory: one out item, address NULL */
            buf[0] = 0, buf[1] = (void *)1, buf[2] = (void *)1, buf[3] = 0, buf[4] = 0;
            buf[5] = NULL;
            return buf;
        }
    for (kmp_int32 i = 0; i < n; i++)
        count[dep_kind(d[i].flags)]++;
    buf[0] = 0, buf[1] = (void *)(uintptr_t)n, buf[2] = (void *)(uintptr_t)count[DEP_OUT];
    buf[3] = (void *)(uintptr_t)count[DEP_MUTEX], buf[4] = (void *)(uintptr_t)count[DEP_IN];
    for (int pass = 0; pass < DEP_KINDS; pass++)
        for (kmp_int32 i = 0; i < n; i++) {
            if (dep_kind(d[i].flags) != pass)
                continue;
            if (pass == DEP_SET) {
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

PV_EXPORT kmp_int32 __kmpc_omp_task_with_deps(ident_t *loc, kmp_int32 gtid,
                                              kmp_task_t *new_task, kmp_int32 ndeps,
                                              kmp_depend_info_t *dep_list,
                                              kmp_int32 ndeps_noalias,
                                              kmp_depend_info_t *noalias_dep_list)
{
    (void)loc, (void)gtid, (void)ndeps_noalias, (void)noalias_dep_list;
    PV_TASK_SITE_OUTER_BEGIN();
    PV_OMPT_GIVE();
    if (ndeps <= 0) {
        pv_kmpc_task_submit(new_task, NULL);
        PV_OMPT_GIVEN_DROP();
        PV_TASK_SITE_OUTER_END();
        return 0;
    }
    void **buf = pv_malloc((5 + (size_t)ndeps) * sizeof(void *) + (size_t)ndeps * 2 * sizeof(void *));
    void *(*objs)[2] = (void *(*)[2])(buf + 5 + ndeps);
    pv_kmpc_task_submit(new_task, gomp_depend(buf, objs, ndeps, dep_list));
    PV_OMPT_GIVEN_DROP();
    PV_TASK_SITE_OUTER_END();
    free(buf); /* GOMP_task has registered the dependences */
    return 0;
}

PV_EXPORT void __kmpc_omp_wait_deps(ident_t *loc, kmp_int32 gtid, kmp_int32 ndeps,
                                    kmp_depend_info_t *dep_list, kmp_int32 ndeps_noalias,
                                    kmp_depend_info_t *noalias_dep_list)
{
    (void)loc, (void)gtid, (void)ndeps_noalias, (void)noalias_dep_list;
    if (ndeps <= 0)
        return;
    void **buf = pv_malloc((5 + (size_t)ndeps) * sizeof(void *) + (size_t)ndeps * 2 * sizeof(void *));
    void *(*objs)[2] = (void *(*)[2])(buf + 5 + ndeps);
    PV_OMPT_GIVE();
    GOMP_taskwait_depend(gomp_depend(buf, objs, ndeps, dep_list));
    PV_OMPT_GIVEN_DROP(); /* not taken when there is nothing to wait for */
    free(buf);
}

/* The program calls the task's routine between these two: the task is
 * created and begins here (the tool's task_create names the program's
 * call; the program's frame is the task's exit frame, as libomp has it),
 * and ends in complete_if0, which runs an untied task's further parts
 * (re-submitted by its routine) first.  A detached task whose event is
 * still open completes when it is fulfilled. */
PV_EXPORT void __kmpc_omp_task_begin_if0(ident_t *loc, kmp_int32 gtid, kmp_task_t *task)
{
    (void)loc, (void)gtid;
    struct pv_kmpc_task_block *b = pv_kmpc_block_of(task);
    void *detach = b->event ? (void *)&b->event->gomp : NULL;
    void *frame = NULL;
    PV_TASK_SITE_OUTER_BEGIN();
    if (pv_ompt_tool()) {
        PV_OMPT_ENTRY_SET();
        frame = PV_KMPC_PROGRAM_FRAME();
    }
    b->if0 = pv_task_if0_begin(gomp_flags(b), detach, (void *)task->routine, frame);
    PV_TASK_SITE_OUTER_END();
    b->if0_run = (struct pv_kmpc_running){task, 0, running};
    running = &b->if0_run;
}

PV_EXPORT void __kmpc_omp_task_complete_if0(ident_t *loc, kmp_int32 gtid, kmp_task_t *task)
{
    (void)loc;
    struct pv_kmpc_task_block *b = pv_kmpc_block_of(task);
    running = b->if0_run.outer;
    run_next_parts(&b->if0_run, gtid);
    pv_task_if0_end(b->if0);
    pv_kmpc_task_ended(task);
}

/* detach(event): the event handle, fulfilled by omp_fulfill_event. */
PV_EXPORT struct pv_kmpc_event *__kmpc_task_allow_completion_event(ident_t *loc,
                                                                       kmp_int32 gtid,
                                                                       kmp_task_t *task)
{
    (void)loc, (void)gtid;
    struct pv_kmpc_task_block *b = pv_kmpc_block_of(task);
    if (!b->event) {
        b->event = pv_malloc(sizeof *b->event);
        atomic_init(&b->event->gomp, NULL);
        atomic_init(&b->event->ends, 0);
        b->event->task = task;
    }
    return b->event;
}


/* omp_fulfill_event@VERSION: clang programs hold the kmpc event; a task
 * that started has pvomp's own event in it. */
PV_EXPORT void pv_kmp_omp_fulfill_event(struct pv_kmpc_event *ev)
{
    void *gomp = ev ? atomic_load_explicit(&ev->gomp, memory_order_acquire) : NULL;
    if (!gomp) {
        pv_warn("omp_fulfill_event: invalid event handle, or its task has not started "
                "(ignored)");
        return;
    }
    omp_fulfill_event((uintptr_t)gomp);
    end_of_detached(ev, PV_KMPC_FULFILLED);
}
__asm__(".symver pv_kmp_omp_fulfill_event, omp_fulfill_event@VERSION");

PV_EXPORT kmp_int32 __kmpc_omp_taskwait(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    PV_OMPT_GIVE();
    GOMP_taskwait();
    return 0;
}

/* As libomp: one ready task (a descendant of the current one) runs here;
 * GOMP_taskyield, as libgomp's, gives way to none. */
PV_EXPORT kmp_int32 __kmpc_omp_taskyield(ident_t *loc, kmp_int32 gtid, int end_part)
{
    (void)loc, (void)gtid, (void)end_part;
    pv_task_yield();
    return 0;
}

/* As GOMP_taskgroup_start/_end (inline: with the program's return address
 * as the events' codeptr_ra; a call to the GOMP entry would give ours). */
PV_EXPORT void __kmpc_taskgroup(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    pv_taskgroup_start_entry();
    pv_kmpc_taskred_enter();
}

PV_EXPORT void __kmpc_end_taskgroup(ident_t *loc, kmp_int32 gtid)
{
    (void)loc, (void)gtid;
    pv_taskgroup_end_entry();
    pv_kmpc_taskred_leave(); /* combines the taskgroup's reductions */
}
