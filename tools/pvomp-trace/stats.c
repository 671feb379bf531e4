/* stats: what the log says, in numbers: counts per event; per thread the
 * time in parallel regions, barriers, waits (spinning vs blocked), critical
 * sections and locks; load imbalance per parallel region; tasks by where
 * they were created; drops. */
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "commands.h"
#include "desc.h"
#include "log.h"
#include "mem.h"
#include "names.h"
#include "out.h"
#include "stats.h"
#include "tasks.h"
#include "timebase.h"


static const enum tr_iv thread_cols[] = {
    IV_PARALLEL, IV_BARRIER, IV_SPIN, IV_BLOCK, IV_CRIT, IV_CRIT_WAIT, IV_LOCK, IV_LOCK_WAIT,
    IV_TASK, IV_TARGET,
};
#define NCOLS (sizeof thread_cols / sizeof thread_cols[0])

static int by_count(const void *x, const void *y)
{
    const struct tr_desc *a = *(const struct tr_desc *const *)x, *b = *(const struct tr_desc *const *)y;
    if (a->count != b->count)
        return a->count < b->count ? 1 : -1;
    return strcmp(a->name, b->name);
}

static int by_wall(const void *x, const void *y)
{
    const struct tr_region_fn *a = x, *b = y;
    return a->wall < b->wall ? 1 : a->wall > b->wall ? -1 : 0;
}

static double ms(uint64_t ns)
{
    return (double)ns / 1e6;
}

static double pct(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Tasks by name: the sites of one log or several (each process has its
 * own addresses; the names agree), named as tr_task_name does. */
struct task_row {
    char *name;
    uint64_t instances, total, max;
    unsigned threads, logs;
    uint64_t *ran;          /* while one log is added: its threads that ran one */
};
struct task_rows {
    struct task_row *v;
    size_t n, cap;
};


static struct task_row *task_row(struct task_rows *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->v[i].name, name))
            return &t->v[i];
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->v = tr_xrealloc(t->v, t->cap, sizeof *t->v);
    }
    t->v[t->n] = (struct task_row){ .name = tr_xstrdup(name) };
    return &t->v[t->n++];
}

static void task_rows_add(struct task_rows *t, struct tr_analysis *a)
{
    size_t words = (a->nthr + 63) / 64;
    for (size_t i = 0; i < a->tasks.nsites; i++) {
        struct tr_task_site *s = &a->tasks.sites[i];
        char hex[24];
        if (!s->instances)
            continue;
        struct task_row *w = task_row(t, tr_task_name(a->log, s, hex));
        w->instances += s->instances;
        w->total += s->total;
        w->max = s->max > w->max ? s->max : w->max;
        if (!w->ran)
            w->ran = tr_xcalloc(words, sizeof *w->ran);
        for (size_t k = 0; k < words; k++)
            w->ran[k] |= s->ran[k];
    }
    for (size_t i = 0; i < t->n; i++) {
        struct task_row *w = &t->v[i];
        for (size_t k = 0; w->ran && k < words; k++)
            w->threads += (unsigned)__builtin_popcountll(w->ran[k]);
        w->logs += w->ran != NULL;
        free(w->ran);
        w->ran = NULL;
    }
}

static int task_by_total(const void *x, const void *y)
{
    const struct task_row *a = x, *b = y;
    if (a->total != b->total)
        return a->total < b->total ? 1 : -1;
    return strcmp(a->name, b->name);
}

static double task_mean_us(const struct task_row *w)
{
    return w->instances ? (double)w->total / (double)w->instances / 1e3 : 0.0;
}

/* The task table (text), sorted by total time; emptied.  nlogs > 1: the
 * table over several logs, with a column of how many had the task. */
