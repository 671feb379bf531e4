/* A log's records: in time order across its streams (merge.c) or in
 * file order (walk.c). */
#ifndef PVOMP_TRACE_RECORDS_H
#define PVOMP_TRACE_RECORDS_H

#include <stdbool.h>

#include "log.h"

/* Records in time order (merge.c). */
struct tr_merge;
struct tr_merge *tr_merge_new(struct tr_log *log, bool with_meta);
/* Next record, or NULL at the end.  The record stays valid until the next call. */
const struct tr_rec *tr_merge_next(struct tr_merge *m);
void tr_merge_free(struct tr_merge *m);

/* Records in file order (walk.c), every event record including the log's own. */
struct tr_walk;
struct tr_walk *tr_walk_new(struct tr_log *log);
const struct tr_rec *tr_walk_next(struct tr_walk *w);
void tr_walk_free(struct tr_walk *w);

#endif
