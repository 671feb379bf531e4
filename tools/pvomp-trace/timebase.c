/* Several logs on one time line (timebase.h): each log's offset to the
 * common clock, and its lane name. */
#include <string.h>

#include "log.h"
#include "timebase.h"


/* Logs of one host share CLOCK_MONOTONIC, so their records line up on it;
 * across hosts CLOCK_REALTIME (NTP-synchronised: to about a millisecond),
 * or offsets the user gives. */
int64_t tr_log_time_offset(const struct tr_log *log)
{
    uint64_t base = log->realtime_base ? log->clock_real : log->clock_mono;
    return tr_time_add(base || log->clock_ts ? (int64_t)(base - log->clock_ts) : 0, log->shift_ns);
}

const char *tr_log_lane(const struct tr_log *log)
{
    const char *s = strrchr(log->path, '/');
    return s ? s + 1 : log->path;
}
