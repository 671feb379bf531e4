/* Where the writer's bytes go: the log file (logfile.c) or, in ring mode,
 * the in-memory flight recorder (flight.c).  The writer owns the sink it
 * chose at start and calls it only from its own thread (open and close from
 * the thread that starts and stops tracing); a sink never calls the writer:
 * it rings the doorbell (doorbell.h) when it wants a pass. */
#ifndef PV_TRACE_SINK_H
#define PV_TRACE_SINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/compiler.h"

struct iovec;

struct pv_trace_sink {
    /* The log begins with `preamble` (header, declarations); false: no log
     * (the sink said why). */
    bool (*open)(const void *preamble, size_t len);
    /* A pass of the writer is begin_pass, puts, end_pass. */
    void (*begin_pass)(void);
    void (*put_meta)(const void *bytes, size_t len);      /* the log's own records */
    void (*put_chunks)(struct iovec *iov, int k);         /* pairs: chunk header, its records */
    void (*end_pass)(bool final);
    void (*wait)(void);     /* a flush: what was put is in the file when this returns */
    uint64_t (*size)(void); /* bytes in the log so far (the cap, PVOMP_TRACE_MAX) */
    /* The end: `streams` and `chunks` for the end record; the log is complete. */
    void (*close)(uint64_t streams, uint64_t chunks);
    /* The writer could not start after open: the log stops here as it is. */
    void (*discard)(void);
    void (*forget)(void);   /* in a fork child: drop the parent's state */
};

extern const struct pv_trace_sink pv_trace_file_sink PV_HIDDEN;   /* logfile.c */
extern const struct pv_trace_sink pv_trace_flight_sink PV_HIDDEN; /* flight.c */

#endif
