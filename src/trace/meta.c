/* The records that make a log describe itself: the header, name mappings,
 * event declarations, the process and the clock.  They are ordinary
 * simpletrace records (events of the pvtrace_* kinds), so QEMU's
 * simpletrace.py reads them like any other event. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/clock.h"
#include "base/version.h"
#include "trace/trace.h"

/* Strings in the log's own records are cut at this length (the command line
 * can be long; nothing else comes close). */
#define META_STRMAX 4096u

void pv_trace_buf_put(struct pv_trace_buf *b, const void *bytes, size_t len)
{
    if (b->len + len > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + len)
            cap *= 2;
        uint8_t *p = pv_realloc(b->p, cap);
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, bytes, len);
    b->len += len;
}

static void put_u64(struct pv_trace_buf *b, uint64_t v)
{
    pv_trace_buf_put(b, &v, 8);
}

static void put_u32(struct pv_trace_buf *b, uint32_t v)
{
    pv_trace_buf_put(b, &v, 4);
}

void pv_trace_buf_mapping(struct pv_trace_buf *b, uint64_t id, const char *name)
{
    put_u64(b, PVOMP_TRACE_REC_MAPPING);
    put_u64(b, id);
    put_u32(b, (uint32_t)strlen(name));
    pv_trace_buf_put(b, name, strlen(name));
}

void pv_trace_buf_event(struct pv_trace_buf *b, uint64_t id, uint64_t ts, uint32_t tid,
                        const char *kinds, ...)
{
    va_list ap;
    uint32_t size = PVOMP_TRACE_EVENT_HDR;
    uint8_t hdr[PVOMP_TRACE_EVENT_HDR] = { 0 };
    size_t at = b->len;
    va_start(ap, kinds);
    pv_trace_buf_put(b, hdr, sizeof hdr); /* written below, when the size is known */
    for (const char *k = kinds; *k; k++) {
        if (*k == 's') {
            const char *s = va_arg(ap, const char *);
            uint32_t n = s ? (uint32_t)strnlen(s, META_STRMAX) : 0;
            put_u32(b, n);
            pv_trace_buf_put(b, s, n);
            size += 4 + n;
        } else {
            put_u64(b, va_arg(ap, uint64_t));
            size += 8;
        }
    }
    va_end(ap);
    pvomp_trace_put_header(b->p + at, id, ts, size, tid);
}

void pv_trace_buf_decls(struct pv_trace_buf *b, uint64_t base, const struct pvomp_trace_event_desc *d,
                        unsigned n, uint64_t ts, uint32_t tid)
{
    for (unsigned i = 0; i < n; i++)
        pv_trace_buf_mapping(b, base + i, d[i].name);
    for (unsigned i = 0; i < n; i++)
        pv_trace_buf_event(b, PV_TRACE_EV_pvtrace_event, ts, tid, "usss", (uint64_t)(base + i),
                           d[i].name, d[i].args, d[i].fmt);
}

/* /proc/self/cmdline with the NULs between arguments made spaces. */
static void read_cmdline(char *out, size_t cap)
{
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    ssize_t n = 0;
    out[0] = 0;
    if (fd < 0)
        return;
    n = read(fd, out, cap - 1);
    close(fd);
    if (n <= 0)
        return;
    while (n > 0 && out[n - 1] == 0)
        n--;
    for (ssize_t i = 0; i < n; i++)
        if (out[i] == 0)
            out[i] = ' ';
    out[n] = 0;
}

void pv_trace_buf_preamble(struct pv_trace_buf *b)
{
    static char exe[4096], cmdline[META_STRMAX + 1];
    uint64_t hdr[3] = { PVOMP_TRACE_HEADER_ID, PVOMP_TRACE_MAGIC, PVOMP_TRACE_VERSION };
    uint32_t pid = (uint32_t)getpid();
    uint64_t ts = pv_trace_now();
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    read_cmdline(cmdline, sizeof cmdline);

    pv_trace_buf_put(b, hdr, sizeof hdr);
    /* Every name first (QEMU writes them right after the header too). */
    for (unsigned i = 0; i < PV_TRACE_NEVENTS; i++)
        pv_trace_buf_mapping(b, i, pv_trace_catalog[i].name);
    pv_trace_buf_event(b, PV_TRACE_EV_pvtrace_process, ts, pid, "usss", (uint64_t)pid, exe,
                       cmdline, pvomp_version());
    /* The trace clock read `ts` about now: pair it with the other clocks. */
    uint64_t mono = pv_monotonic_ns();
    uint64_t real = pv_realtime_ns();
    ts = pv_trace_now();
    pv_trace_buf_event(b, PV_TRACE_EV_pvtrace_clock, ts, pid, "suuu", pv_trace_clk.source,
                       pv_trace_clk.hz, mono, real);
    for (unsigned i = 0; i < PV_TRACE_NEVENTS; i++)
        pv_trace_buf_event(b, PV_TRACE_EV_pvtrace_event, ts, pid, "usss", (uint64_t)i,
                           pv_trace_catalog[i].name, pv_trace_catalog[i].args,
                           pv_trace_catalog[i].fmt);
    /* The names of enumerated arguments' values, after the declarations. */
    for (unsigned i = 0; i < PV_TRACE_NENUM_USES; i++) {
        const struct pv_trace_enum_use *u = &pv_trace_enum_uses[i];
        pv_trace_buf_event(b, PV_TRACE_EV_pvtrace_enum, ts, pid, "uuss", u->id, u->arg, u->name,
                           u->values);
    }
    /* A new log (a fork child's too) lists every object again. */
    pv_trace_objects_forget();
    pv_trace_buf_objects(b, ts);
}
