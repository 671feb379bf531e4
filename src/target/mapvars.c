/* Mapping on entry to target, target data and target enter data.
 *
 * Each list item is looked up in the device's table.  Present: its group's
 * reference count goes up (once per construct) and `always` copies again.
 * Absent: a new device block (one per item; one per struct for the members
 * of a GOMP_MAP_STRUCT group) with reference count 1, copied when the kind
 * says "to".  The construct remembers what it holds (struct pv_item) so that
 * its end gives exactly that back.  For a target construct the result is
 * also the kernel's argument array: the device address of each item, the
 * value itself for firstprivate integers, and a device copy for other
 * firstprivate items.  use_device_ptr/addr items are translated last, in
 * place (gcc reads them back from the host array). */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/message.h"
#include "target/events.h"
#include "target/mapint.h"

struct ctx {
    struct pv_device *d;
    const struct pv_maplist *l;
    struct pv_mapped *h;
    struct pv_touched touched;
    char *fp;                        /* next free byte of the firstprivate block */
};

bool pv_touch(struct pv_touched *t, struct pv_mapping *head)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->v[i] == head)
            return false;
    t->v[t->n++] = head;
    return true;
}

struct pv_mapping *pv_map_find_0len(struct pv_map_table *t, uintptr_t a, bool allow_end)
{
    struct pv_mapping *m = pv_map_find(t, a, a + 1);
    if (!m && allow_end && a)
        m = pv_map_find(t, a - 1, a);
    if (!m)
        m = pv_map_find_addr(t, a);
    return m;
}

static struct pv_mapping *new_mapping(struct pv_device *d, uintptr_t start, uintptr_t end)
{
    struct pv_mapping *m = pv_calloc(1, sizeof *m);
    m->host_start = start;
    m->host_end = end;
    m->head = m;
    m->refcount = 1;
    m->device = d->num;
    m->serial = pv_map_serial();
    return m;
}

/* A present item: check that it fits, count the reference, copy if always. */
static struct pv_mapping *use_existing(struct ctx *c, struct pv_mapping *m, size_t i,
                                       struct pv_kind k, uintptr_t start, uintptr_t end)
{
    struct pv_item *it = &c->h->items[i];
    bool inside = m->host_start <= start && end <= m->host_end;
    bool implicit_superset = k.implicit && start <= m->host_start && m->host_end <= end;
    if (k_force(k.k) || !(inside || implicit_superset))
        pv_fatal("trying to map [%p, %p) to device %d, but [%p, %p) is already mapped",
                 (void *)start, (void *)end, c->d->num, (void *)m->host_start,
                 (void *)m->host_end);
    if (implicit_superset) {
        start = m->host_start;
        end = m->host_end;
    }
    if (k_always_to(k.k))
        pv_copy_range(c->d, m, start, end - start, true);
    if (m->head->refcount != PV_REF_INF && pv_touch(&c->touched, m->head))
        m->head->refcount++;
    *it = (struct pv_item){.m = m, .serial = m->serial, .host = start, .len = end - start,
                           .kind = (uint8_t)k.k, .copy_from = k_copy_from(k.k),
                           .always_from = k_always_from(k.k)};
    return m;
}

/* The device value of a pointer: where *host_ptr (+ bias) lives on the device. */
static uintptr_t device_pointer(struct ctx *c, uintptr_t value, size_t bias, bool zlas)
{
    if (!value)
        return 0;
    struct pv_mapping *t = pv_map_find_0len(&c->d->map, value + bias, true);
    if (!t) {
        if (c->d->shared)
            return value;   /* the host's memory is the device's */
        if (zlas)
            return 0;
        pv_fatal("pointer target of an array section is not mapped (device %d)", c->d->num);
    }
    return pv_map_dev(t, value + bias) - bias;
}

