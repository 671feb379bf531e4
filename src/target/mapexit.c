/* Mapping on exit (end of target / target data, target exit data), target
 * update, pointer attachment, and the target_map event.
 *
 * Exit: attachments made by the construct are undone first, then each held
 * group loses one reference (once per construct; `delete` drops them all).
 * The group whose count this construct brings to zero copies its "from"
 * items back and is removed -- after the whole list was processed, so that
 * every member of a struct can still copy back. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/message.h"
#include "target/events.h"
#include "target/mapint.h"

#define SLOT sizeof(void *)

/* ---------------------------------------------------------------- copies */

static size_t slots_of(const struct pv_mapping *m)
{
    return (m->host_end - m->host_start + SLOT - 1) / SLOT;
}

static void copy_run(struct pv_device *d, struct pv_mapping *m, uintptr_t host, size_t len,
                     bool to_device)
{
    if (!len || m->identity)
        return;   /* (a declare target variable is its own device copy) */
    void *dev = (void *)pv_map_dev(m, host);
    if (to_device)
        pv_dev_to(d, dev, (void *)host, len);
    else
        pv_dev_from(d, (void *)host, dev, len);
}

void pv_copy_range(struct pv_device *d, struct pv_mapping *m, uintptr_t host, size_t len,
                   bool to_device)
{
    if (!m->attach) {
        copy_run(d, m, host, len, to_device);
        return;
    }
    /* Runs of pointer slots that are not attached. */
    uintptr_t end = host + len, run = host;
    for (uintptr_t a = host; a < end;) {
        size_t idx = (a - m->host_start) / SLOT;
        uintptr_t next = m->host_start + (idx + 1) * SLOT;
        if (next > end)
            next = end;
        if (m->attach[idx]) {
            copy_run(d, m, run, a - run, to_device);
            run = next;
        }
        a = next;
    }
    copy_run(d, m, run, end - run, to_device);
}

/* ------------------------------------------------------------- attaching */

void pv_attach(struct pv_device *d, struct pv_mapping *m, uintptr_t slot, size_t bias,
               bool zlas)
{
    if (!m->attach)
        m->attach = pv_calloc(slots_of(m), sizeof *m->attach);
    size_t idx = (slot - m->host_start) / SLOT;
    if (m->attach[idx]++ > 0 || d->shared)
        return;   /* (shared memory: the host's pointer is the device's) */
    uintptr_t target = *(uintptr_t *)slot, value = 0;
    if (m->identity) {
        /* The device slot is the host slot: keep the host value for detach. */
        if (!m->orig)
            m->orig = pv_calloc(slots_of(m), sizeof *m->orig);
        m->orig[idx] = target;
    }
    if (!target)
        pv_fatal("attaching a null pointer (at %p) on device %d", (void *)slot, d->num);
    struct pv_mapping *t = pv_map_find(&d->map, target + bias, target + bias + 1);
    if (t)
        value = pv_map_dev(t, target);
    else if (!zlas)
        pv_fatal("pointer target %p (at %p) is not mapped on device %d", (void *)target,
                 (void *)slot, d->num);
    pv_dev_to(d, (void *)pv_map_dev(m, slot), &value, sizeof value);
}

void pv_detach(struct pv_device *d, struct pv_mapping *m, uintptr_t slot, bool force)
{
    size_t idx = (slot - m->host_start) / SLOT;
    if (!m->attach || !m->attach[idx])
        pv_fatal("detaching %p on device %d, which is not attached", (void *)slot, d->num);
    if (force)
        m->attach[idx] = 1;
    if (--m->attach[idx] > 0 || d->shared)
        return;
    /* Unattached: the device copy gets the host's pointer value back. */
    if (m->identity)
        *(uintptr_t *)slot = m->orig[idx];
    else
        pv_dev_to(d, (void *)pv_map_dev(m, slot), (void *)slot, SLOT);
}

/* ------------------------------------------------------------ releasing */

bool pv_release(struct pv_mapping *m, struct pv_touched *t, bool delete_, bool *copy)
{
    struct pv_mapping *h = m->head;
    if (h->refcount == PV_REF_INF) {
        *copy = false;
        return false;
    }
    bool first = pv_touch(t, h);
    bool dropped = false;
    if (first && h->refcount > 0) {
        h->refcount = delete_ ? 0 : h->refcount - 1;
        dropped = h->refcount == 0;
    }
    /* Siblings of a group this construct already dropped copy back too. */
    *copy = dropped || (!first && h->refcount == 0);
    return dropped;
}

