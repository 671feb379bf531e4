/* Shared driver for pvomp's construct-overhead benchmarks (EPCC's method).
 *
 * A construct is measured by running it innerreps times around a short
 * delay, then running the same delays sequentially; the difference divided
 * by innerreps is the overhead of one construct instance.  innerreps grows
 * until one test run takes at least the target time; the measurement is then
 * repeated (outer repetitions) and every sample is printed, so that the
 * runner can take medians and spreads across runtimes and processes.
 *
 * Output (stdout, one record per line, all times in microseconds):
 *   I runtime <file libgomp.so.1 symbols come from>
 *   I threads <team size>   I delay_us <delay length>
 *   S <construct> <overhead sample>
 *   T <benchmark> <elapsed-time sample>
 *   X <construct> <details: innerreps, reference time>
 * With --list only "L <name>" lines are printed.
 *
 * --reps N (for counting instructions, bench/ompt/instructions.sh): each
 * selected construct runs N instances once, in one call of bench_measured()
 * (a function for callgrind to collect and dump at), with no timing, no
 * reference and no growth of innerreps; "X <construct> reps=N" is printed
 * per construct; --calls K makes that K calls (K regions of N instances,
 * the shape of a timed run, for counting scheduler events per region:
 * bench/tasks/switches.py).  --fib N sets fib's argument (FIB30 keeps its name).
 */
#ifndef PVOMP_BENCHLIB_H
#define PVOMP_BENCHLIB_H

typedef void (*bench_fn)(long innerreps);

struct bench_opts {
    long delay_iters;   /* iterations of bench_delay() per delay */
    double target_us;   /* minimum duration of one test run */
    int outer;          /* outer repetitions per construct */
    const char *only;   /* comma list of construct names, or NULL for all */
    int list;           /* --list: print "L <name>" per benchmark, measure nothing */
    long reps;          /* --reps N: run each construct N times once, untimed (0: off) */
    long calls;         /* --calls K: with --reps, K such runs (default 1) */
    int fib;            /* --fib N: the task-parallel fib's argument (30) */
};

extern struct bench_opts bench_opt;
extern int bench_threads;          /* team size every construct runs with */

/* Parse the common options; prints the header. Returns 0 to continue. */
int bench_init(int argc, char **argv, const char *suite);

/* A delay of bench_opt.delay_iters loop iterations (never inlined). */
void bench_delay(long iters);
static inline void delay(void) { bench_delay(bench_opt.delay_iters); }

double bench_now_us(void);

/* Measure one construct: test(innerreps) against ref(innerreps). */
void bench_overhead(const char *name, bench_fn test, bench_fn ref);

/* Measure the elapsed time of fn() (reps samples). */
void bench_elapsed(const char *name, void (*fn)(void), int reps);

/* Runs fn(reps) (never inlined: a function name for callgrind). */
void bench_measured(bench_fn fn, long reps);

/* The usual reference: innerreps delays in a row on one thread. */
void bench_ref_delays(long innerreps);

/* innerreps rounded up to a multiple of the team size. */
long bench_round(long innerreps);

/* A value the compiler cannot see through (defeats constant folding). */
extern volatile int bench_false;

#endif
