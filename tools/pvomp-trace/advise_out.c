/* advise: the findings as a ranked table, as JSON ({"findings": [...]},
 * best first), and as a section of the HTML report; each with its place
 * and one sentence of advice. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "commands.h"
#include "log.h"
#include "names.h"
#include "out.h"
#include "tasks.h"
#include "timebase.h"

static double share(const struct tr_advice *adv, const struct tr_finding *f)
{
    uint64_t run = f->log < adv->nlogs ? adv->run_ns[f->log] : 0;
    return run ? (double)f->gain_ns / (double)run : 0.0;
}

static struct tr_log *log_of(const struct tr_advice *adv, const struct tr_finding *f)
{
    return f->log < adv->nlogs && adv->logs ? adv->logs[f->log] : NULL;
}

const char *tr_finding_where(const struct tr_advice *adv, const struct tr_finding *f,
                             char hex[TR_WHERE_MAX])
{
    struct tr_log *log = log_of(adv, f);
    if (f->between) {
        char before[24], after[24];
        snprintf(hex, TR_WHERE_MAX, "between %s and %s",
                 log ? tr_code_name(log, f->fn, before) : "?",
                 log ? tr_code_name(log, f->key, after) : "?");
        return hex;
    }
    if (f->task_site && log) {
        struct tr_task_site s = { .fn = f->body, .ra = f->key == f->body ? 0 : f->key };
        return tr_task_name(log, &s, hex);
    }
    if (f->site && log) /* a return address: the call's last byte has the line */
        return tr_code_name(log, f->site - 1, hex);
    if (!f->fn)
        return "(outside parallel regions)";
    if (!log) {
        snprintf(hex, 24, "%#llx", (unsigned long long)f->fn);
        return hex;
    }
    return tr_code_name(log, f->fn, hex);
}

static double us(uint64_t ns)
{
    return (double)ns / 1e3;
}

static uint64_t mean(uint64_t total, uint64_t n)
{
    return n ? total / n : 0;
}

