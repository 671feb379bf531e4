/* Naming code addresses: the log's pvtrace_object records say which object
 * was loaded where with which build-id; elfutils' libdwfl reads each
 * object's symbol table and DWARF line table (or a separate debug file found
 * by build-id) and turns an address into `function:line (file)`.
 *
 * What a name says, best first:
 *   main:42 (demo.c)        the construct's function and source line (an
 *                           outlined region or task body main._omp_fn.N is
 *                           named by `main`, its line is the construct's)
 *   main._omp_fn.0          no line table: the symbol
 *   demo+0x11f1 [why]       no symbol: the object and the ELF address, and
 *                           why (no symbols, object missing, build-id differs)
 *   0x7f...                 in no object the log recorded */
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "desc.h"
#include "log.h"
#include "mem.h"
#include "names.h"
#include "tasks.h"


enum obj_state { OBJ_OK, OBJ_MISSING, OBJ_MISMATCH };

struct tr_names {
    Dwfl *dwfl;
    char *debug_path;               /* libdwfl's search path */
    const char *debuginfo_dir;
    const struct tr_object *objs;
    size_t nobjs;
    enum obj_state *state;
    /* cache: address -> name */
    uint64_t *keys;
    char **vals;
    bool *lined;                    /* the name has a source line */
    size_t cap, n;
};

static bool hex_equal(const uint8_t *bits, ssize_t n, const char *hex)
{
    if (n <= 0 || strlen(hex) != (size_t)n * 2)
        return false;
    for (ssize_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1 || v != bits[i])
            return false;
    }
    return true;
}

/* 1: `path` is the object of the log (same build-id, or neither has one);
 * 0: another build; -1: not readable. */
static int same_build(const char *path, const char *want)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    int r = -1;
    if (e && elf_kind(e) == ELF_K_ELF) {
        const void *bits = NULL;
        ssize_t n = dwelf_elf_gnu_build_id(e, &bits);
        r = (!want[0] && n <= 0) || hex_equal(bits, n, want);
    }
    if (e)
        elf_end(e);
    close(fd);
    return r;
}

/* DIR/.build-id/xx/rest.debug, the Debian -dbgsym layout. */
static char *by_build_id(const char *dir, const char *hex)
{
    if (!dir || strlen(hex) < 4)
        return NULL;
    char *p;
    if (asprintf(&p, "%s/.build-id/%.2s/%s.debug", dir, hex, hex + 2) < 0)
        return NULL;
    if (access(p, R_OK) == 0)
        return p;
    free(p);
    return NULL;
}

struct tr_names *tr_names_open(const struct tr_log *log, const char *debuginfo_dir)
{
    struct tr_names *nm = tr_xcalloc(1, sizeof *nm);
    nm->objs = log->objects;
    nm->nobjs = log->nobjects;
    nm->debuginfo_dir = debuginfo_dir;
    nm->state = tr_xcalloc(nm->nobjs, sizeof *nm->state);
    /* libdwfl looks for DIR/.build-id/xx/yyyy.debug in each absolute entry. */
    if (asprintf(&nm->debug_path, "%s%s.debug:/usr/lib/debug", debuginfo_dir ? debuginfo_dir : "",
                 debuginfo_dir ? ":" : "") < 0)
        nm->debug_path = NULL;
    static Dwfl_Callbacks cb = {
        .find_elf = dwfl_build_id_find_elf,
        .find_debuginfo = dwfl_standard_find_debuginfo,
        .section_address = dwfl_offline_section_address,
    };
    cb.debuginfo_path = &nm->debug_path;
    nm->dwfl = dwfl_begin(&cb);
    if (!nm->dwfl)
        return nm;
    elf_version(EV_CURRENT);
    dwfl_report_begin(nm->dwfl);
    for (size_t i = 0; i < nm->nobjs; i++) {
        const struct tr_object *o = &nm->objs[i];
        if (!strncmp(o->path, "linux-vdso", 10) || !strncmp(o->path, "linux-gate", 10)) {
            nm->state[i] = OBJ_MISSING; /* the kernel's; never on disk */
            continue;
        }
        int same = same_build(o->path, o->build_id);
        char *file = same == 1 ? strdup(o->path) : by_build_id(debuginfo_dir, o->build_id);
        nm->state[i] = file ? OBJ_OK : same == 0 ? OBJ_MISMATCH : OBJ_MISSING;
        if (file && !dwfl_report_elf(nm->dwfl, o->path, file, -1, o->bias, false))
            nm->state[i] = OBJ_MISSING;
        free(file);
    }
    dwfl_report_end(nm->dwfl, NULL, NULL);
    return nm;
}

