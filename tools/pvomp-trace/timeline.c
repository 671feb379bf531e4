/* timeline: the log as Chrome trace-event JSON (opens in the Perfetto UI and
 * chrome://tracing), or as a self-contained HTML report with one SVG
 * timeline per thread and the stats tables.
 *
 * JSON is written as the merge goes (an interval when it ends); the HTML
 * needs the time range first, so it reads the log twice, and merges
 * intervals closer than half a pixel: its size is bounded by the width. */
#include <stdlib.h>
#include <string.h>

#include "reader.h"

static const char *const iv_color[IV__COUNT] = {
    [IV_REGION] = "#1b5e20", [IV_PARALLEL] = "#b9e4b4", [IV_BARRIER] = "#f4a300",
    [IV_SPIN] = "#e0301e", [IV_BLOCK] = "#2f5da8", [IV_CRIT_WAIT] = "#7b3f00",
    [IV_CRIT] = "#8e44ad", [IV_LOCK_WAIT] = "#a0522d", [IV_LOCK] = "#d16fc4",
    [IV_TASK] = "#2aa198", [IV_TARGET] = "#777777", [IV_PHANTOM] = "#222222",
};
/* Lane of each kind in a 22-pixel row: y, height.  Drawn in this order. */
static const struct {
    enum tr_iv kind;
    int y, h;
} lanes[] = {
    { IV_PARALLEL, 3, 18 }, { IV_REGION, 0, 3 }, { IV_TASK, 3, 8 }, { IV_TARGET, 3, 8 },
    { IV_BARRIER, 3, 8 }, { IV_CRIT, 3, 8 }, { IV_LOCK, 3, 8 }, { IV_CRIT_WAIT, 12, 9 },
    { IV_LOCK_WAIT, 12, 9 }, { IV_SPIN, 12, 9 }, { IV_BLOCK, 12, 9 }, { IV_PHANTOM, 3, 18 },
};
#define NLANES (sizeof lanes / sizeof lanes[0])
#define ROW_H 22
#define MAX_ROWS 512

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
            const char *name = tr_is_code_arg(r->d, i) ? tr_names_get(j->a->log->names, r->u[i])
                                                        : NULL;
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

/* The monotonic clock minus the log's clock (ns): logs of one host share
 * CLOCK_MONOTONIC, so their records line up on it. */
int64_t tr_log_mono_offset(const struct tr_log *log)
{
    return log->clock_mono || log->clock_ts ? (int64_t)(log->clock_mono - log->clock_ts) : 0;
}

const char *tr_log_lane(const struct tr_log *log)
{
    const char *s = strrchr(log->path, '/');
    return s ? s + 1 : log->path;
}

static void timeline_json(struct tr_log **logs, size_t n, struct tr_out *o)
{
    bool first = true;
    int64_t base = INT64_MAX; /* the earliest record, on the monotonic clock */
    for (size_t i = 0; i < n; i++) {
        int64_t t = (int64_t)logs[i]->first_ts + tr_log_mono_offset(logs[i]);
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
        tr_out_str(o, "],\"time_base\":\"CLOCK_MONOTONIC of each log\"");
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
        json_log(log, o, &first, (uint64_t)(base - tr_log_mono_offset(log)), pid,
                 label ? label : exe);
        free(label);
    }
    tr_out_str(o, "\n]}\n");
}

/* ---------------------------------------------------------------- HTML */
struct rect {
    float x0, x1;
    uint32_t n;
    uint64_t ns;
};

struct lane_rects {
    struct rect *v;
    size_t n, cap;
};

struct html {
    struct tr_analysis *a;
    uint64_t t0, t1;
    double px_per_ns;
    unsigned width;
    struct lane_rects *rows;   /* rows * IV__COUNT */
};

