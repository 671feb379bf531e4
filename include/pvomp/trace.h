/* pvomp flight log: public interface.
 *
 * pvomp writes a binary event trace (QEMU simpletrace log version 4, plus
 * records that describe the log itself) when PVOMP_TRACE=<file> is set.
 * PVOMP_TRACE_EVENTS=<glob>,<glob>,!<glob> selects events; "list" prints the
 * catalog.  See docs/trace.md.
 *
 * A program can declare its own events in a trace-events file, in QEMU's
 * syntax, and turn it into C with the generator that pvomp installs
 * (build/bin/pvomp-tracegen, or src/trace/tracegen.py):
 *
 *     # app-events
 *     app_step(unsigned step, const char *what) "step %u %s"
 *
 *     pvomp-tracegen --group app app-events app-trace.h app-trace.c
 *
 * then `#include "app-trace.h"`, call trace_app_step(3, "fft"), and compile
 * app-trace.c into the program (or use pvomp_trace_events() from
 * src/trace/PvompTraceEvents.cmake).  The generated code uses only the
 * functions below, through weak references: the same program runs (untraced)
 * on any other OpenMP runtime.  A trace point is a macro: a disabled event
 * costs one load and one branch, and its arguments are not evaluated.
 *
 * Everything here is declared weak so that a program does not need pvomp at
 * link time; check a function pointer before calling it directly, or use the
 * pvomp_trace_flush_if_available() helper. */
#ifndef PVOMP_TRACE_H
#define PVOMP_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Weak in programs (they run on other runtimes too); pvomp defines them. */
#ifndef PVOMP_TRACE_WEAK
#define PVOMP_TRACE_WEAK __attribute__((weak))
#endif

/* ------------------------------------------------------------ on-disk format
 * Native-endian, packed.  A log starts with the 24-byte header
 *   u64 PVOMP_TRACE_HEADER_ID, u64 PVOMP_TRACE_MAGIC, u64 PVOMP_TRACE_VERSION
 * and continues with records, each starting with a u64 record type:
 *   type 0 (mapping): u64 id, u32 name length, name bytes;
 *   type 1 (event):   u64 id, u64 timestamp ns, u32 length, u32 thread id,
 *                     arguments (u64 each; strings: u32 length + bytes).
 * `length` counts from the id to the end of the arguments. */
#define PVOMP_TRACE_HEADER_ID 0xffffffffffffffffull
#define PVOMP_TRACE_MAGIC 0xf2b177cb0aa429b4ull
#define PVOMP_TRACE_VERSION 4ull
#define PVOMP_TRACE_DROPPED_ID 0xfffffffffffffffeull
#define PVOMP_TRACE_REC_MAPPING 0ull
#define PVOMP_TRACE_REC_EVENT 1ull
#define PVOMP_TRACE_EVENT_HDR 32u       /* type + id + timestamp + length + tid */
#define PVOMP_TRACE_STRMAX 512u         /* longer strings are cut (and marked) */
#define PVOMP_TRACE_CUT_REC 48u         /* size of one pvtrace_cut record */
#define PVOMP_TRACE_MAX_ARGS 10u

/* ------------------------------------------------------- user event catalogs */
#define PVOMP_TRACE_CATALOG_ABI 1u

struct pvomp_trace_event_desc {
    const char *name;      /* event name */
    const char *args;      /* argument list as written in trace-events, "void" if none */
    const char *fmt;       /* format string as written in trace-events (with quotes) */
    uint32_t nargs;
    uint32_t strmask;      /* bit i set: argument i is a string */
};

struct pvomp_trace_catalog {
    uint32_t abi;                              /* PVOMP_TRACE_CATALOG_ABI */
    uint32_t count;                            /* number of events */
    const char *group;                         /* name given to the generator */
    const struct pvomp_trace_event_desc *events;
    uint8_t *state;                            /* count enabled flags, set by pvomp */
    uint64_t base_id;                          /* id of events[0] in the log, set by pvomp */
};