static void task_table(struct tr_out *o, struct task_rows *t, size_t nlogs)
{
    if (!t->n)
        return;
    qsort(t->v, t->n, sizeof *t->v, task_by_total);
    int w = 18;
    for (size_t i = 0; i < t->n; i++)
        w = (int)strlen(t->v[i].name) > w ? (int)strlen(t->v[i].name) : w;
    if (nlogs > 1)
        tr_out_fmt(o, "\n== all %zu logs: tasks by name (threads summed over the logs):\n", nlogs);
    else
        tr_out_str(o, "\ntasks (by the construct that created them, else their body; time from "
                      "task_begin to task_end):\n");
    tr_out_fmt(o, "  %-*s", w, "task");
    if (nlogs > 1)
        tr_out_fmt(o, " %5s", "logs");
    tr_out_fmt(o, " %10s %8s %12s %12s %12s\n", "instances", "threads", "total ms", "mean us",
               "max us");
    for (size_t i = 0; i < t->n; i++) {
        struct task_row *r = &t->v[i];
        tr_out_fmt(o, "  %-*s", w, r->name);
        if (nlogs > 1)
            tr_out_fmt(o, " %5u", r->logs);
        tr_out_fmt(o, " %10llu %8u %12.3f %12.3f %12.3f\n", (unsigned long long)r->instances,
                   r->threads, ms(r->total), task_mean_us(r), (double)r->max / 1e3);
    }
}

static void task_rows_free(struct task_rows *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->v[i].name);
    free(t->v);
    *t = (struct task_rows){ 0 };
}

/* Events sorted by count (only those seen). */
static const struct tr_desc **sorted_events(struct tr_analysis *a, size_t *n)
{
    const struct tr_desc **v = malloc((a->log->ndescs + 1) * sizeof *v);
    *n = 0;
    if (!v)
        return NULL;
    for (size_t i = 0; i < a->log->ndescs; i++)
        if (a->log->descs[i].count)
            v[(*n)++] = &a->log->descs[i];
    qsort(v, *n, sizeof *v, by_count);
    return v;
}

static bool thread_shown(struct tr_analysis *a, size_t i)
{
    return a->thr[i].records > 0;
}