static void html_interval(void *ctx, uint32_t thr, enum tr_iv kind, uint64_t s, uint64_t e)
{
    struct html *h = ctx;
    if (thr >= MAX_ROWS && thr + 1 != h->a->nthr)
        return;
    uint32_t row = thr + 1 == h->a->nthr ? MAX_ROWS : thr;
    struct lane_rects *l = &h->rows[(size_t)row * IV__COUNT + kind];
    float x0 = (float)((double)(s - h->t0) * h->px_per_ns);
    float x1 = (float)((double)(e - h->t0) * h->px_per_ns);
    if (l->n && x0 - l->v[l->n - 1].x1 < 0.5f) {
        struct rect *r = &l->v[l->n - 1];
        if (x1 > r->x1)
            r->x1 = x1;
        r->n++;
        r->ns += e - s;
        return;
    }
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        if (!l->v) {
            fprintf(stderr, "pvomp-trace: out of memory\n");
            exit(1);
        }
    }
    l->v[l->n++] = (struct rect){ x0, x1, 1, e - s };
}

static void nice_step(double span_ns, double *step, const char **unit, double *div)
{
    double target = span_ns / 8, p = 1;
    while (p * 10 <= target)
        p *= 10;
    *step = target >= 5 * p ? 5 * p : target >= 2 * p ? 2 * p : p;
    if (*step >= 1e9) {
        *unit = "s";
        *div = 1e9;
    } else if (*step >= 1e6) {
        *unit = "ms";
        *div = 1e6;
    } else if (*step >= 1e3) {
        *unit = "us";
        *div = 1e3;
    } else {
        *unit = "ns";
        *div = 1;
    }
}

static void html_row(struct html *h, struct tr_out *o, size_t row, const char *label)
{
    tr_out_str(o, "<div class=\"row\"><div class=\"lbl\">");
    tr_out_html(o, (const uint8_t *)label, strlen(label));
    tr_out_fmt(o, "</div><svg class=\"tl\" width=\"%u\" height=\"%d\" "
                  "xmlns=\"http://www.w3.org/2000/svg\">", h->width, ROW_H);
    tr_out_fmt(o, "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%d\" fill=\"#f7f7f7\"/>", h->width,
               ROW_H);
    for (size_t li = 0; li < NLANES; li++) {
        enum tr_iv k = lanes[li].kind;
        struct lane_rects *l = &h->rows[row * IV__COUNT + k];
        for (size_t i = 0; i < l->n; i++) {
            struct rect *r = &l->v[i];
            float w = r->x1 - r->x0;
            if (w < 0.6f)
                w = 0.6f;
            tr_out_fmt(o, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\">"
                          "<title>%s: %u interval(s), %.3f us</title></rect>",
                       r->x0, lanes[li].y, w, lanes[li].h, iv_color[k], tr_iv_name[k], r->n,
                       (double)r->ns / 1e3);
        }
    }
    tr_out_str(o, "</svg></div>\n");
}

