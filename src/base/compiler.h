/* Compiler and export macros, one spelling each, for every module.
 * Everything in libgomp.so.1 is hidden by default (-fvisibility=hidden);
 * PV_EXPORT marks the ABI (the version script then picks the versions). */
#ifndef PV_BASE_COMPILER_H
#define PV_BASE_COMPILER_H

#define PV_EXPORT __attribute__((visibility("default")))
/* On a declaration: the definition is in this library, so calls and address
 * loads go direct, not through the GOT. */
#define PV_HIDDEN __attribute__((visibility("hidden")))
#define PV_CACHELINE 64
#define pv_likely(x) __builtin_expect(!!(x), 1)
#define pv_unlikely(x) __builtin_expect(!!(x), 0)

#endif