void tr_stats_text(struct tr_analysis *a, struct tr_out *o)
{
    struct tr_log *log = a->log;
    size_t nev;
    const struct tr_desc **ev = sorted_events(a, &nev);

    tr_out_fmt(o, "log:       %s (%llu bytes)%s\n", log->path, (unsigned long long)log->size,
               log->has_end || !log->is_pvomp ? "" : ", no end record (incomplete)");
    if (log->exe)
        tr_out_fmt(o, "process:   pid %llu  %s  [%s]  %s\n", (unsigned long long)log->pid,
                   log->exe, log->cmdline ? log->cmdline : "", log->runtime ? log->runtime : "");
    if (log->snap_reason)
        tr_out_fmt(o, "snapshot:  %llu (%s) of a ring-mode recorder; overwritten before it: "
                      "%llu events in %llu chunks\n", (unsigned long long)log->snap_number,
                   log->snap_reason, (unsigned long long)log->snap_over_events,
                   (unsigned long long)log->snap_over_chunks);
    if (log->clock_source && log->clock_hz)
        tr_out_fmt(o, "clock:     %s (%.3f GHz)\n", log->clock_source, (double)log->clock_hz / 1e9);
    else if (log->clock_source)
        tr_out_fmt(o, "clock:     %s\n", log->clock_source);
    tr_out_fmt(o, "duration:  %.3f ms\n", ms(a->t1 - a->t0));
    size_t nthreads = 0;
    for (size_t i = 0; i < a->nthr; i++)
        nthreads += thread_shown(a, i) && i + 1 < a->nthr;
    tr_out_fmt(o, "records:   %llu in %zu thread(s); dropped: %llu\n",
               (unsigned long long)a->records, nthreads, (unsigned long long)a->dropped);

    tr_out_str(o, "\nevents:\n        count  name\n");
    for (size_t i = 0; i < nev; i++)
        tr_out_fmt(o, "  %11llu  %s\n", (unsigned long long)ev[i]->count, ev[i]->name);

    /* Columns that some thread has time in (parallel, barrier, spin and
     * blocked always). */
    bool col[NCOLS];
    for (size_t c = 0; c < NCOLS; c++) {
        col[c] = c < 4;
        for (size_t i = 0; i < a->nthr; i++)
            col[c] |= a->thr[i].t[thread_cols[c]] != 0;
    }
    tr_out_str(o, "\nthreads (time in ms, and % of the thread's lifetime):\n");
    tr_out_fmt(o, "  %8s %10s %8s %10s", "tid", "records", "dropped", "lifetime");
    for (size_t c = 0; c < NCOLS; c++)
        if (col[c])
            tr_out_fmt(o, " %17s", tr_iv_name[thread_cols[c]]);
    tr_out_char(o, '\n');
    for (size_t i = 0; i < a->nthr; i++) {
        struct tr_thr *t = &a->thr[i];
        if (!thread_shown(a, i))
            continue;
        uint64_t life = t->last_ts - t->first_ts;
        if (i + 1 == a->nthr)
            tr_out_fmt(o, "  %8s", "(log)");
        else
            tr_out_fmt(o, "  %8u", t->tid);
        tr_out_fmt(o, " %10llu %8llu %10.3f", (unsigned long long)t->records,
                   (unsigned long long)t->dropped, ms(life));
        for (size_t c = 0; c < NCOLS; c++)
            if (col[c])
                tr_out_fmt(o, " %10.3f (%4.1f%%)", ms(t->t[thread_cols[c]]),
                           pct(t->t[thread_cols[c]], life));
        tr_out_char(o, '\n');
    }

    if (a->nfns) {
        qsort(a->fns, a->nfns, sizeof *a->fns, by_wall);
        tr_out_str(o, "\nparallel regions (by outlined function; imbalance = slowest member's "
                      "work / mean - 1):\n");
        int w = 18;
        char hex[24];
        for (size_t i = 0; i < a->nfns; i++) {
            int l = (int)strlen(tr_code_name(a->log, a->fns[i].fn, hex));
            w = l > w ? l : w;
        }
        tr_out_fmt(o, "  %-*s %10s %8s %12s %12s %10s %10s\n", w, "region", "instances",
                   "threads", "wall ms", "work ms", "imb mean", "imb max");
        for (size_t i = 0; i < a->nfns; i++) {
            struct tr_region_fn *f = &a->fns[i];
            tr_out_fmt(o, "  %-*s %10llu %8u %12.3f %12.3f %9.1f%% %9.1f%%\n", w,
                       tr_code_name(a->log, f->fn, hex), (unsigned long long)f->instances,
                       f->max_threads, ms(f->wall), ms(f->work),
                       f->instances ? 100.0 * f->imb_sum / (double)f->instances : 0.0,
                       100.0 * f->imb_max);
        }
    }
    struct task_rows tasks = { 0 };
    task_rows_add(&tasks, a);
    task_table(o, &tasks, 1);
    task_rows_free(&tasks);
    struct tr_thr *top = &a->thr[a->nthr - 1];
    if (top->n[IV_PHANTOM])
        tr_out_fmt(o, "\nphantom episodes: %llu, %.3f ms in total, at most %llu phantom(s)\n",
                   (unsigned long long)top->n[IV_PHANTOM], ms(top->t[IV_PHANTOM]),
                   (unsigned long long)a->phantom_max);
    free(ev);
}

