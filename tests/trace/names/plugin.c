/* The library prog.c dlopens (tests/trace/names_test.py): one parallel
 * region, at the line marked PLUGIN_REGION. */
static volatile int sink;

void plugin_work(void)
{
#pragma omp parallel /* PLUGIN_REGION */
    sink++;
}
