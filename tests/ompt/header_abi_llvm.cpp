/* The ABI table of LLVM's omp-tools.h, whose full path the build writes
 * into llvm_ompt_path.h (see header_abi_main.cpp). */
#include "llvm_ompt_path.h"
#include LLVM_OMPT_TOOLS_H
#define ABI_TABLE_FN table_llvm_impl
#define ABI_TABLE_EXPORT abi_table_llvm
#include "header_abi_table.inc"