/* Give pvomp a catalog: assigns ids and turns on the events that
 * PVOMP_TRACE_EVENTS selects.  Returns 0, or -1 when tracing is off.
 * Generated code calls it from a constructor. */
int pvomp_trace_register(struct pvomp_trace_catalog *cat) PVOMP_TRACE_WEAK;

/* Reserve `size` bytes (PVOMP_TRACE_EVENT_HDR + arguments) for event `id`
 * in the calling thread's buffer, plus `extra` bytes for pvtrace_cut records
 * that follow it.  The header is filled in; returns a pointer to the record,
 * or NULL when the event was dropped (counted).  Must be followed by
 * pvomp_trace_commit() on the same thread when non-NULL. */
void *pvomp_trace_begin(uint64_t id, uint32_t size, uint32_t extra) PVOMP_TRACE_WEAK;
void pvomp_trace_commit(void) PVOMP_TRACE_WEAK;

/* Hand every thread's buffered records to the writer and wait until they are
 * in the file (not fsync'ed). */
void pvomp_trace_flush(void) PVOMP_TRACE_WEAK;

/* Nonzero when this process writes a trace. */
int pvomp_trace_active(void) PVOMP_TRACE_WEAK;

static inline void pvomp_trace_flush_if_available(void)
{
    void (*volatile fn)(void) = pvomp_trace_flush; /* NULL when not running on pvomp */
    if (fn)
        fn();
}

/* ------------------------------------------- helpers used by generated code */
static inline uint8_t *pvomp_trace_put_u64(uint8_t *p, uint64_t v)
{
    memcpy(p, &v, 8);
    return p + 8;
}

static inline uint8_t *pvomp_trace_put_str(uint8_t *p, const char *s, uint32_t len)
{
    memcpy(p, &len, 4);
    if (len)
        memcpy(p + 4, s, len);
    return p + 4 + len;
}

/* Length to record for string s (NULL is recorded as empty); *full gets the
 * real length when the string has to be cut. */
static inline uint32_t pvomp_trace_strlen(const char *s, size_t *full)
{
    size_t n;
    if (!s)
        return 0;
    n = strnlen(s, PVOMP_TRACE_STRMAX + 1);
    if (n > PVOMP_TRACE_STRMAX) {
        *full = strlen(s);
        return PVOMP_TRACE_STRMAX;
    }
    return (uint32_t)n;
}

/* The header of an event record of `size` bytes in all (header and
 * arguments) at p: record type, id, timestamp, length (from the id on, so
 * size - 8) and thread.  Every writer of a record header uses this. */
static inline uint8_t *pvomp_trace_put_header(uint8_t *p, uint64_t id, uint64_t ts,
                                              uint32_t size, uint32_t tid)
{
    uint64_t w[3] = { PVOMP_TRACE_REC_EVENT, id, ts };
    uint32_t lt[2] = { size - 8, tid };
    memcpy(p, w, sizeof w);
    memcpy(p + 24, lt, sizeof lt);
    return p + PVOMP_TRACE_EVENT_HDR;
}

/* Append a pvtrace_cut record after the event at `rec` (whose header gives
 * timestamp and thread): argument `arg` was cut from `full` bytes. */
static inline uint8_t *pvomp_trace_put_cut(uint8_t *p, const uint8_t *rec, uint64_t cut_id,
                                           uint64_t arg, uint64_t full)
{
    uint64_t ts;
    uint32_t tid;
    memcpy(&ts, rec + 16, 8);        /* timestamp of the event */
    memcpy(&tid, rec + 28, 4);       /* thread id */
    p = pvomp_trace_put_header(p, cut_id, ts, PVOMP_TRACE_CUT_REC, tid);
    memcpy(p, &arg, 8);
    memcpy(p + 8, &full, 8);
    return p + 16;
}

/* Id of the built-in pvtrace_cut event (always 4; see src/trace/trace-events). */
#define PVOMP_TRACE_CUT_ID 4ull

#ifdef __cplusplus
}
#endif

#endif
