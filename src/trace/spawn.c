/* The trace's own threads (spawn.h). */
#include <signal.h>

#include "trace/spawn.h"

int pv_trace_spawn(pthread_t *t, void *(*fn)(void *), const char *name)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int e = pthread_create(t, NULL, fn, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (e == 0)
        pthread_setname_np(*t, name);
    return e;
}