/* An absent item: a new block of its own. */
static struct pv_mapping *map_new(struct ctx *c, size_t i, struct pv_kind k, uintptr_t start,
                                  uintptr_t end)
{
    struct pv_device *d = c->d;
    struct pv_mapping *m = new_mapping(d, start, end);
    /* Shared memory: bookkeeping only; the device address is the host
     * address and a pointer already holds what the device should see. */
    m->identity = d->shared;
    if (d->shared)
        m->dev_start = start;
    else
        m->dev_start = (uintptr_t)pv_dev_alloc(d, end - start, start, k.align, &m->mem);
    pv_map_insert(&d->map, m);
    pv_touch(&c->touched, m);
    if (d->shared)
        pv_dev_share(d, ompt_target_data_associate, start, end - start);
    else if (k.k == K_POINTER || k.k == K_POINTER_TO_ZLAS) {
        uintptr_t v = device_pointer(c, *(uintptr_t *)start, c->l->sizes[i],
                                     k.k == K_POINTER_TO_ZLAS);
        pv_dev_to(d, (void *)m->dev_start, &v, sizeof v);
    } else if (k_copy_to(k.k) || k_always_to(k.k)) {
        pv_dev_to(d, (void *)m->dev_start, (void *)start, end - start);
    }
    c->h->items[i] = (struct pv_item){.m = m, .serial = m->serial, .host = start, .len = end - start,
                                      .kind = (uint8_t)k.k, .copy_from = k_copy_from(k.k),
                                      .always_from = k_always_from(k.k)};
    return m;
}

/* A plain item (alloc/to/from/tofrom/always/present/pointer/descriptor).
 * True when it was not mapped before. */
static bool map_plain(struct ctx *c, size_t i, struct pv_kind k)
{
    uintptr_t start = (uintptr_t)c->l->hostaddrs[i];
    bool ptr = k.k == K_POINTER || k.k == K_POINTER_TO_ZLAS;
    uintptr_t end = start + (ptr ? sizeof(void *) : c->l->sizes[i]);
    struct pv_mapping *m = pv_map_find(&c->d->map, start, end);
    bool fresh = !m;
    if (m)
        use_existing(c, m, i, k, start, end);
    else if (k_present(k.k))
        pv_fatal("present clause: [%p, %p) is not mapped on device %d", (void *)start,
                 (void *)end, c->d->num);
    else
        m = map_new(c, i, k, start, end);
    if (c->h->devaddrs)
        c->h->devaddrs[i] = (void *)pv_map_dev(m, start);
    return fresh;
}

/* GOMP_MAP_TO_PSET at i, just mapped (`fresh`: by this construct): a
 * Fortran array descriptor.  The POINTER / ALWAYS_POINTER items right after
 * it that lie inside it are its data pointers, which the device copy must
 * hold as device addresses.  A new copy gets all of them.  A present one
 * gets them again, after a new copy of the whole descriptor, for
 * ALWAYS_POINTER, and for a pointer that was null when the descriptor was
 * first mapped and is not now (an array allocated since).  A declare target
 * descriptor is the host's own memory and is left alone.  Returns the last
 * item used. */
static size_t map_pset_pointers(struct ctx *c, size_t i, bool fresh)
{
    const struct pv_maplist *l = c->l;
    struct pv_mapping *m = c->h->items[i].m;
    bool copied = fresh;
    size_t j;
    for (j = i + 1; j < l->n; j++) {
        struct pv_kind kj = pv_kind_at(l, j);
        uintptr_t slot = (uintptr_t)l->hostaddrs[j];
        if ((kj.k != K_POINTER && kj.k != K_ALWAYS_POINTER) || slot < m->host_start ||
            slot + sizeof(void *) > m->host_end)
            break;
        uintptr_t host_val = *(uintptr_t *)slot;
        bool set = fresh || kj.k == K_ALWAYS_POINTER || (m->pset_null && host_val);
        if (fresh && !host_val)
            m->pset_null = true;
        if (set && !m->identity) {
            if (!copied)
                pv_copy_range(c->d, m, m->host_start, m->host_end - m->host_start, true);
            copied = true;
            uintptr_t v = device_pointer(c, host_val, l->sizes[j], false);
            pv_dev_to(c->d, (void *)pv_map_dev(m, slot), &v, sizeof v);
        }
        use_existing(c, m, j, kj, slot, slot + sizeof(void *));
        if (c->h->devaddrs)
            c->h->devaddrs[j] = (void *)pv_map_dev(m, slot);
    }
    return j - 1;
}

