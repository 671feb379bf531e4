/* timeline --html: one self-contained HTML file, the stats tables and an
 * interactive timeline (report/report.js, embedded with report/report.css).
 *
 * The timeline's data is JSON in the page: every interval of every thread,
 * by kind, sorted by start.  Intervals of one kind closer than a quantum
 * (at first the log's span / 2^26: a pixel at 50000x zoom of a 1200-pixel
 * view) are merged, counting how many and their busy time; whenever that
 * leaves more than MAX_INTERVALS, the quantum doubles and the lists merge
 * again, so a page stays small enough to open in a few seconds (and the
 * reader's memory bounded) whatever the log. */
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "analyze.h"
#include "commands.h"
#include "html.h"
#include "log.h"
#include "mem.h"
#include "names.h"
#include "out.h"
#include "stats.h"
#include "timebase.h"

extern const char tr_report_js[], tr_report_css[];

#define MAX_INTERVALS (3u << 20)
#define MAX_REGIONS (1u << 18)
#define MAX_ROWS 512

static const char *const iv_color[IV__COUNT] = {
    [IV_REGION] = "#1b5e20", [IV_PARALLEL] = "#b9e4b4", [IV_BARRIER] = "#f4a300",
    [IV_SPIN] = "#e0301e", [IV_BLOCK] = "#2f5da8", [IV_CRIT_WAIT] = "#7b3f00",
    [IV_CRIT] = "#8e44ad", [IV_LOCK_WAIT] = "#a0522d", [IV_LOCK] = "#d16fc4",
    [IV_TASK] = "#2aa198", [IV_TARGET] = "#777777", [IV_PHANTOM] = "#222222",
};
/* Lane of each kind in a 22-pixel row: y, height; drawn in this order (a
 * task a thread runs while it waits in a barrier over the barrier). */
static const struct {
    enum tr_iv kind;
    int y, h;
} lanes[] = {
    { IV_PARALLEL, 3, 18 }, { IV_REGION, 0, 3 }, { IV_BARRIER, 3, 8 }, { IV_TASK, 3, 8 },
    { IV_TARGET, 3, 8 }, { IV_CRIT, 3, 8 }, { IV_LOCK, 3, 8 }, { IV_CRIT_WAIT, 12, 9 },
    { IV_LOCK_WAIT, 12, 9 }, { IV_SPIN, 12, 9 }, { IV_BLOCK, 12, 9 }, { IV_PHANTOM, 3, 18 },
};
#define NLANES (sizeof lanes / sizeof lanes[0])

struct iv {
    uint64_t s, e, busy;
    uint32_t n;
    int32_t fn;            /* index into report.fns, or -1 */
};
struct ivs {
    struct iv *v;
    size_t n, cap;
};
struct region {            /* a region instance, or a task's run */
    int32_t fn;
    uint64_t s, e;
};
struct instances {
    struct region *v;
    size_t n, cap, dropped;
};
struct row {
    char label[112];
    bool thread;           /* a thread's row (else a log's phantom row) */
    struct ivs iv[IV__COUNT];
};
struct report {
    struct tr_analysis *a; /* the log being read (pass 2) */
    int64_t sub;           /* page time = log time - sub (one time base for all logs) */
    uint64_t quantum;
    struct row *rows;
    size_t nrows, rows_cap;
    int64_t *thr_row;      /* the log's stream -> row, or -1; the top level: its phantom row */
    char **fns;            /* regions' and tasks' names: logs of one program share them */
    size_t nfns, fns_cap;
    struct fn_addr {       /* this log's function addresses and their indexes */
        uint64_t addr;
        int32_t fn;
    } *addrs;
    size_t naddr, addr_cap;
    int32_t *site_fn;      /* this log's task sites -> fns index + 1 (0: not yet) */
    size_t nsite_fn;
    struct instances regions, tasks;
    size_t total;          /* intervals held in rows */
};

static void *grow(void *p, size_t *cap, size_t size)
{
    *cap = *cap ? 2 * *cap : 16;
    return tr_xrealloc(p, *cap, size);
}

/* A name's index in report.fns. */
static int32_t name_index(struct report *r, const char *name)
{
    size_t k = 0;
    while (k < r->nfns && strcmp(r->fns[k], name))
        k++;
    if (k == r->nfns) {
        if (r->nfns == r->fns_cap)
            r->fns = grow(r->fns, &r->fns_cap, sizeof *r->fns);
        r->fns[r->nfns++] = tr_xstrdup(name);
    }
    return (int32_t)k;
}

