/* What a worksharing slot holds for the constructs of src/loops, released
 * by the last thread leaving the slot (workshare.c), before it is recycled.
 * Here, below src/loops, so that the runtime never calls up into it: the
 * ordered hand-over (loops/ordered.c) lives in the slot itself, the doacross
 * table (loops/doacross.c) is one heap block. */
#include <stdlib.h>

#include "runtime/workshare.h"

void pv_ordered_release(struct pv_ws *ws)
{
    /* The hand-over state lives in the slot; nothing to free. */
    ws->ordered = NULL;
    ws->ordered_loop = false;
    ws->ordered_start_work = false;
}

void pv_doacross_release(struct pv_ws *ws)
{
    free(ws->doacross);
    ws->doacross = NULL;
}
