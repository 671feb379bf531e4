/* Trace clock selection and TSC calibration (see clock.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/message.h"
#include "trace/clock.h"

struct pv_trace_clock pv_trace_clk = { .source = "monotonic" };

#ifdef PV_TRACE_HAVE_TSC
/* One (TSC, CLOCK_MONOTONIC) pair: the TSC readings that bracket the
 * clock_gettime() call most tightly out of a few tries. */
static void clock_pair(uint64_t *tsc, uint64_t *ns)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < 7; i++) {
        uint64_t a = __rdtsc();
        uint64_t n = pv_monotonic_ns();
        uint64_t b = __rdtsc();
        if (b - a < best) {
            best = b - a;
            *tsc = a + (b - a) / 2;
            *ns = n;
        }
    }
}

static int file_has_word(const char *path, const char *word)
{
    FILE *f = fopen(path, "r");
    char line[4096];
    int found = 0;
    size_t wl = strlen(word);
    if (!f)
        return 0;
    while (!found && fgets(line, sizeof line, f)) {
        for (char *p = strstr(line, word); p; p = strstr(p + 1, word)) {
            bool start = p == line || p[-1] == ' ' || p[-1] == '\t' || p[-1] == ':';
            char e = p[wl];
            if (start && (e == ' ' || e == '\n' || e == '\0')) {
                found = 1;
                break;
            }
        }
    }
    fclose(f);
    return found;
}

/* The kernel keeps time with the TSC, and the TSC is invariant. */
static int tsc_trustworthy(void)
{
    FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
    char cs[64] = "";
    if (f) {
        if (!fgets(cs, sizeof cs, f))
            cs[0] = 0;
        fclose(f);
    }
    if (strcmp(cs, "tsc\n") != 0)
        return 0;
    return file_has_word("/proc/cpuinfo", "constant_tsc") &&
           file_has_word("/proc/cpuinfo", "nonstop_tsc");
}

static int tsc_calibrate(void)
{
    uint64_t t1 = 0, n1 = 0, t2 = 0, n2 = 0; /* set by clock_pair; -O3 cannot tell */
    struct timespec pause = { 0, 10 * 1000 * 1000 };
    clock_pair(&t1, &n1);
    nanosleep(&pause, NULL);
    clock_pair(&t2, &n2);
    if (t2 <= t1 || n2 <= n1)
        return 0;
    uint64_t hz = (uint64_t)((__int128)(t2 - t1) * 1000000000 / (n2 - n1));
    if (hz < 100000000ull || hz > 20000000000ull)
        return 0;
    pv_trace_clk.mult = (uint64_t)(((__int128)(n2 - n1) << 32) / (t2 - t1));
    pv_trace_clk.tsc0 = t2;
    pv_trace_clk.ns0 = n2;
    pv_trace_clk.hz = hz;
    return 1;
}
#endif

void pv_trace_clock_init(void)
{
    const char *want = getenv("PVOMP_TRACE_CLOCK");
    if (want && *want && strcmp(want, "auto") && strcmp(want, "tsc") && strcmp(want, "monotonic")) {
        pv_warn("PVOMP_TRACE_CLOCK=%s is not auto, tsc or monotonic; using auto", want);
        want = NULL;
    }
#ifdef PV_TRACE_HAVE_TSC
    if (!want || !*want || !strcmp(want, "auto") || !strcmp(want, "tsc")) {
        bool forced = want && !strcmp(want, "tsc");
        if ((forced || tsc_trustworthy()) && tsc_calibrate()) {
            pv_trace_clk.source = "tsc";
            pv_trace_clk.use_tsc = 1;
            return;
        }
        if (forced)
            pv_warn("PVOMP_TRACE_CLOCK=tsc: the TSC could not be calibrated; using "
                    "CLOCK_MONOTONIC");
    }
#else
    if (want && !strcmp(want, "tsc"))
        pv_warn("PVOMP_TRACE_CLOCK=tsc: no TSC on this machine; using CLOCK_MONOTONIC");
#endif
    pv_trace_clk.use_tsc = 0;
    pv_trace_clk.source = "monotonic";
    pv_trace_clk.hz = 0;
}
