/* One object for the whole team, made by whichever thread gets there first:
 * for kmpc constructs that every thread of a team meets in the same order
 * (doacross_init, taskred_modifier_init).  A worksharing slot of pvomp's
 * hands the object over; ws->copyprivate is a pointer the slot does not
 * own (it is not freed with the slot), so the slot is left at once and the
 * object lives as long as its users decide. */
#include "abi/kmpc.h"
#include "runtime/thread.h"
#include "runtime/workshare.h"

void *pv_kmpc_team_once(void *(*create)(void *ctx), void *ctx)
{
    struct pv_ws *ws;
    if (pv_ws_start()) {
        ws = pv_thr.ts.ws;
        ws->copyprivate = create(ctx);
        pv_ws_init_done(); /* publishes ws->copyprivate (release) */
    } else {
        ws = pv_thr.ts.ws;
    }
    void *obj = ws->copyprivate;
    pv_ws_end_nowait();
    return obj;
}
