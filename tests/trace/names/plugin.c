/* The library prog.c dlopens (tests/trace/names_test.py): one parallel
 * region whose body is a single statement; gcc's line table starts its
 * outlined function at that statement (PLUGIN_BODY), not at the pragma. */
static volatile int sink;

void plugin_work(void)
{
#pragma omp parallel
    sink++; /* PLUGIN_BODY */
}