/* GOMP_MAP_STRUCT at i: sizes[i] members follow, mapped as one block. */
static size_t map_struct(struct ctx *c, size_t i, struct pv_kind k)
{
    const struct pv_maplist *l = c->l;
    size_t first = i + 1, last = i + l->sizes[i];
    uintptr_t lo = (uintptr_t)l->hostaddrs[first];
    uintptr_t hi = (uintptr_t)l->hostaddrs[last] + l->sizes[last];
    /* Anything mapped from the struct's start on means it is mapped already
     * (then every member must be among what is mapped). */
    uintptr_t base = (uintptr_t)l->hostaddrs[i];
    struct pv_mapping *any =
        pv_map_find(&c->d->map, base < lo ? base : lo, hi > lo ? hi : lo + 1);
    if (any) {
        for (size_t j = first; j <= last; j++) {
            struct pv_kind kj = pv_kind_at(l, j);
            uintptr_t s = (uintptr_t)l->hostaddrs[j], e = s + l->sizes[j];
            struct pv_mapping *m = e > s ? pv_map_find(&c->d->map, s, e)
                                         : pv_map_find_0len(&c->d->map, s, true);
            if (!m)
                /* libgomp's wording (programs and its testsuite match it). */
                pv_fatal("Trying to map into device [%p..%p) structure element when other "
                         "mapped elements from the same structure weren't mapped together "
                         "with it", (void *)s, (void *)e);
            use_existing(c, m, j, kj, s, e);
            if (c->h->devaddrs)
                c->h->devaddrs[j] = (void *)pv_map_dev(m, s);
        }
    } else {
        struct pv_device *d = c->d;
        void *mem = NULL;
        uintptr_t dev = lo;
        if (d->shared)
            pv_dev_share(d, ompt_target_data_associate, lo, hi - lo);
        else
            dev = (uintptr_t)pv_dev_alloc(d, hi - lo, lo, k.align, &mem);
        struct pv_mapping *head = NULL;
        for (size_t j = first; j <= last; j++) {
            struct pv_kind kj = pv_kind_at(l, j);
            uintptr_t s = (uintptr_t)l->hostaddrs[j], e = s + l->sizes[j];
            struct pv_mapping *m = new_mapping(d, s, e);
            m->dev_start = dev + (s - lo);
            m->identity = d->shared;
            if (!head) {
                head = m;
                m->mem = mem;
                m->members = pv_malloc((last - first + 1) * sizeof *m->members);
                pv_touch(&c->touched, m);
            }
            m->head = head;
            head->members[head->nmembers++] = m;
            pv_map_insert(&d->map, m);
            if (!d->shared && (k_copy_to(kj.k) || k_always_to(kj.k)))
                pv_dev_to(d, (void *)m->dev_start, (void *)s, e - s);
            c->h->items[j] = (struct pv_item){.m = m, .serial = m->serial, .host = s, .len = e - s,
                                              .kind = (uint8_t)kj.k,
                                              .copy_from = k_copy_from(kj.k),
                                              .always_from = k_always_from(kj.k)};
            if (c->h->devaddrs)
                c->h->devaddrs[j] = (void *)m->dev_start;
        }
    }
    if (c->h->devaddrs)
        c->h->devaddrs[i] = (char *)c->h->devaddrs[first] - (lo - (uintptr_t)l->hostaddrs[i]);
    return last;
}

