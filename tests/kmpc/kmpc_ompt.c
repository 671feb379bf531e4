/* OMPT for clang programs: the events clang's code reaches the runtime for
 * (and gcc's does not): masked (master and masked filter), reduction (the
 * combining step of __kmpc_reduce*) and flush, each with the program's call
 * site as codeptr_ra.  The tool is this program (ompt_start_tool). */
#define _GNU_SOURCE
#include <omp-tools.h>
#include <omp.h>
#include <stdio.h>

#include "kmpc_tool.h"
#include "pvomp_check.h"
#include "omp_test.h"

static int masked_begin, masked_end, red_begin, red_end, flushes, bad_codeptr;

static void on_masked(ompt_scope_endpoint_t ep, ompt_data_t *par, ompt_data_t *task,
                      const void *codeptr)
{
    (void)task;
    if (!par || !codeptr)
        TEST_INC(&bad_codeptr);
    TEST_INC(ep == ompt_scope_begin ? &masked_begin : &masked_end);
}

static void on_reduction(ompt_sync_region_t kind, ompt_scope_endpoint_t ep, ompt_data_t *par,
                         ompt_data_t *task, const void *codeptr)
{
    (void)par, (void)task;
    if (kind != ompt_sync_region_reduction || !codeptr)
        TEST_INC(&bad_codeptr);
    TEST_INC(ep == ompt_scope_begin ? &red_begin : &red_end);
}

static void on_flush(ompt_data_t *thread, const void *codeptr)
{
    if (!thread || !codeptr)
        TEST_INC(&bad_codeptr);
    TEST_INC(&flushes);
}

static int set_ok = 1;

static int tool_init(ompt_function_lookup_t lookup, int dev, ompt_data_t *data)
{
    (void)dev, (void)data;
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    /* always, as libomp (docs/ompt.md: gcc programs never report them) */
    set_ok &= set(ompt_callback_masked, (ompt_callback_t)on_masked) == ompt_set_always;
    set_ok &= set(ompt_callback_reduction, (ompt_callback_t)on_reduction) == ompt_set_always;
    set_ok &= set(ompt_callback_flush, (ompt_callback_t)on_flush) == ompt_set_always;
    return 1;
}

KMPC_TOOL(tool_init)

int main(void)
{
    long sum = 0;
#pragma omp parallel num_threads(3) reduction(+ : sum)
    {
#pragma omp master
        sum += 1;
#pragma omp masked filter(2)
        sum += 10;
#pragma omp flush
        sum += 100;
    }
    CHECK(set_ok);
    CHECK(sum == 311);
    CHECK(masked_begin == 2 && masked_end == 2);
    CHECK(red_begin == 3 && red_end == 3); /* every thread combines its part */
    CHECK(flushes == 3);
    CHECK(bad_codeptr == 0);
    printf("kmpc_ompt: ok\n");
    return 0;
}