void tr_stats_html(struct tr_analysis *a, struct tr_out *o)
{
    struct tr_log *log = a->log;
    size_t nev;
    const struct tr_desc **ev = sorted_events(a, &nev);

    tr_out_str(o, "<h2>Threads</h2>\n<table class=\"num\"><tr><th>thread</th><th>records</th>"
                  "<th>dropped</th><th>lifetime ms</th>");
    for (size_t c = 0; c < NCOLS; c++)
        tr_out_fmt(o, "<th>%s ms</th>", tr_iv_name[thread_cols[c]]);
    tr_out_str(o, "</tr>\n");
    for (size_t i = 0; i < a->nthr; i++) {
        struct tr_thr *t = &a->thr[i];
        if (!thread_shown(a, i))
            continue;
        uint64_t life = t->last_ts - t->first_ts;
        if (i + 1 == a->nthr)
            tr_out_str(o, "<tr><td>(log)</td>");
        else
            tr_out_fmt(o, "<tr><td>%u</td>", t->tid);
        tr_out_fmt(o, "<td>%llu</td><td%s>%llu</td><td>%.3f</td>", (unsigned long long)t->records,
                   t->dropped ? " class=\"bad\"" : "", (unsigned long long)t->dropped, ms(life));
        for (size_t c = 0; c < NCOLS; c++)
            tr_out_fmt(o, "<td>%.3f <small>(%.1f%%)</small></td>", ms(t->t[thread_cols[c]]),
                       pct(t->t[thread_cols[c]], life));
        tr_out_str(o, "</tr>\n");
    }
    tr_out_str(o, "</table>\n");

    if (a->nfns) {
        qsort(a->fns, a->nfns, sizeof *a->fns, by_wall);
        tr_out_str(o, "<h2>Parallel regions</h2>\n<p>By outlined function; imbalance is the "
                      "slowest member's work (time in the implicit task outside barriers) over "
                      "the mean, minus one.</p>\n<table class=\"num\"><tr><th>region</th>"
                      "<th>instances</th><th>threads</th><th>wall ms</th><th>work ms</th>"
                      "<th>imbalance mean</th><th>imbalance max</th></tr>\n");
        for (size_t i = 0; i < a->nfns; i++) {
            struct tr_region_fn *f = &a->fns[i];
            char hex[24];
            const char *name = tr_code_name(a->log, f->fn, hex);
            tr_out_fmt(o, "<tr><td title=\"%#llx\">", (unsigned long long)f->fn);
            tr_out_html(o, (const uint8_t *)name, strlen(name));
            tr_out_fmt(o, "</td><td>%llu</td><td>%u</td><td>%.3f</td><td>%.3f</td>"
                          "<td>%.1f%%</td><td>%.1f%%</td></tr>\n",
                       (unsigned long long)f->instances, f->max_threads,
                       ms(f->wall), ms(f->work),
                       f->instances ? 100.0 * f->imb_sum / (double)f->instances : 0.0,
                       100.0 * f->imb_max);
        }
        tr_out_str(o, "</table>\n");
    }

    struct task_rows tasks = { 0 };
    task_rows_add(&tasks, a);
    if (tasks.n) {
        qsort(tasks.v, tasks.n, sizeof *tasks.v, task_by_total);
        tr_out_str(o, "<h2>Explicit tasks</h2>\n<p>By the construct that created them, else their body; "
                      "time from task_begin to task_end.</p>\n<table class=\"num\">"
                      "<tr><th>task</th><th>instances</th><th>threads</th>"
                      "<th>total ms</th><th>mean us</th><th>max us</th></tr>\n");
        for (size_t i = 0; i < tasks.n; i++) {
            struct task_row *r = &tasks.v[i];
            tr_out_str(o, "<tr><td>");
            tr_out_html(o, (const uint8_t *)r->name, strlen(r->name));
            tr_out_fmt(o, "</td><td>%llu</td><td>%u</td><td>%.3f</td><td>%.3f</td>"
                          "<td>%.3f</td></tr>\n", (unsigned long long)r->instances, r->threads,
                       ms(r->total), task_mean_us(r), (double)r->max / 1e3);
        }
        tr_out_str(o, "</table>\n");
    }
    task_rows_free(&tasks);

    tr_out_str(o, "<h2>Events</h2>\n<table class=\"num\"><tr><th>event</th><th>count</th></tr>\n");
    for (size_t i = 0; i < nev; i++) {
        tr_out_str(o, "<tr><td>");
        tr_out_html(o, (const uint8_t *)ev[i]->name, strlen(ev[i]->name));
        tr_out_fmt(o, "</td><td>%llu</td></tr>\n", (unsigned long long)ev[i]->count);
    }
    tr_out_str(o, "</table>\n");
    (void)log;
    free(ev);
}

