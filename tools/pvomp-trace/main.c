/* pvomp-trace: read pvomp's flight log (QEMU simpletrace log version 4).
 *
 *   pvomp-trace dump [--simpletrace|--file-order] [--all] [--abs] LOG
 *   pvomp-trace stats LOG
 *   pvomp-trace timeline [--html [OUT.html] | --json [OUT.json]] [--width PX] LOG
 *   pvomp-trace advise [--json] LOG...
 *   pvomp-trace events [LOG]
 *   pvomp-trace snapshot PID   (a process tracing in ring mode writes a snapshot)
 *
 * Common options: --events FILE (declarations for logs without them, such as
 * QEMU's), -o FILE (output, default stdout).
 * Exit status: 0 the log was read completely; 2 it is incomplete or damaged
 * (everything readable was used, and stderr says where and what); 1 usage
 * error or not a readable log. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "log.h"
#include "names.h"
#include "timebase.h"


#define MAX_LOGS 4096

static int usage(FILE *f, int status)
{
    fputs("usage: pvomp-trace dump [--simpletrace|--file-order] [--all] [--abs] [options] LOG\n"
          "       pvomp-trace stats [options] LOG...\n"
          "       pvomp-trace timeline [--html [OUT.html]|--json [OUT.json]] [--width PX] [options] LOG...\n"
          "       pvomp-trace advise [--json] [--top N] [options] LOG...\n"
          "       pvomp-trace events [LOG]\n"
          "       pvomp-trace snapshot PID\n"
          "options: --events FILE   trace-events declarations for logs that lack them\n"
          "         -o FILE         write the output there instead of stdout\n"
          "         --debuginfo DIR separate debug files, DIR/.build-id/xx/yyyy.debug\n"
          "         --time-base monotonic|realtime   several logs: one host's CLOCK_MONOTONIC\n"
          "                         (default), or CLOCK_REALTIME for several hosts\n"
          "         --clock-offset LOG=NS   add NS to LOG's times (LOG: its path or file name)\n"
          "dump:    time order across threads; --simpletrace prints exactly what QEMU's\n"
          "         simpletrace.py prints (file order, every record); --all includes the\n"
          "         log's own records; --abs prints time since the start, not deltas\n"
          "timeline: Chrome trace-event JSON (Perfetto UI); --html: self-contained report\n"
          "several logs (stats, timeline): one summary / one timeline (JSON: a process\n"
          "         per log; HTML: a row per log's thread), on each log's CLOCK_MONOTONIC\n"
          "         (the processes of one host)\n"
          "advise:  inefficiencies ranked by the wall time fixing each would save, with\n"
          "         cause, place and advice (--json: {\"findings\": [...]}, best first)\n"
          "events:  the trace-events file for simpletrace.py (built-in catalog without LOG)\n"
          "snapshot: make a process that traces with PVOMP_TRACE_MODE=ring write its\n"
          "         recorder out (SIGUSR2) and print the snapshot's file name\n"
          "exit status: 0 complete log, 2 incomplete or damaged log (stderr says where),\n"
          "             1 usage error or unreadable log\n", f);
    return status;
}

/* The value v of option a, a number in [min, max] (else a message). */
static bool number(const char *a, const char *v, long min, long max, const char *what,
                   unsigned *out)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (!*v || *end || n < min || n > max) {
        fprintf(stderr, "pvomp-trace: %s %s: give %ld to %ld %s\n", a, v, min, max, what);
        return false;
    }
    *out = (unsigned)n;
    return true;
}

