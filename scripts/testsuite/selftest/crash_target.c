/* A fault for the harness's self-test (scripts/testsuite/selftest.sh):
 * preloaded into the runs on pvomp only, it makes every target region crash,
 * as a broken runtime would. */
#include <signal.h>

void GOMP_target_ext(void)
{
    raise(SIGSEGV);
}