void tr_finding_advice(const struct tr_advice *adv, const struct tr_finding *f, char *b, size_t n)
{
    (void)adv;
    switch (f->cause) {
    case C_IMBALANCE:
        snprintf(b, n, "members' work differs by %.0f us on average per barrier (%llu barriers): "
                 "split it evenly, or use schedule(dynamic) / schedule(guided) for its loop; "
                 "if the iterations cost the same, a member lost its CPU (a co-runner: see "
                 "pvomp-phantomd)",
                 us(mean(f->ns, f->count)), (unsigned long long)f->count);
        break;
    case C_SERIAL:
        if (f->between) {
            snprintf(b, n, "the primary thread ran %.0f us alone between these regions (%llu "
                     "times) while the pool's %u waited for the next fork: parallelise that "
                     "code, or merge the two regions into one (that code in a single or a loop "
                     "inside it)",
                     us(mean(f->ns, f->count)), (unsigned long long)f->count,
                     f->threads ? f->threads - 1 : 0);
            break;
        }
        snprintf(b, n, "one thread ran %.0f us alone per barrier (%llu times) while %u waited: "
                 "parallelise the work in this single (omp for or tasks inside the region)",
                 us(mean(f->ns, f->count)), (unsigned long long)f->count,
                 f->threads ? f->threads - 1 : 0);
        break;
    case C_SCHEDULING: {
        uint64_t per = mean(f->work_ns, f->count);
        long long chunk = f->chunk > 0 ? f->chunk : 1;
        long long better = per ? chunk * (long long)((10000 + per - 1) / per) : chunk;
        snprintf(b, n, "%llu chunks of %.2f us each (chunk %lld): dispatch costs as much as the "
                 "work; use schedule(dynamic, %lld) or schedule(static)",
                 (unsigned long long)f->count, us(per), chunk, better);
        break;
    }
    case C_CRITICAL:
        snprintf(b, n, "%llu entries held %.2f us each, %.1f ms waited in all: use a reduction "
                 "or an atomic instead of critical, or take the section out of the hot loop",
                 (unsigned long long)f->count, us(mean(f->work_ns, f->count)), (double)f->ns / 1e6);
        break;
    case C_LOCK:
        snprintf(b, n, "%llu acquisitions held %.2f us each, %.1f ms waited in all: hold the "
                 "lock for less, split it, or give each thread its own copy",
                 (unsigned long long)f->count, us(mean(f->work_ns, f->count)), (double)f->ns / 1e6);
        break;
    case C_TASK_OVERHEAD:
        snprintf(b, n, "%llu tasks of %.2f us each: add a cut-off (run the work serially, or "
                 "if(0), below ~50 us of work per task)",
                 (unsigned long long)f->count, us(mean(f->work_ns, f->count)));
        break;
    case C_TASK_STARVATION:
        snprintf(b, n, "members idled %.1f ms in all in barriers waiting for the next task "
                 "to be created (they found the task pool empty): create the tasks from several threads (a "
                 "loop shared out, or taskloop), or make each task bigger",
                 (double)f->ns / 1e6);
        break;
    case C_PHANTOM:
        snprintf(b, n, "members waited for teammates that had lost their CPU (another process "
                 "or the machine's load): a dynamic schedule with small chunks lets the others "
                 "take their work, "
                 "GOMP_WAIT_POLICY=pvsched stops waiters spinning meanwhile");
        break;
    case C_OVERSUBSCRIPTION:
        snprintf(b, n, "%u team threads on %u CPUs: use at most %u threads (OMP_NUM_THREADS), "
                 "or GOMP_WAIT_POLICY=pvsched",
                 f->threads, f->cpus, f->cpus);
        break;
    case C_FORK_JOIN:
        snprintf(b, n, "%llu regions of %.1f us, %.1f us of each outside the members' work: "
                 "merge them into one region (a loop inside it), or run them serially "
                 "(if clause) when this small",
                 (unsigned long long)f->count, us(mean(f->ns, f->count)),
                 us(mean(f->gain_ns, f->count)));
        break;
    default:
        snprintf(b, n, "-");
    }
}

void tr_advise_text(const struct tr_advice *adv, struct tr_out *o, size_t max)
{
    size_t shown = 0;
    bool many = adv->nlogs > 1;
    for (size_t i = 0; i < adv->n && (!max || shown < max); i++) {
        const struct tr_finding *f = &adv->v[i];
        double s = share(adv, f);
        if (s < 0.005)
            continue;
        if (!shown)
            tr_out_fmt(o, "  #  %-17s %9s %6s  %s\n", "cause", "gain ms", "share",
                       many ? "where (log)" : "where");
        char hex[TR_WHERE_MAX], advice[512];
        tr_finding_advice(adv, f, advice, sizeof advice);
        tr_out_fmt(o, "%3zu  %-17s %9.3f %5.1f%%  %s", ++shown, tr_cause_name[f->cause],
                   (double)f->gain_ns / 1e6, 100.0 * s, tr_finding_where(adv, f, hex));
        if (many && log_of(adv, f))
            tr_out_fmt(o, " (%s)", tr_log_lane(log_of(adv, f)));
        tr_out_fmt(o, "\n     %s\n", advice);
    }
    if (!shown)
        tr_out_str(o, "  no inefficiency above 0.5% of the run found\n");
}