int main(int argc, char **argv)
{
    struct tr_opts opt = { 0 };
    const char *cmd, *path = NULL;
    const char *paths[MAX_LOGS];
    size_t npaths = 0;
    if (argc < 2)
        return usage(stderr, 1);
    cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help"))
        return usage(stdout, 0);
    if (!strcmp(cmd, "snapshot"))
        return tr_cmd_snapshot(argc - 2, argv + 2, stdout);
    if (strcmp(cmd, "dump") && strcmp(cmd, "stats") && strcmp(cmd, "timeline") &&
        strcmp(cmd, "events") && strcmp(cmd, "advise")) {
        fprintf(stderr, "pvomp-trace: unknown command '%s'\n", cmd);
        return usage(stderr, 1);
    }
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--simpletrace"))
            opt.simpletrace = true;
        else if (!strcmp(a, "--file-order"))
            opt.file_order = true;
        else if (!strcmp(a, "--all"))
            opt.all = true;
        else if (!strcmp(a, "--abs"))
            opt.absolute = true;
        else if (!strcmp(a, "--html") || !strcmp(a, "--json")) {
            bool html = !strcmp(a, "--html");
            opt.html = html;
            opt.json = !html;
            /* "--html OUT.html LOG": the output may follow directly. */
            const char *ext = html ? ".html" : ".json";
            size_t l = i + 2 < argc ? strlen(argv[i + 1]) : 0;
            if (l > 5 && !strcmp(argv[i + 1] + l - 5, ext))
                opt.output = argv[++i];
        }
        else if ((!strcmp(a, "--events") || !strcmp(a, "-o") || !strcmp(a, "--width") || !strcmp(a, "--top") ||
                  !strcmp(a, "--debuginfo") || !strcmp(a, "--time-base") ||
                  !strcmp(a, "--clock-offset")) &&
                 i + 1 < argc) {
            const char *v = argv[++i];
            if (!strcmp(a, "--time-base")) {
                if (strcmp(v, "monotonic") && strcmp(v, "realtime")) {
                    fprintf(stderr, "pvomp-trace: --time-base %s: give monotonic (one host) or "
                                    "realtime (several hosts)\n", v);
                    return 1;
                }
                opt.realtime_base = !strcmp(v, "realtime");
            } else if (!strcmp(a, "--clock-offset")) {
                const char *eq = strrchr(v, '=');
                char *end = NULL;
                long long ns = eq ? strtoll(eq + 1, &end, 10) : 0;
                if (!eq || eq == v || !eq[1] || *end || opt.noffsets == 64) {
                    fprintf(stderr, "pvomp-trace: --clock-offset %s: give LOG=NS (ns added to "
                                    "that log's times; at most 64)\n", v);
                    return 1;
                }
                opt.offsets[opt.noffsets++] = (struct tr_clock_offset){ strndup(v, (size_t)(eq - v)),
                                                                        ns, false };
            } else if (!strcmp(a, "--events"))
                opt.events_file = v;
            else if (!strcmp(a, "--debuginfo"))
                opt.debuginfo = v;
            else if (!strcmp(a, "-o"))
                opt.output = v;
            else if (!strcmp(a, "--top")) {
                if (!number(a, v, 1, 1000, "findings", &opt.top))
                    return 1;
            } else if (!number(a, v, 200, 20000, "pixels", &opt.width))
                return 1;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "pvomp-trace: unknown option '%s'\n", a);
            return usage(stderr, 1);
        } else if (!path) {
            path = a;
            paths[npaths++] = a;
        } else if (npaths < MAX_LOGS) {
            paths[npaths++] = a;
        } else {
            fprintf(stderr, "pvomp-trace: at most %d logs at a time\n", MAX_LOGS);
            return 1;
        }
    }
    bool many = !strcmp(cmd, "stats") || !strcmp(cmd, "timeline") || !strcmp(cmd, "advise");
    if (npaths > 1 && !many) {
        fprintf(stderr, "pvomp-trace: %s reads one log (stats, timeline and advise take several)\n", cmd);
        return 1;
    }
    if (!path && strcmp(cmd, "events")) {
        fprintf(stderr, "pvomp-trace: %s: which log?\n", cmd);
        return usage(stderr, 1);
    }
    if (opt.output && opt.html == false && !strcmp(cmd, "timeline")) {
        size_t l = strlen(opt.output);
        if (l > 5 && !strcmp(opt.output + l - 5, ".html"))
            opt.html = !opt.json;
    }
    FILE *out = stdout;
    if (opt.output && !(out = fopen(opt.output, "w"))) {
        perror(opt.output);
        return 1;
    }
    int status;
    if (!path) {
        status = tr_cmd_events(NULL, out);
    } else {
        struct tr_log *logs = calloc(npaths, sizeof *logs), *lp[MAX_LOGS];
        size_t n = 0;
        status = 0;
        for (; logs && n < npaths; n++) {
            lp[n] = &logs[n];
            if (tr_log_open(&logs[n], paths[n], opt.events_file, stderr) != 0) {
                status = 1;
                break;
            }
            if (strcmp(cmd, "events"))
                logs[n].names = tr_names_open(&logs[n], opt.debuginfo);
            logs[n].realtime_base = opt.realtime_base;
            for (size_t k = 0; k < opt.noffsets; k++)
                if (!strcmp(opt.offsets[k].log, paths[n]) ||
                    !strcmp(opt.offsets[k].log, tr_log_lane(&logs[n]))) {
                    logs[n].shift_ns += opt.offsets[k].ns;
                    opt.offsets[k].used = true;
                }
        }
        for (size_t k = 0; !status && k < opt.noffsets; k++)
            if (!opt.offsets[k].used) {
                fprintf(stderr, "pvomp-trace: --clock-offset %s=...: no such log among those "
                                "given\n", opt.offsets[k].log);
                status = 1;
            }
        if (!logs || status) {
            for (size_t i = 0; i < n; i++) {
                tr_names_close(logs[i].names);
                tr_log_close(&logs[i]);
            }
            free(logs);
            if (out != stdout)
                fclose(out);
            return 1;
        }
        if (!strcmp(cmd, "dump"))
            status = tr_cmd_dump(lp[0], &opt, out);
        else if (!strcmp(cmd, "stats"))
            status = tr_cmd_stats(lp, n, &opt, out);
        else if (!strcmp(cmd, "timeline"))
            status = tr_cmd_timeline(lp, n, &opt, out);
        else if (!strcmp(cmd, "advise"))
            status = tr_cmd_advise(lp, n, &opt, out);
        else
            status = tr_cmd_events(lp[0], out);
        for (size_t i = 0; i < n; i++) {
            if (!tr_log_report_end(&logs[i]) && status == 0)
                status = 2;
            tr_names_close(logs[i].names);
            tr_log_close(&logs[i]);
        }
        free(logs);
    }
    if (fflush(out) != 0 || (out != stdout && fclose(out) != 0)) {
        perror(opt.output ? opt.output : "stdout");
        return 1;
    }
    return status;
}
