/* Where the program called the runtime from: codeptr_ra and the frame of
 * the entry point, for events whose site is deeper in the runtime than the
 * exported function.  Only ever run with a tool attached.
 *
 * The stack is unwound (libgcc, from the .eh_frame tables) to the first
 * frame outside pvomp's own text: its IP is the return address into the
 * program, and the CFA of the last pvomp frame -- the stack pointer at the
 * program's call -- identifies the entry's frame (ompt_frame_cfa).
 *
 * gcc often ends an outlined region or task body with a tail call
 * (`jmp GOMP_barrier`), so the body's frame is gone when the runtime runs:
 * the return address then points into pvomp (given codeptr) or the walk
 * leaves the current task's frames (above its exit frame).  The body's
 * address -- the outlined function -- then stands in for codeptr_ra. */
#include <link.h>
#include <stdint.h>
#include <unwind.h>

#include "ompt/events.h"

static uintptr_t text_lo, text_hi;   /* pvomp's executable segments */

static int find_self(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    uintptr_t self = (uintptr_t)arg;
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
            continue;
        uintptr_t a = info->dlpi_addr + ph->p_vaddr;
        if (a < lo)
            lo = a;
        if (a + ph->p_memsz > hi)
            hi = a + ph->p_memsz;
    }
    if (self < lo || self >= hi)
        return 0;
    text_lo = lo;
    text_hi = hi;
    return 1;
}

void pv_ompt_where_init(void)
{
    dl_iterate_phdr(find_self, (void *)(uintptr_t)pv_ompt_where_init);
}

static inline bool in_pvomp(uintptr_t ip)
{
    return ip >= text_lo && ip < text_hi;
}

struct walk {
    uintptr_t limit;    /* the current task's exit frame (0: none) */
    const void *ra;
    uintptr_t cfa;
    int depth;
    bool crossed;       /* left the task's frames before leaving pvomp */
};

static _Unwind_Reason_Code step(struct _Unwind_Context *ctx, void *arg)
{
    struct walk *w = arg;
    uintptr_t cfa = _Unwind_GetCFA(ctx);
    if (w->limit && cfa > w->limit) {
        w->crossed = true;
        return _URC_NORMAL_STOP;
    }
    uintptr_t ip = _Unwind_GetIP(ctx);
    if (in_pvomp(ip)) {
        w->cfa = cfa;
        return ++w->depth < 64 ? _URC_NO_REASON : _URC_NORMAL_STOP;
    }
    w->ra = (const void *)ip;
    return _URC_NORMAL_STOP;
}

/* The body of the current task: its stand-in return address. */
static const void *task_body(void)
{
    struct pv_task *t = pv_thr_task();
    struct pv_ompt_task *o = pv_ompt_cur_task();
    if (o->flags & ompt_task_explicit)
        return t ? (const void *)pv_task_body(t) : NULL;
    struct pv_team *team = pv_thr_ts()->team;
    if ((o->flags & ompt_task_implicit) && team)
        return (const void *)pv_team_ompt(team)->fn;
    return NULL;
}

void pv_ompt_caller(const void **codeptr, void **frame)
{
    struct pv_ompt_task *o = pv_ompt_cur_task();
    struct walk w = {(uintptr_t)o->frame.exit_frame.ptr, NULL, 0, 0, false};
    if (text_hi)
        _Unwind_Backtrace(step, &w);
    if (codeptr)
        *codeptr = w.ra ? w.ra : task_body();
    if (frame)
        *frame = w.ra ? (void *)w.cfa : NULL;
}

const void *pv_ompt_codeptr(const void *given)
{
    if (given && !in_pvomp((uintptr_t)given))
        return given;
    if (given)
        return task_body();   /* a tail call from the task's body */
    const void *c;
    pv_ompt_caller(&c, NULL);
    return c;
}
