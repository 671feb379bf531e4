/* The unsigned long long side of the schedulers: only counting differs.
 * A "down" loop passes its (negative) increment as a two's complement
 * unsigned value; once counted, iteration k is start + k * incr modulo 2^64
 * in both directions, so iter.c's schedulers serve both forms. */
#include "loops/loop.h"

pv_ull pv_count_ull(bool up, pv_ull start, pv_ull end, pv_ull incr)
{
    if (up) {
        if (start >= end || incr == 0)
            return 0;
        return (end - start - 1) / incr + 1;
    }
    pv_ull step = 0ULL - incr;   /* magnitude of the decrement */
    if (start <= end || step == 0)
        return 0;
    return (start - end - 1) / step + 1;
}
