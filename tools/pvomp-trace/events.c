/* events: a trace-events file for QEMU's simpletrace.py.  From a log, it
 * lists every event the log declares (the runtime's, the log's own, and a
 * program's own) and the enumerations of their arguments (#enum lines);
 * without a log, pvomp's built-in catalog. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "desc.h"
#include "diag.h"
#include "log.h"


struct idpair {
    uint64_t id;
    const struct tr_desc *d;
};

static int by_id(const void *x, const void *y)
{
    const struct idpair *a = x, *b = y;
    return a->id < b->id ? -1 : a->id > b->id;
}

int tr_cmd_events(struct tr_log *log, FILE *f)
{
    if (!log) {
        fputs(tr_builtin_catalog, f);
        return 0;
    }
    struct idpair *v = malloc((log->ids.n + 1) * sizeof *v);
    size_t n = 0;
    int status = 0;
    if (!v)
        return 1;
    for (size_t i = 0; i < log->ids.cap; i++) {
        if (log->ids.vals[i] == UINT32_MAX || log->ids.keys[i] == PVOMP_TRACE_DROPPED_ID)
            continue;
        v[n++] = (struct idpair){ log->ids.keys[i], &log->descs[log->ids.vals[i]] };
    }
    qsort(v, n, sizeof *v, by_id);
    fprintf(f, "# trace-events for %s, printed by pvomp-trace events.\n", log->path);
    fprintf(f, "# QEMU: scripts/simpletrace.py THIS-FILE %s\n", log->path);
    for (size_t i = 0; i < n; i++) {
        const struct tr_desc *d = v[i].d;
        bool dup = false;
        for (size_t j = 0; j < i; j++)
            dup |= !strcmp(v[j].d->name, d->name);
        if (dup)
            continue;
        if (!d->declared) {
            tr_note(&log->diag, "event '%s' (id %llu) has no declaration in the log", d->name,
                    (unsigned long long)v[i].id);
            status = 2;
            continue;
        }
        fprintf(f, "%s(%s)%s%s\n", d->name, d->nargs ? d->args_text : "void",
                d->fmt[0] ? " " : "", d->fmt);
        /* Its enumerated arguments, as the catalog declares them (a comment to QEMU). */
        for (unsigned a = 0; a < d->nargs; a++) {
            const struct tr_enum *e = d->argenum[a];
            if (!e)
                continue;
            fprintf(f, "#enum %s {", e->name);
            for (unsigned k = 0; k < e->n; k++)
                fprintf(f, "%s %s = %llu", k ? "," : "", e->names[k],
                        (unsigned long long)e->values[k]);
            fprintf(f, " } for %s.%s\n", d->name, d->argname[a]);
        }
    }
    free(v);
    return status;
}
