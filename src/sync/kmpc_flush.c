/* flush through libomp's ABI: a full fence and OMPT's flush event. */
#include <stdatomic.h>

#include "abi/kmpc.h"
#include "ompt/ompt.h" /* pv_ompt_tool, the OMPT event sites */

PV_EXPORT void __kmpc_flush(ident_t *loc)
{
    (void)loc;
    atomic_thread_fence(memory_order_seq_cst);
    if (pv_ompt_tool())
        pv_ompt_flush(__builtin_return_address(0));
}