/* A region function's index, by name (each process has its own addresses). */
static int32_t fn_index(struct report *r, uint64_t fn)
{
    if (!fn)
        return -1;
    for (size_t i = r->naddr; i-- > 0;)    /* few functions; the last one is the likely one */
        if (r->addrs[i].addr == fn)
            return r->addrs[i].fn;
    char hex[24];
    int32_t k = name_index(r, tr_code_name(r->a->log, fn, hex));
    if (r->naddr == r->addr_cap)
        r->addrs = grow(r->addrs, &r->addr_cap, sizeof *r->addrs);
    r->addrs[r->naddr++] = (struct fn_addr){ fn, k };
    return k;
}

/* A task site's name's index (tr_task_name). */
static int32_t site_index(struct report *r, uint32_t site)
{
    if (site >= r->nsite_fn) {
        size_t n = r->a->tasks.nsites > site ? r->a->tasks.nsites : site + 1;
        r->site_fn = tr_xrealloc(r->site_fn, n, sizeof *r->site_fn);
        memset(r->site_fn + r->nsite_fn, 0, (n - r->nsite_fn) * sizeof *r->site_fn);
        r->nsite_fn = n;
    }
    if (!r->site_fn[site]) {
        char hex[24];
        r->site_fn[site] = 1 + name_index(r, tr_task_name(r->a->log, &r->a->tasks.sites[site], hex));
    }
    return r->site_fn[site] - 1;
}

/* Append, or merge into the previous interval of the list when the gap is
 * under the quantum and the function agrees.  Returns whether it appended. */
static bool add(struct ivs *l, uint64_t quantum, struct iv iv)
{
    if (l->n) {
        struct iv *p = &l->v[l->n - 1];
        if (p->fn == iv.fn && iv.s >= p->s && iv.s <= p->e + quantum) {
            if (iv.e > p->e)
                p->e = iv.e;
            p->n += iv.n;
            p->busy += iv.busy;
            return false;
        }
    }
    if (l->n == l->cap)
        l->v = grow(l->v, &l->cap, sizeof *l->v);
    l->v[l->n++] = iv;
    return true;
}

static int by_start(const void *x, const void *y)
{
    const struct iv *a = x, *b = y;
    return a->s < b->s ? -1 : a->s > b->s;
}

/* Sort each list by start (nested intervals end first), then, while more
 * than `limit` intervals are held, double the quantum and merge again. */
static void coarsen(struct report *r, size_t limit)
{
    size_t nl = r->nrows * IV__COUNT;
#define LIST(i) (&r->rows[(i) / IV__COUNT].iv[(i) % IV__COUNT])
    for (size_t i = 0; i < nl; i++)
        if (LIST(i)->n > 1)
            qsort(LIST(i)->v, LIST(i)->n, sizeof(struct iv), by_start);
    while (r->total > limit) {
        r->quantum = r->quantum ? 2 * r->quantum : 1;
        r->total = 0;
        for (size_t i = 0; i < nl; i++) {
            struct ivs *l = LIST(i);
            size_t n = l->n;
            l->n = 0;
            for (size_t k = 0; k < n; k++)
                add(l, r->quantum, l->v[k]);  /* writes at or before k */
            r->total += l->n;
        }
    }
#undef LIST
}

static void on_interval(void *ctx, uint32_t thr, enum tr_iv kind, uint64_t s, uint64_t e)
{
    struct report *r = ctx;
    int64_t row = r->thr_row[thr];
    if (row < 0)
        return;
    int32_t fn = kind == IV_REGION || kind == IV_PARALLEL ? fn_index(r, r->a->iv_fn)
                 : kind == IV_TASK                    ? site_index(r, r->a->iv_site)
                                                      : -1;
    uint64_t ps = (uint64_t)tr_time_sub((int64_t)s, r->sub);
    uint64_t pe = (uint64_t)tr_time_sub((int64_t)e, r->sub);
    if (add(&r->rows[row].iv[kind], r->quantum,
            (struct iv){ .s = ps, .e = pe, .busy = e - s, .n = 1, .fn = fn }) &&
        ++r->total > 2 * MAX_INTERVALS)
        coarsen(r, MAX_INTERVALS);            /* bounds the reader's memory too */
    if (kind == IV_REGION || kind == IV_TASK) {  /* the drill-down's instances */
        struct instances *l = kind == IV_REGION ? &r->regions : &r->tasks;
        if (l->n == MAX_REGIONS) {
            l->dropped++;
            return;
        }
        if (l->n == l->cap)
            l->v = grow(l->v, &l->cap, sizeof *l->v);
        l->v[l->n++] = (struct region){ fn, ps, pe };
    }
}

