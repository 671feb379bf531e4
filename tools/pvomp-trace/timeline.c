/* timeline: the log as Chrome trace-event JSON (opens in the Perfetto UI and
 * chrome://tracing), or (html.c) as a self-contained HTML report.
 *
 * JSON is written as the merge goes (an interval when it ends). */
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "commands.h"
#include "desc.h"
#include "html.h"
#include "log.h"
#include "names.h"
#include "out.h"
#include "records.h"
#include "tasks.h"
#include "timebase.h"


static bool is_interval_event(enum tr_kind k)
{
    switch (k) {
    case K_PARALLEL_BEGIN: case K_PARALLEL_END: case K_ITASK_BEGIN: case K_ITASK_END:
    case K_BARRIER_ENTER: case K_BARRIER_LEAVE: case K_WAIT_BEGIN: case K_WAIT_BLOCK:
    case K_WAIT_WAKE: case K_WAIT_END: case K_CRIT_ENTER: case K_CRIT_ACQ: case K_CRIT_REL:
    case K_LOCK_ENTER: case K_LOCK_ACQ: case K_LOCK_REL: case K_TASK_BEGIN: case K_TASK_END:
    case K_CRIT_HELD: case K_LOCK_HELD:
    case K_TARGET_BEGIN: case K_TARGET_END:
        return true;
    default:
        return false;
    }
}

/* ---------------------------------------------------------------- JSON */
struct json {
    struct tr_out *o;
    struct tr_analysis *a;
    uint64_t t0;
    uint64_t pid;
    bool first;
};

static void json_sep(struct json *j)
{
    if (!j->first)
        tr_out_str(j->o, ",\n");
    j->first = false;
}

static uint32_t json_tid(struct json *j, uint32_t thr)
{
    return thr + 1 == j->a->nthr ? 0 : j->a->thr[thr].tid;
}

static void json_interval(void *ctx, uint32_t thr, enum tr_iv kind, uint64_t s, uint64_t e)
{
    struct json *j = ctx;
    struct tr_out *o = j->o;
    json_sep(j);
    tr_out_str(o, "{\"ph\":\"X\",\"cat\":\"pvomp\",\"name\":\"");
    tr_out_str(o, tr_iv_name[kind]);
    tr_out_str(o, "\",\"pid\":");
    tr_out_u64(o, j->pid);
    tr_out_str(o, ",\"tid\":");
    tr_out_u64(o, json_tid(j, thr));
    tr_out_str(o, ",\"ts\":");
    tr_out_us3(o, (int64_t)(s - j->t0));
    tr_out_str(o, ",\"dur\":");
    tr_out_us3(o, (int64_t)(e - s));
    if (j->a->iv_fn) { /* the region's code: "args":{"fn":"0x..","fn_name":"main:42 (demo.c)"} */
        char hex[24];
        const char *name = tr_code_name(j->a->log, j->a->iv_fn, hex);
        tr_out_str(o, ",\"args\":{\"fn\":\"");
        tr_out_hex(o, j->a->iv_fn);
        tr_out_str(o, "\",\"fn_name\":");
        tr_out_json_str(o, (const uint8_t *)name, strlen(name));
        tr_out_char(o, '}');
    } else if (kind == IV_TASK) { /* "args":{"task":"main:41 (demo.c)","fn":"0x..","codeptr_ra":"0x.."} */
        const struct tr_task_site *t = &j->a->tasks.sites[j->a->iv_site];
        char hex[24];
        const char *name = tr_task_name(j->a->log, t, hex);
        tr_out_str(o, ",\"args\":{\"task\":");
        tr_out_json_str(o, (const uint8_t *)name, strlen(name));
        tr_out_str(o, ",\"fn\":\"");
        tr_out_hex(o, t->fn);
        tr_out_str(o, "\",\"codeptr_ra\":\"");
        tr_out_hex(o, t->ra);
        tr_out_str(o, "\"}");
    }
    tr_out_char(o, '}');
}

static void json_instant(struct json *j, const struct tr_rec *r, uint32_t thr)
{
    struct tr_out *o = j->o;
    json_sep(j);
    tr_out_str(o, "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"event\",\"name\":");
    tr_out_json_str(o, (const uint8_t *)r->d->name, strlen(r->d->name));
    tr_out_str(o, ",\"pid\":");
    tr_out_u64(o, j->pid);
    tr_out_str(o, ",\"tid\":");
    tr_out_u64(o, json_tid(j, thr));
    tr_out_str(o, ",\"ts\":");
    tr_out_us3(o, (int64_t)(r->ts - j->t0));
    tr_out_str(o, ",\"args\":{");
    for (unsigned i = 0; i < r->nargs; i++) {
        if (i)
            tr_out_char(o, ',');
        tr_out_json_str(o, (const uint8_t *)r->d->argname[i], strlen(r->d->argname[i]));
        tr_out_char(o, ':');
        if (r->d->is_str[i]) {
            tr_out_json_str(o, r->s[i], r->slen[i]);
        } else {
            tr_out_char(o, '"');
            tr_out_int_arg(o, r->d, i, r->u[i]);
            tr_out_char(o, '"');
            const char *name = tr_code_arg_name(j->a->log->names, r->d, i, r->u[i]);
            if (name) { /* "fn_name": "main:42 (demo.c)" */
                tr_out_char(o, ',');
                tr_out_char(o, '"');
                tr_out_str(o, r->d->argname[i]);
                tr_out_str(o, "_name\":");
                tr_out_json_str(o, (const uint8_t *)name, strlen(name));
            }
        }
    }
    tr_out_str(o, "}}");
    if (r->d->kind == K_PHANTOM) {
        json_sep(j);
        tr_out_str(o, "{\"ph\":\"C\",\"name\":\"phantoms\",\"pid\":");
        tr_out_u64(o, j->pid);
        tr_out_str(o, ",\"ts\":");
        tr_out_us3(o, (int64_t)(r->ts - j->t0));
        tr_out_str(o, ",\"args\":{\"phantoms\":");
        tr_out_u64(o, r->u[TR_ARG_phantom_change_phantoms]);
        tr_out_str(o, "}}");
    }
}