static void map_attach(struct ctx *c, size_t i, struct pv_kind k)
{
    uintptr_t slot = (uintptr_t)c->l->hostaddrs[i];
    struct pv_mapping *m = pv_map_find(&c->d->map, slot, slot + sizeof(void *));
    if (!m)
        return;   /* the pointer itself is not mapped: nothing to attach */
    pv_attach(c->d, m, slot, c->l->sizes[i], k.k == K_ATTACH_ZLAS);
    c->h->items[i] = (struct pv_item){.m = m, .serial = m->serial, .host = slot, .len = sizeof(void *),
                                      .kind = (uint8_t)k.k, .attach = true};
    if (c->h->devaddrs)
        c->h->devaddrs[i] = (void *)pv_map_dev(m, slot);
}

/* The device address an earlier item stands for. */
static uintptr_t item_dev(struct ctx *c, size_t j)
{
    if (c->h->devaddrs)
        return (uintptr_t)c->h->devaddrs[j];
    struct pv_item *it = &c->h->items[j];
    return it->m ? pv_map_dev(it->m, it->host) : 0;
}

/* GOMP_MAP_ALWAYS_POINTER: set the device pointer at hostaddrs[i] to the
 * previous item (minus the bias in sizes[i]) every time. */
static void map_always_pointer(struct ctx *c, size_t i, uintptr_t *last_val)
{
    uintptr_t slot = (uintptr_t)c->l->hostaddrs[i];
    struct pv_mapping *m = pv_map_find(&c->d->map, slot, slot + sizeof(void *));
    if (!m || m->host_start > slot || m->host_end < slot + sizeof(void *))
        pv_fatal("always pointer at %p is not mapped on device %d", (void *)slot, c->d->num);
    uintptr_t v = *last_val;
    if (i > 0 && pv_kind_at(c->l, i - 1).k != K_ALWAYS_POINTER)
        v = item_dev(c, i - 1);
    if (v)
        v -= c->l->sizes[i];
    if (!c->d->shared)   /* (shared: the host's pointer is the device's) */
        pv_dev_to(c->d, (void *)pv_map_dev(m, slot), &v, sizeof v);
    *last_val = pv_map_dev(m, slot);
}

/* A zero-length array section: uses what is mapped there, maps nothing. */
static void map_zero_len(struct ctx *c, size_t i, struct pv_kind k)
{
    uintptr_t a = (uintptr_t)c->l->hostaddrs[i];
    struct pv_mapping *m = pv_map_find(&c->d->map, a, a + 1);
    if (!m)
        m = pv_map_find_addr(&c->d->map, a);
    if (m)
        use_existing(c, m, i, k, a, a);
    /* Not mapped: NULL, or on a shared-memory device the host address,
     * which is valid there (as the original value, OpenMP 5.1 pointer
     * initialization allows). */
    if (c->h->devaddrs)
        c->h->devaddrs[i] = m ? (void *)pv_map_dev(m, a) : c->d->shared ? (void *)a : NULL;
}

/* Firstprivate copies: one device block for all of them. */
static void firstprivate_block(struct ctx *c)
{
    const struct pv_maplist *l = c->l;
    size_t size = 0, align = 1;
    for (size_t i = 0; i < l->n; i++) {
        struct pv_kind k = pv_kind_at(l, i);
        if (k.k != K_FIRSTPRIVATE || !l->hostaddrs[i])
            continue;
        size = (size + k.align - 1) & ~(k.align - 1);
        size += l->sizes[i];
        if (k.align > align)
            align = k.align;
    }
    if (!size)
        return;
    void *mem;
    char *dev = pv_dev_alloc(c->d, size, 0, align, &mem);
    c->h->fp_mem = mem;
    c->h->fp_dev = dev;
    c->h->fp_size = size;
    c->fp = dev;
}

