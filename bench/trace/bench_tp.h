/* LTTng-UST tracepoint equivalent to pvomp's benchmark event: two integers. */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER pvbench

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./bench_tp.h"

#if !defined(BENCH_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define BENCH_TP_H

#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT(
    pvbench, seq,
    LTTNG_UST_TP_ARGS(unsigned, thread, uint64_t, seq),
    LTTNG_UST_TP_FIELDS(
        lttng_ust_field_integer(unsigned, thread, thread)
        lttng_ust_field_integer(uint64_t, seq, seq)))

#endif

#include <lttng/tracepoint-event.h>