void pv_remove_group(struct pv_device *d, struct pv_mapping *head)
{
    size_t n = head->members ? head->nmembers : 1;
    uintptr_t lo = head->host_start, hi = head->host_end;
    for (size_t i = 0; i < n; i++) {
        struct pv_mapping *m = head->members ? head->members[i] : head;
        if (m->host_end > hi)
            hi = m->host_end;
        pv_map_remove(&d->map, m);
    }
    if (head->mem)
        pv_dev_free(d, head->mem, (void *)head->dev_start, hi - lo);
    else if (d->shared && head->refcount != PV_REF_INF)
        pv_dev_share(d, ompt_target_data_disassociate, lo, hi - lo);
    for (size_t i = 0; i < n; i++) {
        struct pv_mapping *m = head->members ? head->members[i] : head;
        free(m->attach);
        free(m->orig);
        if (m != head)
            free(m);
    }
    free(head->members);
    free(head);
}

struct removals {
    struct pv_mapping **v;
    size_t n;
};

static void release_item(struct pv_device *d, struct pv_item *it, struct pv_touched *t,
                         bool delete_, struct removals *r)
{
    bool copy;
    bool remove = pv_release(it->m, t, delete_, &copy);
    if ((copy && it->copy_from) || it->always_from)
        pv_copy_range(d, it->m, it->host, it->len, false);
    if (remove)
        r->v[r->n++] = it->m->head;
}

/* The arrays of one target_map event (OMPT), filled item by item. */
struct map_event {
    void **host, **dev;
    size_t *bytes;
    unsigned *flags;
    unsigned n;
};

static bool map_events_wanted(void)
{
    return pv_ev_on() && (pv_ompt_on(target_map_emi) || pv_ompt_on(target_map));
}

static void map_event_init(struct map_event *e, size_t cap)
{
    cap = cap ? cap : 1;
    e->host = pv_malloc(cap * sizeof *e->host);
    e->dev = pv_malloc(cap * sizeof *e->dev);
    e->bytes = pv_malloc(cap * sizeof *e->bytes);
    e->flags = pv_malloc(cap * sizeof *e->flags);
    e->n = 0;
}

static void map_event_add(struct map_event *e, uintptr_t host, void *dev, size_t bytes,
                          unsigned flags)
{
    e->host[e->n] = (void *)host;
    e->dev[e->n] = dev;
    e->bytes[e->n] = bytes;
    e->flags[e->n] = flags;
    e->n++;
}

/* Dispatch the event and free the arrays. */
static void map_event_send(struct map_event *e)
{
    pv_ev_map(e->n, e->host, e->dev, e->bytes, e->flags);
    free(e->host);
    free(e->dev);
    free(e->bytes);
    free(e->flags);
}

/* target_map for the end of a structured construct: what it gives back. */
static void exit_event(struct pv_mapped *h)
{
    if (!map_events_wanted())
        return;
    struct map_event e;
    map_event_init(&e, h->n);
    for (size_t i = 0; i < h->n; i++) {
        struct pv_item *it = &h->items[i];
        if (!it->m || it->attach)
            continue;
        map_event_add(&e, it->host, (void *)pv_map_dev(it->m, it->host), it->len,
                      ompt_target_map_flag_release |
                          (it->copy_from || it->always_from ? ompt_target_map_flag_from : 0));
    }
    map_event_send(&e);
}

/* Is the item's mapping still the one it took?  (A `delete` in between may
 * have removed it: then there is nothing left to give back.) */
static bool item_alive(struct pv_device *d, const struct pv_item *it)
{
    struct pv_mapping *m;
    if (it->len)
        m = pv_map_find(&d->map, it->host, it->host + it->len);
    else if (!(m = pv_map_find(&d->map, it->host, it->host + 1)))
        m = pv_map_find_addr(&d->map, it->host);
    return m == it->m && m->serial == it->serial;
}