void tr_advise_json(const struct tr_advice *adv, struct tr_out *o)
{
    tr_out_str(o, "{\"findings\": [");
    for (size_t i = 0; i < adv->n; i++) {
        const struct tr_finding *f = &adv->v[i];
        char hex[TR_WHERE_MAX], advice[512];
        const char *where = tr_finding_where(adv, f, hex);
        tr_finding_advice(adv, f, advice, sizeof advice);
        tr_out_str(o, i ? ",\n  {" : "\n  {");
        tr_out_fmt(o, "\"cause\": \"%s\", \"where\": ", tr_cause_name[f->cause]);
        tr_out_json_str(o, (const uint8_t *)where, strlen(where));
        tr_out_str(o, ", \"region\": ");
        struct tr_finding region = *f;
        region.task_site = region.between = false;
        region.site = 0;
        where = tr_finding_where(adv, &region, hex);
        tr_out_json_str(o, (const uint8_t *)where, strlen(where));
        tr_out_str(o, ", \"log\": ");
        const char *lane = log_of(adv, f) ? tr_log_lane(log_of(adv, f)) : "";
        tr_out_json_str(o, (const uint8_t *)lane, strlen(lane));
        tr_out_fmt(o, ", \"gain_ns\": %llu, \"share\": %.4f, \"count\": %llu, \"threads\": %u, "
                   "\"cpus\": %u, \"advice\": ",
                   (unsigned long long)f->gain_ns, share(adv, f), (unsigned long long)f->count,
                   f->threads, f->cpus);
        tr_out_json_str(o, (const uint8_t *)advice, strlen(advice));
        tr_out_char(o, '}');
    }
    tr_out_str(o, adv->n ? "\n]}\n" : "]}\n");
}

void tr_advise_html(const struct tr_advice *adv, struct tr_out *o)
{
    tr_out_str(o, "<section id=\"advise\"><h2>Advice: what fixing each would save</h2>\n"
                  "<table class=\"advise\"><tr><th>#</th><th>cause</th><th>gain ms</th>"
                  "<th>share</th><th>where</th><th>advice</th></tr>\n");
    size_t shown = 0;
    for (size_t i = 0; i < adv->n && shown < 20; i++) {
        const struct tr_finding *f = &adv->v[i];
        double s = share(adv, f);
        if (s < 0.005)
            continue;
        char hex[TR_WHERE_MAX], advice[512];
        const char *where = tr_finding_where(adv, f, hex);
        tr_finding_advice(adv, f, advice, sizeof advice);
        tr_out_fmt(o, "<tr><td>%zu</td><td>%s</td><td>%.3f</td><td>%.1f%%</td><td>", ++shown,
                   tr_cause_name[f->cause], (double)f->gain_ns / 1e6, 100.0 * s);
        tr_out_html(o, (const uint8_t *)where, strlen(where));
        if (adv->nlogs > 1 && log_of(adv, f)) {
            const char *lane = tr_log_lane(log_of(adv, f));
            tr_out_str(o, " (");
            tr_out_html(o, (const uint8_t *)lane, strlen(lane));
            tr_out_char(o, ')');
        }
        tr_out_str(o, "</td><td>");
        tr_out_html(o, (const uint8_t *)advice, strlen(advice));
        tr_out_str(o, "</td></tr>\n");
    }
    if (!shown)
        tr_out_str(o, "<tr><td colspan=\"6\">no inefficiency above 0.5% of the run found</td></tr>\n");
    tr_out_str(o, "</table></section>\n");
}

/* pvomp-trace advise [--json] LOG... */
int tr_cmd_advise(struct tr_log **logs, size_t n, const struct tr_opts *opt, FILE *f)
{
    struct tr_advice adv = { .logs = logs };
    struct tr_out o;
    tr_out_init(&o, f);
    for (size_t i = 0; i < n; i++)
        tr_advise_log(&adv, logs[i], i);
    tr_advise_rank(&adv);
    if (opt->json)
        tr_advise_json(&adv, &o);
    else {
        tr_out_fmt(&o, "advice (inefficiencies by estimated gain: the wall time saved if it "
                       "were fixed; docs/trace.md, \"advise\"):\n");
        tr_advise_text(&adv, &o, opt->top ? opt->top : 10);
    }
    tr_out_flush(&o);
    free(o.buf);
    tr_advice_free(&adv);
    return 0;
}