/* Several logs (ranks): one region table over all of them, by name (each
 * process has its own addresses; the names agree). */
struct merged_region {
    struct tr_region_fn r;
    char *name;
    unsigned logs;
};

static void merge_regions(struct merged_region **m, size_t *n, struct tr_analysis *a)
{
    for (size_t i = 0; i < a->nfns; i++) {
        struct tr_region_fn *f = &a->fns[i];
        char hex[24];
        const char *name = tr_code_name(a->log, f->fn, hex);
        size_t k = 0;
        while (k < *n && strcmp((*m)[k].name, name))
            k++;
        if (k == *n) {
            *m = tr_xrealloc(*m, *n + 1, sizeof **m);
            (*m)[k] = (struct merged_region){ .name = tr_xstrdup(name) };
            (*n)++;
        }
        struct merged_region *g = &(*m)[k];
        g->r.instances += f->instances;
        g->r.wall += f->wall;
        g->r.work += f->work;
        g->r.imb_sum += f->imb_sum;
        g->r.imb_max = f->imb_max > g->r.imb_max ? f->imb_max : g->r.imb_max;
        g->r.max_threads = f->max_threads > g->r.max_threads ? f->max_threads : g->r.max_threads;
        g->logs++;
    }
}

static int merged_by_wall(const void *x, const void *y)
{
    return by_wall(&((const struct merged_region *)x)->r, &((const struct merged_region *)y)->r);
}

static void merged_table(struct tr_out *o, struct merged_region *m, size_t n, size_t nlogs)
{
    int w = 18;
    qsort(m, n, sizeof *m, merged_by_wall);
    for (size_t i = 0; i < n; i++)
        w = (int)strlen(m[i].name) > w ? (int)strlen(m[i].name) : w;
    tr_out_fmt(o, "\n== all %zu logs: parallel regions by name (wall and work summed over the "
                  "logs; imbalance over all instances):\n", nlogs);
    tr_out_fmt(o, "  %-*s %5s %10s %8s %12s %12s %10s %10s\n", w, "region", "logs", "instances",
               "threads", "wall ms", "work ms", "imb mean", "imb max");
    for (size_t i = 0; i < n; i++) {
        struct tr_region_fn *f = &m[i].r;
        tr_out_fmt(o, "  %-*s %5u %10llu %8u %12.3f %12.3f %9.1f%% %9.1f%%\n", w, m[i].name,
                   m[i].logs, (unsigned long long)f->instances, f->max_threads, ms(f->wall),
                   ms(f->work), f->instances ? 100.0 * f->imb_sum / (double)f->instances : 0.0,
                   100.0 * f->imb_max);
        free(m[i].name);
    }
    free(m);
}

int tr_cmd_stats(struct tr_log **logs, size_t n, const struct tr_opts *opt, FILE *f)
{
    struct tr_out o;
    struct merged_region *m = NULL;
    size_t nm = 0;
    struct task_rows tasks = { 0 };
    (void)opt;
    tr_out_init(&o, f);
    for (size_t i = 0; i < n; i++) {
        struct tr_analysis a = { 0 };
        if (n > 1)
            tr_out_fmt(&o, "%s== %s\n", i ? "\n" : "", tr_log_lane(logs[i]));
        tr_analysis_init(&a, logs[i]);
        tr_analysis_run(&a);
        tr_stats_text(&a, &o);
        if (n > 1) {
            merge_regions(&m, &nm, &a);
            task_rows_add(&tasks, &a);
        }
        tr_analysis_free(&a);
    }
    if (n > 1) {
        merged_table(&o, m, nm, n);
        task_table(&o, &tasks, n);
    }
    task_rows_free(&tasks);
    tr_out_flush(&o);
    free(o.buf);
    return 0;
}