void tr_names_close(struct tr_names *nm)
{
    if (!nm)
        return;
    if (nm->dwfl)
        dwfl_end(nm->dwfl);
    for (size_t i = 0; i < nm->cap; i++)
        free(nm->vals ? nm->vals[i] : NULL);
    free(nm->keys);
    free(nm->vals);
    free(nm->lined);
    free(nm->state);
    free(nm->debug_path);
    free(nm);
}

/* The object that held `addr`: the last one recorded over it (a later
 * dlopen may reuse the addresses of an object closed before). */
static ssize_t object_of(const struct tr_names *nm, uint64_t addr)
{
    for (size_t i = nm->nobjs; i-- > 0;)
        if (addr >= nm->objs[i].start && addr < nm->objs[i].end)
            return (ssize_t)i;
    return -1;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* The source file and line of addr in m (NULL: none).  libdwfl finds the
 * unit holding an address by .debug_aranges, which clang does not emit:
 * then each unit's address ranges are searched. */
static const char *line_of(Dwfl_Module *m, Dwarf_Addr addr, int *line)
{
    Dwfl_Line *l = dwfl_module_getsrc(m, addr);
    if (l)
        return dwfl_lineinfo(l, NULL, line, NULL, NULL, NULL);
    Dwarf_Die *cu = NULL;
    Dwarf_Addr bias;
    while ((cu = dwfl_module_nextcu(m, cu, &bias))) {
        Dwarf_Addr base, start, end, a = addr - bias;
        ptrdiff_t o = 0;
        while ((o = dwarf_ranges(cu, o, &base, &start, &end)) > 0) {
            if (a < start || a >= end)
                continue;
            Dwarf_Line *dl = dwarf_getsrc_die(cu, a);
            return dl && !dwarf_lineno(dl, line) ? dwarf_linesrc(dl, NULL, NULL) : NULL;
        }
    }
    return NULL;
}

static char *make_name(struct tr_names *nm, uint64_t addr, bool *lined)
{
    char *out = NULL;
    ssize_t oi = object_of(nm, addr);
    if (oi < 0) {
        if (asprintf(&out, "%#llx", (unsigned long long)addr) < 0)
            out = NULL;
        return out;
    }
    const struct tr_object *o = &nm->objs[oi];
    const char *why = nm->state[oi] == OBJ_MISMATCH ? "build-id differs"
                      : nm->state[oi] == OBJ_MISSING ? "object missing" : "no symbols";
    Dwfl_Module *m = nm->state[oi] == OBJ_OK && nm->dwfl ? dwfl_addrmodule(nm->dwfl, addr) : NULL;
    if (m) {
        GElf_Off off = 0;
        GElf_Sym sym;
        const char *s = dwfl_module_addrinfo(m, addr, &off, &sym, NULL, NULL, NULL);
        /* A symbol that does not cover the address (a stripped file's
         * nearest dynamic symbol) names nothing. */
        if (s && sym.st_size && off >= sym.st_size)
            s = NULL;
        if (s) {
            int line = 0;
            const char *file = line_of(m, addr, &line);
            const char *cut = strstr(s, "._omp_");
            int flen = cut ? (int)(cut - s) : (int)strlen(s);
            int r;
            *lined = file && line > 0;
            if (*lined)
                r = asprintf(&out, "%.*s:%d (%s)", flen, s, line, base_name(file));
            else if (off)
                r = asprintf(&out, "%s+%#llx", s, (unsigned long long)off);
            else
                r = asprintf(&out, "%s", s);
            return r < 0 ? NULL : out;
        }
    }
    if (asprintf(&out, "%s+%#llx [%s]", base_name(o->path), (unsigned long long)(addr - o->bias),
                 why) < 0)
        out = NULL;
    return out;
}

/* The cached name of addr (NULL: none could be made); *lined: it has a
 * source line. */
static const char *lookup(struct tr_names *nm, uint64_t addr, bool *lined)
{
    *lined = false;
    if (!nm)
        return NULL;
    if (2 * (nm->n + 1) > nm->cap) {
        size_t oc = nm->cap, nc = oc ? 2 * oc : 64;
        uint64_t *ok = nm->keys;
        char **ov = nm->vals;
        bool *ol = nm->lined;
        nm->keys = tr_xcalloc(nc, sizeof *nm->keys);
        nm->vals = tr_xcalloc(nc, sizeof *nm->vals);
        nm->lined = tr_xcalloc(nc, sizeof *nm->lined);
        nm->cap = nc;
        for (size_t i = 0; i < oc; i++)
            if (ov[i]) {
                size_t j = (ok[i] * 0x9e3779b97f4a7c15ull) & (nc - 1);
                while (nm->vals[j])
                    j = (j + 1) & (nc - 1);
                nm->keys[j] = ok[i];
                nm->vals[j] = ov[i];
                nm->lined[j] = ol[i];
            }
        free(ok);
        free(ov);
        free(ol);
    }
    size_t j = (addr * 0x9e3779b97f4a7c15ull) & (nm->cap - 1);
    while (nm->vals[j]) {
        if (nm->keys[j] == addr) {
            *lined = nm->lined[j];
            return nm->vals[j];
        }
        j = (j + 1) & (nm->cap - 1);
    }
    char *s = make_name(nm, addr, lined);
    if (!s)
        return NULL;
    nm->keys[j] = addr;
    nm->vals[j] = s;
    nm->lined[j] = *lined;
    nm->n++;
    return s;
}

const char *tr_names_get(struct tr_names *nm, uint64_t addr)
{
    bool lined;
    return lookup(nm, addr, &lined);
}

const char *tr_code_arg_name(struct tr_names *nm, const struct tr_desc *d, unsigned i, uint64_t v)
{
    const char *n = d->argname[i];
    if (d->is_str[i] || !v || (strcmp(n, "fn") && strncmp(n, "codeptr", 7)))
        return NULL;
    size_t len = strlen(n);
    /* A return address (task_create's codeptr_ra) follows the call: the
     * call instruction's last byte has the construct's line. */
    bool ra = len >= 3 && !strcmp(n + len - 3, "_ra");
    return tr_names_get(nm, ra ? v - 1 : v);
}

const char *tr_code_name(struct tr_log *log, uint64_t addr, char hex[24])
{
    const char *s = tr_names_get(log->names, addr);
    if (s)
        return s;
    snprintf(hex, 24, "%#llx", (unsigned long long)addr);
    return hex;
}

const char *tr_task_name(struct tr_log *log, const struct tr_task_site *t, char hex[24])
{
    if (!t->fn && !t->ra) /* sites[0] (task_create always has a body) */
        return "(created before the log)";
    bool lined = false;
    /* codeptr_ra is a return address: the call's last byte is the line's */
    const char *site = t->ra ? lookup(log->names, t->ra - 1, &lined) : NULL;
    if (lined || !t->fn)
        return site ? site : tr_code_name(log, t->ra - 1, hex);
    return tr_code_name(log, t->fn, hex);
}
