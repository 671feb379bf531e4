/* Naming code addresses (names.c) with libdw: symbols, lines, objects. */
#ifndef PVOMP_TRACE_NAMES_H
#define PVOMP_TRACE_NAMES_H

#include <stdint.h>

#include "log.h"

struct tr_names;
/* debuginfo_dir: NULL, or a directory with .build-id/xx/yyyy.debug files. */
struct tr_names *tr_names_open(const struct tr_log *log, const char *debuginfo_dir);
void tr_names_close(struct tr_names *nm);
/* "main:42 (demo.c)", "main._omp_fn.0", "demo+0x11f1 [why]" or "0x..." (see
 * names.c); owned by nm; NULL when nm is NULL. */
const char *tr_names_get(struct tr_names *nm, uint64_t addr);
/* The name of addr, or addr in hex (written to hex) without names. */
const char *tr_code_name(struct tr_log *log, uint64_t addr, char hex[24]);
/* The name of argument i of d, value v, when it is a code address (fn,
 * codeptr*; one ending in _ra is a return address, named by the call
 * before it); NULL otherwise, for 0, and when nm is NULL. */
const char *tr_code_arg_name(struct tr_names *nm, const struct tr_desc *d, unsigned i, uint64_t v);

struct tr_task_site;
/* A task site's name: the construct's function:line (file) (codeptr_ra),
 * else the body's name (tr_code_name of fn), else codeptr_ra's; for sites[0]
 * "(created before the log)".  Owned by log->names or written to hex. */
const char *tr_task_name(struct tr_log *log, const struct tr_task_site *s, char hex[24]);

#endif
