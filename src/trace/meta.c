/* The records that make a log describe itself: the header, name mappings,
 * event declarations, the process and the clock.  They are ordinary
 * simpletrace records (events of the pvtrace_* kinds), so QEMU's
 * simpletrace.py reads them like any other event. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/clock.h"
#include "base/version.h"
#include "trace/trace.h"

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
    static char exe[4096], cmdline[PV_TRACE_STRMAX + 1];
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
