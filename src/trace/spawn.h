/* The trace's own threads (the writer, logfile.c's I/O thread). */
#ifndef PV_TRACE_SPAWN_H
#define PV_TRACE_SPAWN_H

#include <pthread.h>

#include "base/compiler.h"

/* Starts fn(NULL) named `name` with every signal blocked: it must not run
 * the program's signal handlers or be stopped by them.  0 or an errno value. */
int pv_trace_spawn(pthread_t *t, void *(*fn)(void *), const char *name) PV_HIDDEN;

#endif
