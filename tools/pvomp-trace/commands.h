/* pvomp-trace's commands (main.c parses the command line): their options
 * and one function each. */
#ifndef PVOMP_TRACE_COMMANDS_H
#define PVOMP_TRACE_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "log.h"

struct tr_opts {
    const char *events_file;
    const char *output;
    bool simpletrace;       /* dump: exactly like QEMU's simpletrace.py */
    bool file_order;        /* dump: file order instead of time order */
    bool all;               /* dump: include the log's own records */
    bool absolute;          /* dump: time since the start instead of deltas */
    bool html, json;        /* timeline */
    unsigned width;         /* timeline html: pixels */
    unsigned top;           /* advise: at most this many findings (0: 10) */
    const char *debuginfo;  /* --debuginfo DIR: separate debug files by build-id */
    bool realtime_base;     /* --time-base realtime */
    size_t noffsets;        /* --clock-offset LOG=NS */
    struct tr_clock_offset {
        const char *log;
        int64_t ns;
        bool used;
    } offsets[64];
};
int tr_cmd_dump(struct tr_log *log, const struct tr_opts *o, FILE *out);
/* stats and timeline --json take several logs (MPI ranks, processes of one
 * host): one summary, one timeline on the monotonic clock. */
int tr_cmd_stats(struct tr_log **logs, size_t n, const struct tr_opts *o, FILE *out);
int tr_cmd_timeline(struct tr_log **logs, size_t n, const struct tr_opts *o, FILE *out);
/* advise (advise_out.c): findings ranked by estimated gain, text or --json. */
int tr_cmd_advise(struct tr_log **logs, size_t n, const struct tr_opts *o, FILE *out);
int tr_cmd_events(struct tr_log *log, FILE *out);      /* log may be NULL: built-in catalog */
int tr_cmd_snapshot(int argc, char **argv, FILE *out);  /* snapshot.c: argv = PID */

#endif
