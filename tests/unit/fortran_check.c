/* Linked into the Fortran test: proves that pvomp is the runtime loaded. */
#define _GNU_SOURCE
#include "pvomp_check.h"
