/* Event descriptors: what a log says of its events (argument lists, the
 * values of enumerations), the lines of a trace-events file given with
 * --events (a QEMU log's catalog: pvomp's own comes compiled in, gen/catalog.c),
 * and the problem reports every part of the reader uses. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "desc.h"
#include "mem.h"


static char *dup_range(const char *a, const char *b)
{
    while (a < b && isspace((unsigned char)*a))
        a++;
    while (b > a && isspace((unsigned char)b[-1]))
        b--;
    char *s = tr_xstrndup(a, (size_t)(b - a));
    return s;
}

static bool is_ident(const char *s)
{
    if (!*s || !(isalpha((unsigned char)*s) || *s == '_'))
        return false;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return false;
    return true;
}

/* simpletrace's rule: the type starts with "const char*" or "char*". */
static bool type_is_string(const char *t)
{
    char compact[64];
    size_t n = 0;
    for (; *t && n + 1 < sizeof compact; t++)
        if (!isspace((unsigned char)*t))
            compact[n++] = *t;
    compact[n] = 0;
    return !strncmp(compact, "constchar*", 10) || !strncmp(compact, "char*", 5);
}

void tr_desc_clear(struct tr_desc *d)
{
    for (unsigned i = 0; i < d->nargs; i++) {
        free(d->argname[i]);
        free(d->argtype[i]);
    }
    free(d->args_text);
    d->args_text = NULL;
    memset(d->argenum, 0, sizeof d->argenum);
    d->nargs = 0;
    d->declared = false;
}

const char *tr_parse_args(struct tr_desc *d, const char *args)
{
    const char *p = args;
    tr_desc_clear(d);
    d->args_text = dup_range(args, args + strlen(args));
    while (*p && isspace((unsigned char)*p))
        p++;
    if (!strcmp(d->args_text, "void") || !*p) {
        d->declared = true;
        return NULL;
    }
    while (*p) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        const char *star = NULL;
        for (const char *q = p; q < end; q++)
            if (*q == '*')
                star = q;
        const char *split;
        if (star) {
            split = star + 1;
        } else {
            split = end;
            while (split > p && isspace((unsigned char)split[-1]))
                split--;
            while (split > p && !isspace((unsigned char)split[-1]))
                split--;
        }
        if (d->nargs == TR_MAX_ARGS) {
            tr_desc_clear(d);
            return "more than 10 arguments";
        }
        char *type = dup_range(p, split), *name = dup_range(split, end);
        if (!*type || !is_ident(name)) {
            free(type);
            free(name);
            tr_desc_clear(d);
            return "an argument is not 'type name'";
        }
        d->argtype[d->nargs] = type;
        d->argname[d->nargs] = name;
        d->is_str[d->nargs] = type_is_string(type);
        d->nargs++;
        p = comma ? comma + 1 : end;
        if (comma && !*p) {
            tr_desc_clear(d);
            return "empty argument";
        }
    }
    d->declared = true;
    return NULL;
}

const char *tr_parse_event_line(const char *line, char **name, char **args, char **fmt)
{
    const char *open = strchr(line, '('), *close;
    if (!open)
        return "no '(' in the event declaration";
    close = strchr(open, ')');
    if (!close)
        return "no ')' in the event declaration";
    /* The name is the last word before '(' (properties such as "disable" before it). */
    const char *ne = open;
    while (ne > line && isspace((unsigned char)ne[-1]))
        ne--;
    const char *nb = ne;
    while (nb > line && (isalnum((unsigned char)nb[-1]) || nb[-1] == '_'))
        nb--;
    *name = dup_range(nb, ne);
    if (!is_ident(*name)) {
        free(*name);
        return "the event has no valid name";
    }
    *args = dup_range(open + 1, close);
    *fmt = dup_range(close + 1, close + strlen(close));
    return NULL;
}

int tr_cat_find(const char *name)
{
    for (int i = 0; i < TR_NEVENTS; i++)
        if (!strcmp(tr_cat_events[i].name, name))
            return i;
    return -1;
}

const char *tr_enum_name(const struct tr_enum *e, uint64_t v)
{
    for (unsigned i = 0; e && i < e->n; i++)
        if (e->values[i] == v)
            return e->names[i];
    return NULL;
}

void tr_enum_free(struct tr_enum *e)
{
    if (!e)
        return;
    for (unsigned i = 0; i < e->n; i++)
        free((void *)e->names[i]);
    free((void *)e->names);
    free((void *)e->values);
    free((void *)e->name);
    free(e);
}

const char *tr_parse_enum(const char *name, const char *values, struct tr_enum **out)
{
    struct tr_enum *e = tr_xcalloc(1, sizeof *e);
    const char **names = NULL;
    uint64_t *nums = NULL;
    const char *err = NULL;
    *out = NULL;
    e->name = dup_range(name, name + strlen(name));
    if (!is_ident(e->name))
        err = "the enumeration has no valid name";
    for (const char *p = values; !err && *p;) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        const char *eq = memchr(p, '=', (size_t)(end - p));
        char *vname = eq ? dup_range(p, eq) : NULL, *num = eq ? dup_range(eq + 1, end) : NULL;
        char *stop = NULL;
        unsigned long long v = num && *num >= '0' && *num <= '9' ? strtoull(num, &stop, 10) : 0;
        if (!eq || !is_ident(vname) || !stop || *stop)
            err = "a value is not 'name=number'";
        for (unsigned i = 0; !err && i < e->n; i++)
            if (!strcmp(names[i], vname) || nums[i] == v)
                err = "two values have the same name or number";
        free(num);
        if (err) {
            free(vname);
            break;
        }
        names = tr_xrealloc(names, e->n + 1, sizeof *names);
        nums = tr_xrealloc(nums, e->n + 1, sizeof *nums);
        names[e->n] = vname;
        nums[e->n++] = v;
        p = comma ? comma + 1 : end;
        if (comma && !*p)
            err = "empty value";
    }
    if (!err && !e->n)
        err = "no values";
    e->names = names;
    e->values = nums;
    if (err) {
        tr_enum_free(e);
        return err;
    }
    *out = e;
    return NULL;
}

void tr_desc_finish(struct tr_desc *d)
{
    size_t n = strlen(d->name);
    d->namelen = (uint16_t)(n > UINT16_MAX ? UINT16_MAX : n);
    for (unsigned i = 0; i < d->nargs; i++) {
        n = strlen(d->argname[i]);
        d->argnamelen[i] = (uint8_t)(n > 255 ? 255 : n);
    }
}
