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

#include "reader.h"

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
/* Lane of each kind in a 22-pixel row: y, height; drawn in this order. */
static const struct {
    enum tr_iv kind;
    int y, h;
} lanes[] = {
    { IV_PARALLEL, 3, 18 }, { IV_REGION, 0, 3 }, { IV_TASK, 3, 8 }, { IV_TARGET, 3, 8 },
    { IV_BARRIER, 3, 8 }, { IV_CRIT, 3, 8 }, { IV_LOCK, 3, 8 }, { IV_CRIT_WAIT, 12, 9 },
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
struct region {
    int32_t fn;
    uint64_t s, e;
};
struct report {
    struct tr_analysis *a;
    uint64_t t0, quantum;
    size_t nrows;          /* threads shown + the process-wide row (last) */
    struct ivs *rows;      /* nrows * IV__COUNT */
    uint64_t *fns;         /* outlined functions' addresses, by index */
    size_t nfns, fns_cap;
    struct region *regions;
    size_t nregions, regions_cap, regions_dropped;
    size_t total;          /* intervals held in rows */
};

static void *grow(void *p, size_t *cap, size_t size)
{
    *cap = *cap ? 2 * *cap : 16;
    p = realloc(p, *cap * size);
    if (!p) {
        fprintf(stderr, "pvomp-trace: out of memory\n");
        exit(1);
    }
    return p;
}

static int32_t fn_index(struct report *r, uint64_t fn)
{
    if (!fn)
        return -1;
    for (size_t i = r->nfns; i-- > 0;)     /* few functions; the last one is the likely one */
        if (r->fns[i] == fn)
            return (int32_t)i;
    if (r->nfns == r->fns_cap)
        r->fns = grow(r->fns, &r->fns_cap, sizeof *r->fns);
    r->fns[r->nfns] = fn;
    return (int32_t)r->nfns++;
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
    for (size_t i = 0; i < nl; i++)
        if (r->rows[i].n > 1)
            qsort(r->rows[i].v, r->rows[i].n, sizeof(struct iv), by_start);
    while (r->total > limit) {
        r->quantum = r->quantum ? 2 * r->quantum : 1;
        r->total = 0;
        for (size_t i = 0; i < nl; i++) {
            struct ivs *l = &r->rows[i];
            size_t n = l->n;
            l->n = 0;
            for (size_t k = 0; k < n; k++)
                add(l, r->quantum, l->v[k]);  /* writes at or before k */
            r->total += l->n;
        }
    }
}

static void on_interval(void *ctx, uint32_t thr, enum tr_iv kind, uint64_t s, uint64_t e)
{
    struct report *r = ctx;
    size_t top = r->a->nthr - 1;
    if (thr != top && thr >= MAX_ROWS)
        return;
    size_t row = thr == top ? r->nrows - 1 : thr;
    int32_t fn = (kind == IV_REGION || kind == IV_PARALLEL) ? fn_index(r, r->a->iv_fn) : -1;
    if (add(&r->rows[row * IV__COUNT + kind], r->quantum,
            (struct iv){ .s = s - r->t0, .e = e - r->t0, .busy = e - s, .n = 1, .fn = fn }) &&
        ++r->total > 2 * MAX_INTERVALS)
        coarsen(r, MAX_INTERVALS);            /* bounds the reader's memory too */
    if (kind == IV_REGION) {
        if (r->nregions == MAX_REGIONS) {
            r->regions_dropped++;
            return;
        }
        if (r->nregions == r->regions_cap)
            r->regions = grow(r->regions, &r->regions_cap, sizeof *r->regions);
        r->regions[r->nregions++] = (struct region){ fn, s - r->t0, e - r->t0 };
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
    if (r->nregions > 1)
        qsort(r->regions, r->nregions, sizeof *r->regions, region_by_start);
    return r->total;
}

static void json_name(struct tr_out *o, const char *s)
{
    tr_out_json_str(o, (const uint8_t *)s, strlen(s));
}

static void row_json(struct report *r, struct tr_out *o, size_t row, const char *label)
{
    tr_out_str(o, "{\"label\":");
    json_name(o, label);
    tr_out_str(o, ",\"iv\":{");
    bool first = true;
    for (int k = 0; k < IV__COUNT; k++) {
        struct ivs *l = &r->rows[row * IV__COUNT + k];
        if (!l->n)
            continue;
        tr_out_fmt(o, "%s\"%d\":[", first ? "" : ",", k);
        first = false;
        uint64_t prev = 0;
        for (size_t i = 0; i < l->n; i++) {
            struct iv *v = &l->v[i];
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

static void data_json(struct report *r, struct tr_out *o, const size_t *shown, size_t nshown)
{
    struct tr_analysis *a = r->a;
    tr_out_fmt(o, "{\"t1\":%llu,\"quantum\":%llu,\"kinds\":[",
               (unsigned long long)(a->t1 > a->t0 ? a->t1 - a->t0 : 1),
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
        char hex[24];
        tr_out_str(o, i ? "," : "");
        json_name(o, tr_code_name(a->log, r->fns[i], hex));
    }
    tr_out_str(o, "],\"regions\":[");
    for (size_t i = 0; i < r->nregions; i++) {
        struct region *g = &r->regions[i];
        tr_out_fmt(o, "%s[%d,", i ? "," : "", g->fn);
        tr_out_u64(o, g->s);
        tr_out_char(o, ',');
        tr_out_u64(o, g->e - g->s);
        tr_out_char(o, ']');
    }
    tr_out_str(o, "],\"rows\":[\n");
    bool first = true;
    struct ivs *top = &r->rows[(r->nrows - 1) * IV__COUNT];
    bool phantoms = false;
    for (int k = 0; k < IV__COUNT; k++)
        phantoms |= top[k].n != 0;
    if (phantoms) {
        row_json(r, o, r->nrows - 1, "phantoms");
        first = false;
    }
    for (size_t i = 0; i < nshown; i++) {
        char label[48];
        snprintf(label, sizeof label, "thread %u", a->thr[shown[i]].tid);
        tr_out_str(o, first ? "" : ",\n");
        first = false;
        row_json(r, o, shown[i], label);
    }
    tr_out_str(o, "]}");
}

static void page_head(struct tr_log *log, struct tr_analysis *a, struct tr_out *o)
{
    const char *title = log->exe ? log->exe : log->path;
    tr_out_str(o, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>pvomp trace: ");
    tr_out_html(o, (const uint8_t *)title, strlen(title));
    tr_out_str(o, "</title>\n<style>\n");
    tr_out_str(o, tr_report_css);
    tr_out_str(o, "</style></head><body>\n<h1>pvomp trace: ");
    tr_out_html(o, (const uint8_t *)title, strlen(title));
    tr_out_str(o, "</h1>\n<p>");
    tr_out_html(o, (const uint8_t *)log->path, strlen(log->path));
    tr_out_fmt(o, " &mdash; %llu records, %.3f ms, clock %s, dropped %llu%s</p>\n",
               (unsigned long long)a->records, (double)(a->t1 - a->t0) / 1e6,
               log->clock_source ? log->clock_source : "?", (unsigned long long)a->dropped,
               log->has_end || !log->is_pvomp ? ""
                                               : " &mdash; <b class=\"warn\">no end record: "
                                                 "the process did not close the log</b>");
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
    if (r->quantum > 1 || r->regions_dropped)
        tr_out_fmt(o, "<p class=\"note\">Intervals of a kind less than %.3f us apart are merged "
                      "(%zu in the page)%s.</p>\n", (double)r->quantum / 1e3, total,
                   r->regions_dropped ? "; only the first 262144 region instances are listed"
                                      : "");
    tr_out_str(o, "<div id=\"tlbox\"><div id=\"labels\"><div class=\"lbl\">time</div></div>"
                  "<div id=\"plot\"><canvas id=\"axis\"></canvas><canvas id=\"tl\"></canvas>"
                  "</div></div>\n<div id=\"tip\"></div>\n<div id=\"detail\"></div>\n"
                  "<h2>Regions</h2>\n<p>Click a region for its instances, an instance to zoom "
                  "to it and see what each thread did.</p>\n<table class=\"num\" id=\"regions\">"
                  "</table>\n<div id=\"instances\"></div>\n");
}

int tr_html_report(struct tr_log *log, const struct tr_opts *opt, struct tr_out *o)
{
    (void)opt;
    struct tr_analysis a = { 0 };
    tr_analysis_init(&a, log);
    tr_analysis_run(&a);                      /* pass 1: the range and the stats */
    size_t *shown = calloc(a.nthr, sizeof *shown), nshown = 0;
    if (!shown) {
        fprintf(stderr, "pvomp-trace: out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i + 1 < a.nthr && nshown < MAX_ROWS; i++)
        if (a.thr[i].records)
            shown[nshown++] = i;
    struct report r = { .t0 = a.t0, .nrows = (a.nthr - 1 < MAX_ROWS ? a.nthr - 1 : MAX_ROWS) + 1 };
    r.quantum = (a.t1 - a.t0) >> 26;
    r.rows = calloc(r.nrows * IV__COUNT, sizeof *r.rows);
    if (!r.rows) {
        fprintf(stderr, "pvomp-trace: out of memory\n");
        exit(1);
    }
    struct tr_analysis b = { .on_interval = on_interval, .ctx = &r };
    tr_analysis_init(&b, log);
    r.a = &b;
    tr_analysis_run(&b);                      /* pass 2: the intervals */
    size_t total = settle(&r);

    page_head(log, &a, o);
    if (a.nthr > MAX_ROWS + 1)
        tr_out_fmt(o, "<p>%zu more threads not drawn.</p>\n", a.nthr - 1 - MAX_ROWS);
    if (!nshown)
        tr_out_str(o, "<p>No thread records.</p>\n");
    page_timeline(o, total, &r);
    tr_stats_html(&b, o);
    tr_out_str(o, "<script id=\"pvdata\" type=\"application/json\">");
    data_json(&r, o, shown, nshown);
    tr_out_str(o, "</script>\n<script>\n");
    tr_out_str(o, tr_report_js);
    tr_out_str(o, "</script>\n</body></html>\n");

    for (size_t i = 0; i < r.nrows * IV__COUNT; i++)
        free(r.rows[i].v);
    free(r.rows);
    free(r.fns);
    free(r.regions);
    free(shown);
    tr_analysis_free(&a);
    tr_analysis_free(&b);
    return 0;
}