void pv_map_exit(struct pv_mapped *h)
{
    struct pv_device *d = h->dev;
    size_t n = h->n;
    struct pv_mapping *small[2 * 64];
    struct pv_mapping **buf = n <= 64 ? small : pv_malloc(2 * n * sizeof *buf);
    struct pv_touched t = {buf, 0};
    struct removals r = {buf + n, 0};
    if (d) {
        pthread_mutex_lock(&d->lock);
        for (size_t i = 0; i < n; i++)
            if (h->items[i].m && !item_alive(d, &h->items[i]))
                h->items[i].m = NULL;
        exit_event(h);
        for (size_t i = 0; i < n; i++)
            if (h->items[i].m && h->items[i].attach)
                pv_detach(d, h->items[i].m, h->items[i].host, false);
        for (size_t i = 0; i < n; i++)
            if (h->items[i].m && !h->items[i].attach)
                release_item(d, &h->items[i], &t, false, &r);
        for (size_t i = 0; i < r.n; i++)
            pv_remove_group(d, r.v[i]);
        if (h->fp_mem)
            pv_dev_free(d, h->fp_mem, h->fp_dev, h->fp_size);
        pthread_mutex_unlock(&d->lock);
    }
    if (buf != small)
        free(buf);
    free(h->devaddrs);
    free(h);
}

/* ------------------------------------------------------------ exit data */

static void exit_item(struct pv_device *d, const struct pv_maplist *l, size_t i,
                      struct pv_touched *t, struct removals *r)
{
    struct pv_kind k = pv_kind_at(l, i);
    uintptr_t s = (uintptr_t)l->hostaddrs[i], e = s + l->sizes[i];
    bool zlas = k.k == K_ZERO_LEN_ARRAY_SECTION || k.k == K_DELETE_ZLAS;
    switch (k.k) {
    case K_FROM:
    case K_ALWAYS_FROM:
    case K_DELETE:
    case K_RELEASE:
    case K_ZERO_LEN_ARRAY_SECTION:
    case K_DELETE_ZLAS:
    case K_TOFROM:    /* not emitted by gcc for exit data; treated as from */
    case K_ALLOC:
    case K_TO:
    case K_FORCE_PRESENT:   /* GCC 14's present modifiers */
    case K_FLAG_PRESENT | K_FROM:
    case K_FLAG_PRESENT | K_TOFROM:
    case K_ALWAYS_PRESENT_FROM:
    case K_ALWAYS_PRESENT_TOFROM:
        break;
    default:
        return;
    }
    struct pv_mapping *m;
    if (zlas) {
        m = pv_map_find(&d->map, s, s + 1);
        if (!m)
            m = pv_map_find_addr(&d->map, s);
        e = s;
    } else {
        m = pv_map_find(&d->map, s, e);
    }
    if (!m && k_present(k.k))
        pv_fatal("present clause: [%p, %p) is not mapped on device %d", (void *)s, (void *)e,
                 d->num);
    if (!m)
        return;
    struct pv_item it = {.m = m, .host = s, .len = e - s, .kind = (uint8_t)k.k,
                         .copy_from = k.k == K_FROM || k.k == K_TOFROM ||
                                      k.k == (K_FLAG_PRESENT | K_FROM) ||
                                      k.k == (K_FLAG_PRESENT | K_TOFROM),
                         .always_from = k_always_from(k.k)};
    if (it.host < m->host_start || it.host + it.len > m->host_end) {
        it.host = m->host_start;
        it.len = m->host_end - m->host_start;
    }
    release_item(d, &it, t, k.k == K_DELETE || k.k == K_DELETE_ZLAS, r);
}

void pv_map_exit_data(struct pv_device *d, const struct pv_maplist *l)
{
    size_t n = l->n;
    struct pv_mapping *small[2 * 64];
    struct pv_mapping **buf = n <= 64 ? small : pv_malloc(2 * n * sizeof *buf);
    struct pv_touched t = {buf, 0};
    struct removals r = {buf + n, 0};
    pthread_mutex_lock(&d->lock);
    for (size_t i = 0; i < n; i++) {
        struct pv_kind k = pv_kind_at(l, i);
        if (k.k != K_DETACH && k.k != K_FORCE_DETACH)
            continue;
        uintptr_t slot = (uintptr_t)l->hostaddrs[i];
        struct pv_mapping *m = pv_map_find(&d->map, slot, slot + SLOT);
        if (m && m->attach && m->attach[(slot - m->host_start) / SLOT])
            pv_detach(d, m, slot, k.k == K_FORCE_DETACH);
    }
    for (size_t i = 0; i < n; i++)
        exit_item(d, l, i, &t, &r);
    pv_map_event(d, l, true);
    for (size_t i = 0; i < r.n; i++)
        pv_remove_group(d, r.v[i]);
    pthread_mutex_unlock(&d->lock);
    if (buf != small)
        free(buf);
}

