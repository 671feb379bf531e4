/* kmp_get_blocktime before the program sets one answers from the wait
 * policy and KMP_BLOCKTIME, as libomp does; a value set is returned.  Runs on
 * pvomp (pvomp_check.h proves it).  PVOMP_TEST_BLOCKTIME: the answer expected
 * ("max" for INT_MAX). */
#define _GNU_SOURCE
#include <limits.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pvomp_check.h"

int main(void)
{
    const char *want = getenv("PVOMP_TEST_BLOCKTIME");
    CHECK(want != NULL);
    int expected = strcmp(want, "max") == 0 ? INT_MAX : atoi(want);
    int got = kmp_get_blocktime();
    printf("kmp_get_blocktime: %d (expected %d)\n", got, expected);
    CHECK(got == expected);
    kmp_set_blocktime(7);
    CHECK(kmp_get_blocktime() == 7);
#pragma omp parallel num_threads(2)
    CHECK(omp_get_num_threads() == 2);
    printf("PASS\n");
    return 0;
}
