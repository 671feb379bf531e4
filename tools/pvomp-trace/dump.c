/* dump: one line per record, in simpletrace's style (name, microseconds
 * since the previous record, thread, arguments), in time order across
 * threads.  --simpletrace reproduces QEMU's simpletrace.py byte for byte
 * (file order, every record, Python's bytes repr for strings). */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "desc.h"
#include "log.h"
#include "names.h"
#include "out.h"
#include "records.h"


static void print_record(struct tr_out *o, struct tr_log *log, const struct tr_rec *r,
                         int64_t delta)
{
    const struct tr_desc *d = r->d;
    tr_out_bytes(o, d->name, d->namelen);
    tr_out_char(o, ' ');
    tr_out_us3(o, delta);
    tr_out_bytes(o, " pid=", 5);
    tr_out_u64(o, r->tid);
    for (unsigned i = 0; i < r->nargs; i++) {
        tr_out_char(o, ' ');
        tr_out_bytes(o, d->argname[i], d->argnamelen[i]);
        tr_out_char(o, '=');
        if (d->is_str[i]) {
            tr_out_cstr(o, r->s[i], r->slen[i]);
            if (r->cut[i]) {
                tr_out_str(o, "[cut from ");
                tr_out_u64(o, r->cut[i]);
                tr_out_str(o, " bytes]");
            }
        } else {
            tr_out_int_arg(o, d, i, r->u[i]);
            const char *name = tr_code_arg_name(log->names, d, i, r->u[i]);
            if (name) {
                tr_out_str(o, " <");
                tr_out_str(o, name);
                tr_out_char(o, '>');
            }
        }
    }
    tr_out_char(o, '\n');
}

static void print_simpletrace(struct tr_out *o, const struct tr_rec *r, int64_t delta)
{
    const struct tr_desc *d = r->d;
    bool dropped = d->kind == K_DROPPED;
    tr_out_str(o, dropped ? "Dropped_Event" : d->name);
    tr_out_char(o, ' ');
    tr_out_us3(o, delta);
    tr_out_str(o, " pid=");
    tr_out_u64(o, r->tid);
    for (unsigned i = 0; i < r->nargs; i++) {
        tr_out_char(o, ' ');
        tr_out_str(o, dropped ? "num_events_dropped" : d->argname[i]);
        tr_out_char(o, '=');
        if (d->is_str[i])
            tr_out_pybytes(o, r->s[i], r->slen[i]);
        else
            tr_out_hex(o, r->u[i]);
    }
    tr_out_char(o, '\n');
}

int tr_cmd_dump(struct tr_log *log, const struct tr_opts *opt, FILE *f)
{
    struct tr_out o;
    uint64_t last = 0, first = 0, n = 0;
    tr_out_init(&o, f);
    if (opt->simpletrace || opt->file_order) {
        struct tr_walk *w = tr_walk_new(log);
        const struct tr_rec *r;
        while (w && (r = tr_walk_next(w))) {
            bool meta = tr_kind_is_meta(r->d->kind);
            if (!opt->simpletrace && !opt->all && meta)
                continue;
            if (n++ == 0)
                last = first = r->ts;
            int64_t delta = opt->absolute ? (int64_t)(r->ts - first) : (int64_t)(r->ts - last);
            last = r->ts;
            if (opt->simpletrace)
                print_simpletrace(&o, r, delta);
            else
                print_record(&o, log, r, delta);
        }
        tr_walk_free(w);
    } else {
        struct tr_merge *m = tr_merge_new(log, opt->all);
        const struct tr_rec *r;
        while (m && (r = tr_merge_next(m))) {
            if (n++ == 0)
                last = first = r->ts;
            int64_t delta = opt->absolute ? (int64_t)(r->ts - first) : (int64_t)(r->ts - last);
            last = r->ts;
            print_record(&o, log, r, delta);
        }
        tr_merge_free(m);
    }
    tr_out_flush(&o);
    free(o.buf);
    return 0;
}