/* --------------------------------------------------------------- update */

void pv_map_update(struct pv_device *d, const struct pv_maplist *l)
{
    pthread_mutex_lock(&d->lock);
    for (size_t i = 0; i < l->n; i++) {
        if (!l->sizes[i])
            continue;
        struct pv_kind k = pv_kind_at(l, i);
        uintptr_t s = (uintptr_t)l->hostaddrs[i], e = s + l->sizes[i];
        struct pv_mapping *m = pv_map_find(&d->map, s, e);
        if (!m && k_present(k.k))   /* to(present: ...) / from(present: ...) */
            pv_fatal("target update with present: [%p, %p) is not mapped on device %d",
                     (void *)s, (void *)e, d->num);
        if (!m)
            continue;
        if (m->host_start > s || m->host_end < e)
            pv_fatal("target update of [%p, %p), but only [%p, %p) is mapped on device %d",
                     (void *)s, (void *)e, (void *)m->host_start, (void *)m->host_end, d->num);
        if (k_copy_to(k.k) || k_always_to(k.k))
            pv_copy_range(d, m, s, e - s, true);
        if (k_copy_from(k.k) || k_always_from(k.k))
            pv_copy_range(d, m, s, e - s, false);
    }
    pthread_mutex_unlock(&d->lock);
}

/* ------------------------------------------------------------ map event */

static unsigned map_flags(struct pv_kind k, bool exit)
{
    unsigned f = k.implicit ? ompt_target_map_flag_implicit : 0;
    switch (k.k) {
    case K_DELETE:
    case K_DELETE_ZLAS:
        return f | ompt_target_map_flag_delete;
    case K_RELEASE:
        return f | ompt_target_map_flag_release;
    default:
        break;
    }
    if (k_copy_to(k.k) || k_always_to(k.k))
        f |= ompt_target_map_flag_to;
    if (k_copy_from(k.k) || k_always_from(k.k))
        f |= ompt_target_map_flag_from;
    /* OpenMP 5.2's map-type-modifier flags (gcc passes no close modifier
     * to the runtime; present since GCC 14). */
    if (k_always_to(k.k) || k_always_from(k.k))
        f |= ompt_target_map_flag_always;
    if (k_present(k.k))
        f |= ompt_target_map_flag_present;
    if (!(f & (ompt_target_map_flag_to | ompt_target_map_flag_from)))
        f |= exit ? ompt_target_map_flag_release : ompt_target_map_flag_alloc;
    return f;
}

void pv_map_event(struct pv_device *d, const struct pv_maplist *l, bool exit)
{
    if (!map_events_wanted() || !l->n)
        return;
    struct map_event e;
    map_event_init(&e, l->n);
    for (size_t i = 0; i < l->n; i++) {
        struct pv_kind k = pv_kind_at(l, i);
        uintptr_t s = (uintptr_t)l->hostaddrs[i];
        bool ptr = k.k == K_POINTER || k.k == K_POINTER_TO_ZLAS;
        size_t len = ptr ? SLOT : l->sizes[i];
        if (!s || k.k == K_STRUCT || k.k == K_FIRSTPRIVATE || k.k == K_FIRSTPRIVATE_INT ||
            k.k == K_USE_DEVICE_PTR || k.k == K_USE_DEVICE_PTR_IF_PRESENT ||
            (k.k & 0xf0) == (K_ATTACH & 0xf0) || k.k == K_ALWAYS_POINTER)
            continue;
        /* pv_map_find of an empty range looks the address up. */
        struct pv_mapping *mp = pv_map_find(&d->map, s, s + len);
        map_event_add(&e, s, mp ? (void *)pv_map_dev(mp, s) : NULL, len, map_flags(k, exit));
    }
    map_event_send(&e);
}
