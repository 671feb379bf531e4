/* Race-free OpenMP code that exercises every synchronisation Archer learns
 * from the runtime's OMPT events: fork/join, barriers (explicit, and the
 * implicit ones of worksharing), single and copyprivate, master with a
 * barrier, critical (unnamed, named), atomic through the runtime's lock,
 * locks and nested locks, ordered, reductions, sections, tasks with
 * taskwait, taskgroup and dependences, taskwait with depend, and nested
 * parallelism.  Built with -fsanitize=thread and run with Archer loaded
 * through OMP_TOOL_LIBRARIES: ThreadSanitizer must stay silent (on the
 * system libgomp, which has no OMPT, it reports races here).  Plain
 * (non-atomic) shared accesses only. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define T 4
#define N 256

static int shared[N], flag, total, lock_total, nest_total, named_total, ordered_last = -1;
static long double ld;
static omp_lock_t lock;
static omp_nest_lock_t nest;

static void nest_add(int depth)
{
    omp_set_nest_lock(&nest);
    nest_total++;
    if (depth)
        nest_add(depth - 1);
    omp_unset_nest_lock(&nest);
}

static int fib(int n)
{
    if (n < 2)
        return n;
    int a, b;
#pragma omp task shared(a)
    a = fib(n - 1);
#pragma omp task shared(b)
    b = fib(n - 2);
#pragma omp taskwait
    return a + b;
}

int main(void)
{
    omp_init_lock(&lock);
    omp_init_nest_lock(&nest);
    for (int i = 0; i < N; i++)
        shared[i] = i;   /* written before the fork, read inside */

    long sum = 0;
#pragma omp parallel num_threads(T) reduction(+ : sum)
    {
        int id = omp_get_thread_num();
        /* barrier: each thread writes its part, reads the others' after. */
        for (int i = id; i < N; i += T)
            shared[i] *= 2;
#pragma omp barrier
        for (int i = 0; i < N; i++)
            sum += shared[i];
#pragma omp barrier
        /* single (implicit barrier after it) */
#pragma omp single
        flag = 1;
        if (flag != 1)
            abort();
#pragma omp barrier
        /* master + explicit barrier */
#pragma omp master
        flag = 2;
#pragma omp barrier
        if (flag != 2)
            abort();
        /* critical, named critical, atomic via the runtime's lock */
        for (int k = 0; k < 10; k++) {
#pragma omp critical
            total++;
#pragma omp critical(named)
            named_total++;
#pragma omp atomic
            ld += 1.0L;
        }
        /* locks */
        for (int k = 0; k < 10; k++) {
            omp_set_lock(&lock);
            lock_total++;
            omp_unset_lock(&lock);
            nest_add(2);
        }
        /* worksharing loops: the implicit barrier orders them */
#pragma omp for schedule(dynamic, 7)
        for (int i = 0; i < N; i++)
            shared[i] += 1;
#pragma omp for schedule(static)
        for (int i = 0; i < N; i++)
            shared[N - 1 - i] += 1;
        /* ordered */
#pragma omp for ordered schedule(dynamic)
        for (int i = 0; i < 64; i++) {
#pragma omp ordered
            {
                if (ordered_last != i - 1)
                    abort();
                ordered_last = i;
            }
        }
        /* sections */
#pragma omp sections
        {
#pragma omp section
            shared[0] += 10;
#pragma omp section
            shared[1] += 10;
        }
        /* copyprivate */
        int value = 0;
#pragma omp single copyprivate(value)
        value = shared[0];
        if (value != shared[0])
            abort();
    }

    /* Tasks: taskwait, taskgroup, dependences. */
    int result = 0, chain = 0;
#pragma omp parallel num_threads(T)
#pragma omp single
    {
        result = fib(15);
#pragma omp taskgroup
        {
            for (int i = 0; i < 32; i++) {
#pragma omp task firstprivate(i)
                shared[i] = -i;
            }
        }
        for (int i = 0; i < 32; i++)
            if (shared[i] != -i)
                abort();
        for (int i = 0; i < 16; i++) {
#pragma omp task depend(inout : chain) firstprivate(i)
            {
                if (chain != i)
                    abort();
                chain++;
            }
        }
#pragma omp task depend(in : chain)
        {
            if (chain != 16)
                abort();
        }
#pragma omp taskwait
        /* A taskwait with depend (after the plain one, so that the order
         * does not rest on it): Archer gets its events (a task of type
         * taskwait, then ompt_taskwait_complete) and must cope. */
#pragma omp taskwait depend(in : chain)
    }

    /* Nested parallelism. */
    omp_set_max_active_levels(2);
    int outer[2] = {0, 0};
#pragma omp parallel num_threads(2)
    {
        int o = omp_get_thread_num();
        int inner = 0;
#pragma omp parallel num_threads(2) reduction(+ : inner)
        inner += 1;
        outer[o] = inner;
    }

    omp_destroy_lock(&lock);
    omp_destroy_nest_lock(&nest);
    long want = 0;
    for (int i = 0; i < N; i++)
        want += 2L * i;
    if (sum != want * T || total != T * 10 || lock_total != T * 10 || nest_total != T * 10 * 3 ||
        named_total != T * 10 ||
        ld != T * 10 || result != 610 || chain != 16 || outer[0] != 2 || outer[1] != 2) {
        printf("wrong results\n");
        return 1;
    }
    printf("archer_ok: results right\n");
    return 0;
}