static void timeline_html(struct tr_log *log, const struct tr_opts *opt, struct tr_out *o)
{
    struct tr_analysis a = { 0 };
    tr_analysis_init(&a, log);
    tr_analysis_run(&a);                      /* pass 1: range and stats */
    struct html h = { .a = &a, .t0 = a.t0, .t1 = a.t1 > a.t0 ? a.t1 : a.t0 + 1,
                      .width = opt->width ? opt->width : 1200 };
    h.px_per_ns = (double)h.width / (double)(h.t1 - h.t0);
    h.rows = calloc((size_t)(MAX_ROWS + 1) * IV__COUNT, sizeof *h.rows);
    if (!h.rows) {
        fprintf(stderr, "pvomp-trace: out of memory\n");
        exit(1);
    }
    struct tr_analysis b = { .on_interval = html_interval, .ctx = &h };
    tr_analysis_init(&b, log);
    h.a = &b;
    tr_analysis_run(&b);                      /* pass 2: the intervals */

    const char *title = log->exe ? log->exe : log->path;
    tr_out_str(o, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>pvomp trace: ");
    tr_out_html(o, (const uint8_t *)title, strlen(title));
    tr_out_str(o, "</title>\n<style>\n"
                  "body{font:13px sans-serif;margin:16px;color:#222}\n"
                  "h1{font-size:18px} h2{font-size:15px;margin-top:24px}\n"
                  ".row{display:flex;align-items:center;height:24px}\n"
                  ".lbl{width:140px;font:12px monospace;text-align:right;padding-right:8px}\n"
                  "svg.tl{display:block;border-left:1px solid #999}\n"
                  ".legend span{display:inline-block;margin-right:14px}\n"
                  ".legend i{display:inline-block;width:12px;height:12px;margin-right:4px;"
                  "vertical-align:-2px}\n"
                  "table{border-collapse:collapse;margin-top:6px}\n"
                  "td,th{border:1px solid #ccc;padding:2px 6px}\n"
                  "table.num td{text-align:right} table.num td:first-child{text-align:left}\n"
                  ".bad{background:#fdd} .warn{color:#a00}\n"
                  "</style></head><body>\n<h1>pvomp trace: ");
    tr_out_html(o, (const uint8_t *)title, strlen(title));
    tr_out_str(o, "</h1>\n<p>");
    tr_out_html(o, (const uint8_t *)log->path, strlen(log->path));
    tr_out_fmt(o, " &mdash; %llu records, %.3f ms, clock %s, dropped %llu%s</p>\n",
               (unsigned long long)a.records, (double)(a.t1 - a.t0) / 1e6,
               log->clock_source ? log->clock_source : "?", (unsigned long long)a.dropped,
               log->has_end || !log->is_pvomp ? ""
                                               : " &mdash; <b class=\"warn\">no end record: "
                                                 "the process did not close the log</b>");
    tr_out_str(o, "<div class=\"legend\">");
    for (size_t li = 0; li < NLANES; li++)
        tr_out_fmt(o, "<span><i style=\"background:%s\"></i>%s</span>", iv_color[lanes[li].kind],
                   tr_iv_name[lanes[li].kind]);
    tr_out_str(o, "</div>\n");

    /* Time axis. */
    double step, div;
    const char *unit;
    nice_step((double)(h.t1 - h.t0), &step, &unit, &div);
    tr_out_fmt(o, "<div class=\"row\"><div class=\"lbl\">time</div><svg width=\"%u\" "
                  "height=\"20\" xmlns=\"http://www.w3.org/2000/svg\">", h.width + 40);
    for (double t = 0; t <= (double)(h.t1 - h.t0); t += step) {
        double x = t * h.px_per_ns;
        tr_out_fmt(o, "<line x1=\"%.1f\" y1=\"14\" x2=\"%.1f\" y2=\"20\" stroke=\"#666\"/>"
                      "<text x=\"%.1f\" y=\"11\" font-size=\"10\">%g %s</text>",
                   x, x, x + 1, t / div, unit);
    }
    tr_out_str(o, "</svg></div>\n");

    struct tr_thr *top = &b.thr[b.nthr - 1];
    if (top->n[IV_PHANTOM])
        html_row(&h, o, MAX_ROWS, "phantoms");
    size_t shown = 0;
    for (size_t i = 0; i + 1 < b.nthr; i++) {
        if (!b.thr[i].records)
            continue;
        if (i >= MAX_ROWS) {
            tr_out_fmt(o, "<p>%zu more threads not drawn.</p>\n", b.nthr - 1 - i);
            break;
        }
        char label[48];
        snprintf(label, sizeof label, "thread %u", b.thr[i].tid);
        html_row(&h, o, i, label);
        shown++;
    }
    if (!shown)
        tr_out_str(o, "<p>No thread records.</p>\n");
    tr_stats_html(&b, o);
    tr_out_str(o, "</body></html>\n");

    for (size_t i = 0; i < (size_t)(MAX_ROWS + 1) * IV__COUNT; i++)
        free(h.rows[i].v);
    free(h.rows);
    tr_analysis_free(&a);
    tr_analysis_free(&b);
}

int tr_cmd_timeline(struct tr_log **logs, size_t n, const struct tr_opts *opt, FILE *f)
{
    struct tr_out o;
    tr_out_init(&o, f);
    if (opt->html)
        timeline_html(logs[0], opt, &o);
    else
        timeline_json(logs, n, &o);
    tr_out_flush(&o);
    free(o.buf);
    return 0;
}
