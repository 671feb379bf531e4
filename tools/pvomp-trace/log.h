/* A log: what the scan (scan.c) learns of it -- header, descriptors,
 * streams, process, clock, loaded objects, how it ends -- and one record
 * decoded.
 *
 * A log (pvomp's, or QEMU's simpletrace v4) is read in two passes over the
 * file, never loaded whole:
 *   scan   (scan.c)  walks the top-level records once: header, name
 *                    mappings, declarations, process and clock records, and
 *                    the pvtrace_chunk records that frame each thread's data
 *                    (their payload is skipped).  It learns the event
 *                    descriptors and the list of streams (one per thread).
 *   merge  (merge.c, records.h) reads every stream with its own cursor and a
 *                    small window of the file, and returns records in time
 *                    order with a heap: memory is O(streams) for the stream
 *                    table plus one window per stream that is active at
 *                    that time.
 * Errors carry the byte offset; whatever was read before an error is kept. */
#ifndef PVOMP_TRACE_LOG_H
#define PVOMP_TRACE_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "desc.h"
#include "diag.h"
#include "idmap.h"

#define TR_MAX_RECORD (1u << 20)       /* a longer record is corrupt */
#define TR_MAX_NAME 4096u
#define TR_MAX_CHUNK (1ull << 32)      /* a longer chunk is corrupt */
#define TR_DIRECT_IDS 1024     /* small ids looked up directly */

struct tr_names;

struct tr_stream {
    uint64_t id;            /* stream number from pvtrace_chunk (0: top level) */
    uint32_t tid;
    uint64_t first_chunk;   /* offset of its first pvtrace_chunk record */
    uint64_t last_chunk;
    uint64_t first_ts;      /* from the first chunk header */
    uint64_t nchunks;
    uint64_t next_seq;
    uint64_t bytes;
    bool truncated;         /* its last chunk runs past the end of the file */
    /* filled in by analyses */
    uint64_t records, dropped, last_ts;
};

struct tr_object {          /* one pvtrace_object record */
    uint64_t bias, start, end;  /* ELF address + bias = address; [start, end) mapped */
    char *path, *build_id;      /* build_id: hex, "" when the object has none */
};

struct tr_log {
    const char *path;
    int fd;
    uint64_t size;
    struct tr_diag diag;

    struct tr_desc *descs;   /* descs[0] is the dropped-events pseudo event */
    size_t ndescs, descs_cap;
    struct tr_idmap ids;
    uint32_t direct[TR_DIRECT_IDS]; /* id -> descriptor index + 1 (0: unknown) */
    struct tr_desc *side;    /* from an --events file, by name */
    size_t nside;

    struct tr_stream *streams;
    size_t nstreams, streams_cap;
    struct tr_idmap stream_ix; /* stream id -> index */

    uint64_t chunk_id, cut_id;  /* ids of pvtrace_chunk / pvtrace_cut (UINT64_MAX: none) */
    uint64_t data_start;     /* first record after the header */
    uint64_t valid_end;      /* where the top-level walk stopped */
    uint64_t top_events;     /* top-level event records that are not meta */
    bool has_chunks;
    bool is_pvomp;           /* has the pvtrace_* records: must end with pvtrace_end */
    bool has_enum_decls;     /* names pvtrace_enum: its enumerations are its own */
    struct tr_enum **enums;  /* from its pvtrace_enum records */
    size_t nenums;
    bool has_end;
    uint64_t end_streams, end_chunks, end_bytes;
    /* a ring-mode snapshot (pvtrace_snapshot): why, which, what was overwritten */
    char *snap_reason;
    uint64_t snap_number, snap_over_events, snap_over_chunks;

    /* process and clock (pvtrace_process / pvtrace_clock) */
    uint64_t pid;
    char *exe, *cmdline, *runtime, *clock_source;
    uint64_t clock_hz, clock_mono, clock_real, clock_ts;
    uint64_t first_ts, last_ts;  /* over records seen by the scan */
    /* the time base of several logs (set by the caller: --time-base,
     * --clock-offset): CLOCK_REALTIME instead of CLOCK_MONOTONIC, and a
     * shift in ns added to this log's times */
    bool realtime_base;
    int64_t shift_ns;

    /* the loaded objects (pvtrace_object), in log order */
    struct tr_object *objects;
    size_t nobjects;
    struct tr_names *names;  /* set by the caller (tr_names_open), or NULL */
};

/* Open and scan.  Returns 0, or -1 when the file is not a readable log
 * (message printed).  events_file: optional trace-events file for logs
 * without declarations (QEMU's). */
int tr_log_open(struct tr_log *log, const char *path, const char *events_file, FILE *diag);
/* Same for a log already open as fd (the fuzz target uses a memfd). */
int tr_log_open_fd(struct tr_log *log, int fd, const char *name, const char *events_file,
                   FILE *diag);
void tr_log_close(struct tr_log *log);
struct tr_desc *tr_log_desc(struct tr_log *log, uint64_t id); /* NULL when unknown */
/* Print the "where the log ends" summary; returns true if the log is complete. */
bool tr_log_report_end(struct tr_log *log);

struct tr_rec {
    struct tr_desc *d;      /* never NULL (descs[0] for dropped records) */
    uint64_t id, ts, off;
    uint32_t tid;
    uint32_t stream;        /* index into log->streams, or UINT32_MAX (top level) */
    unsigned nargs;
    uint64_t u[TR_MAX_ARGS];
    const uint8_t *s[TR_MAX_ARGS];
    uint32_t slen[TR_MAX_ARGS];
    uint64_t cut[TR_MAX_ARGS]; /* original length of a cut string, or 0 */
};

/* Decode the arguments of the record whose header is at hdr (length bytes
 * from the id on).  Returns NULL or an error message. */
const char *tr_decode(struct tr_log *log, const uint8_t *rec, uint32_t length, struct tr_rec *out);

#endif