static int region_by_start(const void *x, const void *y)
{
    const struct region *a = x, *b = y;
    return a->s < b->s ? -1 : a->s > b->s;
}

static size_t settle(struct report *r)
{
    coarsen(r, MAX_INTERVALS);
    if (r->regions.n > 1)
        qsort(r->regions.v, r->regions.n, sizeof *r->regions.v, region_by_start);
    if (r->tasks.n > 1)
        qsort(r->tasks.v, r->tasks.n, sizeof *r->tasks.v, region_by_start);
    return r->total;
}

static void json_name(struct tr_out *o, const char *s)
{
    tr_out_json_str(o, (const uint8_t *)s, strlen(s));
}

static void row_json(struct tr_out *o, const struct row *w)
{
    tr_out_str(o, "{\"label\":");
    json_name(o, w->label);
    tr_out_str(o, ",\"iv\":{");
    bool first = true;
    for (int k = 0; k < IV__COUNT; k++) {
        const struct ivs *l = &w->iv[k];
        if (!l->n)
            continue;
        tr_out_fmt(o, "%s\"%d\":[", first ? "" : ",", k);
        first = false;
        uint64_t prev = 0;
        for (size_t i = 0; i < l->n; i++) {
            const struct iv *v = &l->v[i];
            if (i)
                tr_out_char(o, ',');
            tr_out_u64(o, v->s - prev);
            tr_out_char(o, ',');
            tr_out_u64(o, v->e - v->s);
            tr_out_char(o, ',');
            tr_out_u64(o, v->n);
            tr_out_char(o, ',');
            tr_out_u64(o, v->busy);
            tr_out_str(o, v->fn < 0 ? ",-1" : ",");
            if (v->fn >= 0)
                tr_out_u64(o, (uint64_t)v->fn);
            prev = v->s;
        }
        tr_out_char(o, ']');
    }
    tr_out_str(o, "}}");
}

static bool row_empty(const struct row *w)
{
    for (int k = 0; k < IV__COUNT; k++)
        if (w->iv[k].n)
            return false;
    return true;
}

/* [[name index, start, duration], ...] */
static void instances_json(struct tr_out *o, const struct instances *l)
{
    tr_out_char(o, '[');
    for (size_t i = 0; i < l->n; i++) {
        const struct region *g = &l->v[i];
        tr_out_fmt(o, "%s[%d,", i ? "," : "", g->fn);
        tr_out_u64(o, g->s);
        tr_out_char(o, ',');
        tr_out_u64(o, g->e - g->s);
        tr_out_char(o, ']');
    }
    tr_out_char(o, ']');
}

static void data_json(struct report *r, struct tr_out *o, uint64_t span)
{
    tr_out_fmt(o, "{\"t1\":%llu,\"quantum\":%llu,\"kinds\":[", (unsigned long long)span,
               (unsigned long long)r->quantum);
    for (int k = 0; k < IV__COUNT; k++) {
        tr_out_str(o, k ? "," : "");
        json_name(o, tr_iv_name[k]);
    }
    tr_out_str(o, "],\"colors\":[");
    for (int k = 0; k < IV__COUNT; k++) {
        tr_out_str(o, k ? "," : "");
        json_name(o, iv_color[k]);
    }
    tr_out_str(o, "],\"lanes\":[");
    for (size_t i = 0; i < NLANES; i++)
        tr_out_fmt(o, "%s[%d,%d,%d]", i ? "," : "", lanes[i].kind, lanes[i].y, lanes[i].h);
    tr_out_str(o, "],\"fns\":[");
    for (size_t i = 0; i < r->nfns; i++) {
        tr_out_str(o, i ? "," : "");
        json_name(o, r->fns[i]);
    }
    tr_out_str(o, "],\"regions\":");
    instances_json(o, &r->regions);
    tr_out_str(o, ",\"tasks\":");
    instances_json(o, &r->tasks);
    tr_out_str(o, ",\"rows\":[\n");
    bool first = true;
    for (size_t i = 0; i < r->nrows; i++) {
        if (!r->rows[i].thread && row_empty(&r->rows[i]))
            continue;                         /* a log without phantom episodes */
        tr_out_str(o, first ? "" : ",\n");
        first = false;
        row_json(o, &r->rows[i]);
    }
    tr_out_str(o, "]}");
}

