/* pv_unsupported: the end of a program that called what pvomp lacks. */
#include <stdio.h>
#include <stdlib.h>

#include "runtime/unsupported.h"

void pv_unsupported(const char *name)
{
    fprintf(stderr, "pvomp: %s is not supported yet\n", name);
    fflush(stderr);
    abort();
}
