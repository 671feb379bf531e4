/* valgrind's client requests when its header is installed, else their
 * answers outside valgrind: not running under it, nothing to discard. */
#ifndef PV_BASE_VALGRIND_H
#define PV_BASE_VALGRIND_H

#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#define VALGRIND_DISCARD_TRANSLATIONS(addr, len) ((void)(addr), (void)(len))
#endif

#endif
