/* pvomp runtime internals, for the files that still include them all:
 * runtime/icv.h, places.h, barrier.h, workshare.h, thread.h, league.h,
 * team.h, with what they used to bring along. */
#ifndef PV_RUNTIME_INTERNAL_H
#define PV_RUNTIME_INTERNAL_H

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/alloc.h"
#include "base/compiler.h"
#include "base/message.h"
#include "ompt/ompt.h"
#include "runtime/barrier.h"
#include "runtime/barrier_kind.h"
#include "runtime/icv.h"
#include "runtime/league.h"
#include "runtime/ompt_view.h"
#include "runtime/places.h"
#include "runtime/team.h"
#include "runtime/thread.h"
#include "runtime/unsupported.h"
#include "runtime/workshare.h"
#include "wait/wait.h"

#endif