static void page_head(struct tr_log **logs, struct tr_analysis *as, size_t n, struct tr_out *o)
{
    char many[48];
    snprintf(many, sizeof many, "%zu logs", n);
    const char *title = n > 1 ? many : logs[0]->exe ? logs[0]->exe : logs[0]->path;
    tr_out_str(o, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>pvomp trace: ");
    tr_out_html(o, (const uint8_t *)title, strlen(title));
    tr_out_str(o, "</title>\n<style>\n");
    tr_out_str(o, tr_report_css);
    tr_out_str(o, "</style></head><body>\n<h1>pvomp trace: ");
    tr_out_html(o, (const uint8_t *)title, strlen(title));
    tr_out_str(o, "</h1>\n");
    for (size_t i = 0; i < n; i++) {
        struct tr_log *log = logs[i];
        struct tr_analysis *a = &as[i];
        tr_out_str(o, "<p class=\"log\">");
        if (n > 1 && log->exe) {
            tr_out_html(o, (const uint8_t *)log->exe, strlen(log->exe));
            tr_out_fmt(o, " (pid %llu): ", (unsigned long long)log->pid);
        }
        tr_out_html(o, (const uint8_t *)log->path, strlen(log->path));
        tr_out_fmt(o, " &mdash; %llu records, %.3f ms, clock %s, dropped %llu%s</p>\n",
                   (unsigned long long)a->records, (double)(a->t1 - a->t0) / 1e6,
                   log->clock_source ? log->clock_source : "?", (unsigned long long)a->dropped,
                   log->has_end || !log->is_pvomp ? ""
                                                   : " &mdash; <b class=\"warn\">no end record: "
                                                     "the process did not close the log</b>");
    }
    if (n > 1)
        tr_out_str(o, logs[0]->realtime_base
                          ? "<p class=\"note\">One time base: each log's CLOCK_REALTIME (hosts "
                            "whose clocks NTP keeps together, to about a millisecond).</p>\n"
                          : "<p class=\"note\">One time base: each log's CLOCK_MONOTONIC (logs of "
                            "one host).</p>\n");
    tr_out_str(o, "<div class=\"legend\">");
    for (size_t li = 0; li < NLANES; li++)
        tr_out_fmt(o, "<span><i style=\"background:%s\"></i>%s</span>", iv_color[lanes[li].kind],
                   tr_iv_name[lanes[li].kind]);
    tr_out_str(o, "</div>\n");
}

static void page_timeline(struct tr_out *o, size_t total, const struct report *r)
{
    tr_out_str(o, "<div class=\"tools\"><button id=\"zin\" title=\"zoom in (+, wheel)\">+</button>"
                  "<button id=\"zout\" title=\"zoom out (-, wheel)\">&minus;</button>"
                  "<button id=\"zreset\" title=\"whole log (0, double click)\">whole log</button>"
                  " <span id=\"range\"></span></div>\n");
    if (r->quantum > 1 || r->regions.dropped || r->tasks.dropped)
        tr_out_fmt(o, "<p class=\"note\">Intervals of a kind less than %.3f us apart are merged "
                      "(%zu in the page)%s%s.</p>\n", (double)r->quantum / 1e3, total,
                   r->regions.dropped ? "; only the first 262144 region instances are listed"
                                      : "",
                   r->tasks.dropped ? "; only the first 262144 task runs are listed" : "");
    tr_out_str(o, "<div id=\"tlbox\"><div id=\"labels\"><div class=\"lbl\">time</div></div>"
                  "<div id=\"plot\"><canvas id=\"axis\"></canvas><canvas id=\"tl\"></canvas>"
                  "</div></div>\n<div id=\"tip\"></div>\n<div id=\"detail\"></div>\n"
                  "<h2>Regions</h2>\n<p>Click a region for its instances, an instance to zoom "
                  "to it and see what each thread did.</p>\n<table class=\"num\" id=\"regions\">"
                  "</table>\n");
    if (r->tasks.n)
        tr_out_str(o, "<h2>Tasks</h2>\n<p>By the construct that created them (else their body); "
                      "click one for its runs.</p>\n<table class=\"num\" id=\"tasks\"></table>\n");
    tr_out_str(o, "<div id=\"instances\"></div>\n");
}

/* The rows of one log: its phantom row, then its threads with records
 * (at most MAX_ROWS thread rows in the page); thr_row maps its streams. */
static size_t add_rows(struct report *r, struct tr_analysis *a, bool many, size_t *threads)
{
    const char *lane = tr_log_lane(a->log);
    size_t top = a->nthr - 1, hidden = 0;
    r->thr_row = tr_xcalloc(a->nthr, sizeof *r->thr_row);
    for (size_t i = 0; i < a->nthr; i++) {
        bool thread = i != top;
        r->thr_row[i] = -1;
        if (thread && !a->thr[i].records)
            continue;
        if (thread && *threads == MAX_ROWS) {
            hidden++;
            continue;
        }
        if (r->nrows == r->rows_cap)
            r->rows = grow(r->rows, &r->rows_cap, sizeof *r->rows);
        struct row *w = &r->rows[r->nrows];
        memset(w, 0, sizeof *w);
        w->thread = thread;
        if (thread)
            snprintf(w->label, sizeof w->label, "%s%sthread %u", many ? lane : "", many ? ": " : "",
                     a->thr[i].tid);
        else
            snprintf(w->label, sizeof w->label, "%s%sphantoms", many ? lane : "", many ? ": " : "");
        r->thr_row[i] = (int64_t)r->nrows++;
        *threads += thread;
    }
    return hidden;
}

int tr_html_report(struct tr_log **logs, size_t n, const struct tr_opts *opt, struct tr_out *o)
{
    (void)opt;
    struct tr_analysis *as = tr_xcalloc(n, sizeof *as), *bs = tr_xcalloc(n, sizeof *bs);
    int64_t base = INT64_MAX, end = INT64_MIN;  /* on the monotonic clock */
    for (size_t i = 0; i < n; i++) {            /* pass 1: ranges and stats */
        tr_analysis_init(&as[i], logs[i]);
        tr_analysis_run(&as[i]);
        int64_t off = tr_log_time_offset(logs[i]);
        int64_t t0 = tr_time_add((int64_t)as[i].t0, off), t1 = tr_time_add((int64_t)as[i].t1, off);
        base = t0 < base ? t0 : base;
        end = t1 > end ? t1 : end;
    }
    uint64_t span = end > base ? (uint64_t)tr_time_sub(end, base) : 1;
    struct report r = { .quantum = span >> 26 };
    size_t threads = 0, hidden = 0;
    for (size_t i = 0; i < n; i++) {            /* pass 2: the intervals */
        hidden += add_rows(&r, &as[i], n > 1, &threads);
        bs[i] = (struct tr_analysis){ .on_interval = on_interval, .ctx = &r };
        tr_analysis_init(&bs[i], logs[i]);
        r.a = &bs[i];
        r.sub = tr_time_sub(base, tr_log_time_offset(logs[i]));
        r.naddr = 0;                            /* addresses are the process's own */
        r.nsite_fn = 0;
        tr_analysis_run(&bs[i]);
        free(r.thr_row);
    }
    size_t total = settle(&r);

    page_head(logs, as, n, o);
    if (hidden)
        tr_out_fmt(o, "<p>%zu more threads not drawn.</p>\n", hidden);
    if (!threads)
        tr_out_str(o, "<p>No thread records.</p>\n");
    page_timeline(o, total, &r);
    struct tr_advice adv = { .logs = logs };
    for (size_t i = 0; i < n; i++)
        tr_advise_log(&adv, logs[i], i);
    tr_advise_rank(&adv);
    tr_advise_html(&adv, o);
    tr_advice_free(&adv);
    for (size_t i = 0; i < n; i++) {
        if (n > 1) {
            tr_out_str(o, "<h2 class=\"log\">");
            tr_out_html(o, (const uint8_t *)logs[i]->path, strlen(logs[i]->path));
            tr_out_str(o, "</h2>\n");
        }
        tr_stats_html(&bs[i], o);
    }
    tr_out_str(o, "<script id=\"pvdata\" type=\"application/json\">");
    data_json(&r, o, span);
    tr_out_str(o, "</script>\n<script>\n");
    tr_out_str(o, tr_report_js);
    tr_out_str(o, "</script>\n</body></html>\n");

    for (size_t i = 0; i < r.nrows; i++)
        for (int k = 0; k < IV__COUNT; k++)
            free(r.rows[i].iv[k].v);
    free(r.rows);
    for (size_t i = 0; i < r.nfns; i++)
        free(r.fns[i]);
    free(r.fns);
    free(r.addrs);
    free(r.site_fn);
    free(r.regions.v);
    free(r.tasks.v);
    for (size_t i = 0; i < n; i++) {
        tr_analysis_free(&as[i]);
        tr_analysis_free(&bs[i]);
    }
    free(as);
    free(bs);
    return 0;
}