static void map_firstprivate(struct ctx *c, size_t i, struct pv_kind k)
{
    uintptr_t at = ((uintptr_t)c->fp + k.align - 1) & ~(k.align - 1);
    pv_dev_to(c->d, (void *)at, c->l->hostaddrs[i], c->l->sizes[i]);
    c->fp = (char *)at + c->l->sizes[i];
    c->h->devaddrs[i] = (void *)at;
}

static void translate_use_device(struct ctx *c, size_t i, struct pv_kind k)
{
    void **p = &c->l->hostaddrs[i];
    struct pv_mapping *m = pv_map_find_0len(&c->d->map, (uintptr_t)*p, true);
    (void)k;
    if (m)
        *p = (void *)pv_map_dev(m, (uintptr_t)*p);
    /* Not present: the host address stays. */
    if (c->h->devaddrs)
        c->h->devaddrs[i] = *p;
}

static void map_one(struct ctx *c, size_t *ip, uintptr_t *last_ptr)
{
    size_t i = *ip;
    const struct pv_maplist *l = c->l;
    struct pv_kind k = pv_kind_at(l, i);
    if (k.k == K_FIRSTPRIVATE_INT || (!l->hostaddrs[i] && k.k != K_STRUCT)) {
        if (c->h->devaddrs)
            c->h->devaddrs[i] = l->hostaddrs[i];
        return;
    }
    switch (k.k) {
    case K_USE_DEVICE_PTR:
    case K_USE_DEVICE_PTR_IF_PRESENT:
        return;   /* after everything else */
    case K_FIRSTPRIVATE:
        if (c->h->devaddrs)
            map_firstprivate(c, i, k);
        return;
    case K_STRUCT:
        *ip = map_struct(c, i, k);
        return;
    case K_ALWAYS_POINTER:
        map_always_pointer(c, i, last_ptr);
        return;
    case K_ATTACH:
    case K_ATTACH_ZLAS:
        map_attach(c, i, k);
        return;
    case K_ZERO_LEN_ARRAY_SECTION:
        map_zero_len(c, i, k);
        return;
    case K_DELETE:
    case K_RELEASE:
    case K_DETACH:
    case K_FORCE_DETACH:
    case K_DELETE_ZLAS:
    case K_IF_PRESENT:
        return;   /* exit kinds, OpenACC: nothing on entry */
    case K_TO_PSET: {
        bool fresh = map_plain(c, i, k);
        *ip = map_pset_pointers(c, i, fresh);
        return;
    }
    default:
        map_plain(c, i, k);
    }
}

struct pv_mapped *pv_map_enter(struct pv_device *d, const struct pv_maplist *l,
                               enum pv_map_mode mode)
{
    size_t n = l->n;
    struct pv_mapped *h = pv_calloc(1, sizeof *h + n * sizeof(struct pv_item));
    h->dev = d;
    h->n = n;
    h->items = (struct pv_item *)(h + 1);
    if (mode == PV_MAP_TARGET)
        h->devaddrs = pv_calloc(n ? n : 1, sizeof(void *));
    struct pv_mapping *small[64];
    struct pv_mapping **touched = n <= 64 ? small : pv_malloc(n * sizeof *touched);
    struct ctx c = {.d = d, .l = l, .h = h, .touched = {touched, 0}};

    pthread_mutex_lock(&d->lock);
    if (mode == PV_MAP_TARGET)
        firstprivate_block(&c);
    uintptr_t last_ptr = 0;
    for (size_t i = 0; i < n; i++)
        map_one(&c, &i, &last_ptr);
    for (size_t i = 0; i < n; i++) {
        struct pv_kind k = pv_kind_at(l, i);
        if ((k.k == K_USE_DEVICE_PTR || k.k == K_USE_DEVICE_PTR_IF_PRESENT) && l->hostaddrs[i])
            translate_use_device(&c, i, k);
    }
    pv_map_event(d, l, false);
    pthread_mutex_unlock(&d->lock);
    if (touched != small)
        free(touched);
    if (mode == PV_MAP_ENTER) {
        free(h);
        return NULL;
    }
    return h;
}
