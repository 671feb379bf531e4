/* What an ABI entry point that pvomp does not implement yet does: say so and
 * stop, so that a program never binds silently to another runtime. */
#ifndef PV_RUNTIME_UNSUPPORTED_H
#define PV_RUNTIME_UNSUPPORTED_H

#include "base/compiler.h"

__attribute__((noreturn)) PV_HIDDEN void pv_unsupported(const char *name);

#endif