/* One log's events: a Perfetto process `pid`, its times from `t0` (in the
 * log's own clock). */
static void json_log(struct tr_log *log, struct tr_out *o, bool *first, uint64_t t0,
                     uint64_t pid, const char *label)
{
    struct json j = { .o = o, .t0 = t0, .pid = pid, .first = *first };
    struct tr_analysis a = { .on_interval = json_interval, .ctx = &j };
    tr_analysis_init(&a, log);
    j.a = &a;
    json_sep(&j);
    tr_out_str(o, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":");
    tr_out_u64(o, j.pid);
    tr_out_str(o, ",\"args\":{\"name\":");
    tr_out_json_str(o, (const uint8_t *)label, strlen(label));
    tr_out_str(o, "}}");
    json_sep(&j);
    tr_out_str(o, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":");
    tr_out_u64(o, j.pid);
    tr_out_str(o, ",\"tid\":0,\"args\":{\"name\":\"log / phantoms\"}}");
    for (size_t i = 0; i < log->nstreams; i++) {
        json_sep(&j);
        tr_out_fmt(o, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%llu,\"tid\":%u,"
                      "\"args\":{\"name\":\"thread %u\"}}",
                   (unsigned long long)j.pid, log->streams[i].tid, log->streams[i].tid);
    }
    struct tr_merge *m = tr_merge_new(log, false);
    const struct tr_rec *r;
    while (m && (r = tr_merge_next(m))) {
        tr_analysis_add(&a, r);
        if (!is_interval_event(r->d->kind)) {
            uint32_t thr = r->stream == UINT32_MAX ? (uint32_t)(a.nthr - 1) : r->stream;
            json_instant(&j, r, thr);
        }
    }
    tr_merge_free(m);
    tr_analysis_finish(&a);
    tr_analysis_free(&a);
    *first = j.first;
}

static void timeline_json(struct tr_log **logs, size_t n, struct tr_out *o)
{
    bool first = true;
    int64_t base = INT64_MAX; /* the earliest record, on the monotonic clock */
    for (size_t i = 0; i < n; i++) {
        int64_t t = tr_time_add((int64_t)logs[i]->first_ts, tr_log_time_offset(logs[i]));
        base = t < base ? t : base;
    }
    tr_out_str(o, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"log\":");
    tr_out_json_str(o, (const uint8_t *)logs[0]->path, strlen(logs[0]->path));
    tr_out_str(o, ",\"clock\":");
    const char *cs = logs[0]->clock_source ? logs[0]->clock_source : "unknown";
    tr_out_json_str(o, (const uint8_t *)cs, strlen(cs));
    if (n > 1) {
        tr_out_str(o, ",\"logs\":[");
        for (size_t i = 0; i < n; i++) {
            if (i)
                tr_out_char(o, ',');
            tr_out_json_str(o, (const uint8_t *)logs[i]->path, strlen(logs[i]->path));
        }
        tr_out_str(o, logs[0]->realtime_base ? "],\"time_base\":\"CLOCK_REALTIME of each log\""
                                             : "],\"time_base\":\"CLOCK_MONOTONIC of each log\"");
    }
    tr_out_str(o, "},\"traceEvents\":[\n");
    for (size_t i = 0; i < n; i++) {
        struct tr_log *log = logs[i];
        const char *exe = log->exe ? log->exe : log->path;
        char *label = NULL;
        if (n == 1 || asprintf(&label, "%s: %s (pid %llu)", tr_log_lane(log), exe,
                               (unsigned long long)log->pid) < 0)
            label = NULL;
        /* Perfetto keys processes by pid: another host's may repeat one. */
        uint64_t pid = log->pid;
        for (size_t k = 0; k < i; k++)
            if (logs[k]->pid == log->pid)
                pid += (uint64_t)(i + 1) << 32;
        json_log(log, o, &first, (uint64_t)tr_time_sub(base, tr_log_time_offset(log)), pid,
                 label ? label : exe);
        free(label);
    }
    tr_out_str(o, "\n]}\n");
}

int tr_cmd_timeline(struct tr_log **logs, size_t n, const struct tr_opts *opt, FILE *f)
{
    struct tr_out o;
    tr_out_init(&o, f);
    if (opt->html)
        tr_html_report(logs, n, opt, &o);
    else
        timeline_json(logs, n, &o);
    tr_out_flush(&o);
    free(o.buf);
    return 0;
}
