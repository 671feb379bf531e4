/* An OMPT object that calls a runtime function its view (runtime/ompt_view.h,
 * runtime/barrier_kind.h) does not declare: layers_links_outside_view feeds
 * it to the link check as part of src/ompt, which must name it.  Compiled,
 * never linked into anything. */
#include <stdbool.h>

void pv_display_env(bool verbose); /* runtime/icv.h: env.c */

void layers_outside_view(void)
{
    pv_display_env(false);
}
