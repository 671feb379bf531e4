/* The loaded objects in the log: one pvtrace_object record per object (the
 * program, each shared library, each one dlopened later), so that a reader
 * can name an address afterwards, elsewhere, or say why it cannot.
 *
 * Finding them: dl_iterate_phdr, at log open (the preamble) and again at
 * every writer pass (each drain: every PVOMP_TRACE_PERIOD_MS, each hand-over,
 * each flush and the close).  glibc counts the objects ever added
 * (dlpi_adds); a pass whose count has not moved stops at the first object,
 * so the check costs the writer one callback and the program nothing.  An
 * object dlopened and dlclosed again between two passes is missed. */
#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/trace.h"

/* Objects already recorded (their load bias and first address): the writer
 * thread only, and the preamble before it starts. */
static struct seen {
    uint64_t bias, start;
} *seen;
static size_t nseen, seen_cap;
static unsigned long long seen_adds;

struct pass {
    struct pv_trace_buf *b;
    uint64_t ts;
    uint32_t pid;
    bool first;
};

/* The GNU build-id from the object's notes, as mapped (hex; "" without one). */
static void build_id(const struct dl_phdr_info *info, char *hex, size_t cap)
{
    hex[0] = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
        const uint8_t *end = p + ph->p_memsz;
        size_t al = ph->p_align > 4 ? 8 : 4;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
            const uint8_t *name = p + sizeof *n;
            const uint8_t *desc = name + ((n->n_namesz + al - 1) & ~(al - 1));
            if (desc + n->n_descsz > end)
                break;
            if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && !memcmp(name, "GNU", 4)) {
                size_t k = 0;
                for (uint32_t j = 0; j < n->n_descsz && k + 3 <= cap; j++, k += 2)
                    snprintf(hex + k, 3, "%02x", desc[j]);
                return;
            }
            p = desc + ((n->n_descsz + al - 1) & ~(al - 1));
        }
    }
}

static bool remember(uint64_t bias, uint64_t start)
{
    for (size_t i = 0; i < nseen; i++)
        if (seen[i].bias == bias && seen[i].start == start)
            return false;
    if (nseen == seen_cap) {
        size_t cap = seen_cap ? 2 * seen_cap : 32;
        struct seen *n = realloc(seen, cap * sizeof *n);
        if (!n)
            return false; /* not recorded: its addresses stay unnamed */
        seen = n;
        seen_cap = cap;
    }
    seen[nseen++] = (struct seen){ bias, start };
    return true;
}

static int one_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct pass *ps = arg;
    if (ps->first) {
        ps->first = false;
        if (size >= offsetof(struct dl_phdr_info, dlpi_subs) && info->dlpi_adds == seen_adds)
            return 1; /* nothing added since the last pass */
        seen_adds = info->dlpi_adds;
    }
    uint64_t lo = UINT64_MAX, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        if (ph->p_vaddr < lo)
            lo = ph->p_vaddr;
        if (ph->p_vaddr + ph->p_memsz > hi)
            hi = ph->p_vaddr + ph->p_memsz;
    }
    if (lo == UINT64_MAX)
        return 0;
    lo += info->dlpi_addr;
    hi += info->dlpi_addr;
    if (!remember(info->dlpi_addr, lo))
        return 0;
    static char exe[4096];
    const char *path = info->dlpi_name;
    if (!path || !path[0]) { /* the program itself */
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        exe[n > 0 ? n : 0] = 0;
        path = exe;
    }
    char hex[2 * 64 + 1];
    build_id(info, hex, sizeof hex);
    pv_trace_buf_event(ps->b, PV_TRACE_EV_pvtrace_object, ps->ts, ps->pid, "uuuss",
                       (uint64_t)info->dlpi_addr, lo, hi, path, hex);
    return 0;
}

void pv_trace_buf_objects(struct pv_trace_buf *b, uint64_t ts)
{
    struct pass ps = { b, ts, (uint32_t)getpid(), true };
    dl_iterate_phdr(one_object, &ps);
}

void pv_trace_objects_forget(void)
{
    free(seen);
    seen = NULL;
    nseen = seen_cap = 0;
    seen_adds = 0;
}
