/* target_map_emi's mapping flags (OpenMP 5.2 adds ompt_target_map_flag_always,
 * _present, _close and _shared): `always` map-type modifiers are reported
 * with ompt_target_map_flag_always beside to/from; a plain map without it.
 * The program is its own tool (linked with -rdynamic).  Run with device 0's
 * own memory (PVOMP_DEVICE_MEMORY=separate). */
#define _GNU_SOURCE
#include <omp-tools.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

#include "pvomp_check.h"

#define MAXITEMS 64
static struct { void *host; unsigned flags; } items[MAXITEMS];
static int nitems_seen;

static void on_map(ompt_data_t *target_data, unsigned int n, void **host_addr, void **device_addr,
                   size_t *bytes, unsigned int *flags, const void *codeptr)
{
    (void)target_data, (void)device_addr, (void)bytes, (void)codeptr;
    for (unsigned i = 0; i < n && nitems_seen < MAXITEMS; i++, nitems_seen++) {
        items[nitems_seen].host = host_addr[i];
        items[nitems_seen].flags = flags[i];
    }
}

static int tool_init(ompt_function_lookup_t lookup, int dev, ompt_data_t *data)
{
    (void)dev, (void)data;
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    CHECK(set && set(ompt_callback_target_map_emi, (ompt_callback_t)on_map) == ompt_set_always);
    return 1;
}

static void tool_fini(ompt_data_t *data)
{
    (void)data;
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int v, const char *rt)
{
    (void)v, (void)rt;
    static ompt_start_tool_result_t r = {tool_init, tool_fini, {0}};
    return &r;
}

/* The flags of the first map item at `host` from event number `from` on. */
static unsigned flags_of(void *host, int from)
{
    for (int i = from; i < nitems_seen; i++)
        if (items[i].host == host)
            return items[i].flags;
    return 0;
}

int main(void)
{
    static int a[16], b[16];
    CHECK(omp_get_num_devices() >= 1);

    int first = nitems_seen;
#pragma omp target map(always, to: a) map(to: b) device(0)
    {
        a[0] += b[0];
    }
    unsigned fa = flags_of(a, first), fb = flags_of(b, first);
    printf("always,to: %#x  to: %#x\n", fa, fb);
    CHECK(fa & ompt_target_map_flag_to);
    CHECK(fa & ompt_target_map_flag_always);
    CHECK(fb & ompt_target_map_flag_to);
    CHECK(!(fb & ompt_target_map_flag_always));

    first = nitems_seen;
#pragma omp target map(always, from: a) device(0)
    {
        a[1] = 7;
    }
    fa = flags_of(a, first);
    printf("always,from: %#x\n", fa);
    CHECK((fa & ompt_target_map_flag_from) && (fa & ompt_target_map_flag_always));
    CHECK(a[1] == 7);
    printf("target_map_flags: ok\n");
    return 0;
}
