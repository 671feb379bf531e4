/* The ABI table of pvomp's include/omp-tools.h (see header_abi_main.cpp). */
#include "omp-tools.h"
#define ABI_TABLE_FN table_pvomp_impl
#define ABI_TABLE_EXPORT abi_table_pvomp
#include "header_abi_table.inc"
