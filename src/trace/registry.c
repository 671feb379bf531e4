/* The rings and declarations the writer drains (registry.h). */
#include <pthread.h>

#include "trace/registry.h"

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pv_trace_ring *reg_rings;
static struct pv_trace_buf reg_meta;

void pv_trace_registry_add(struct pv_trace_ring *r)
{
    pthread_mutex_lock(&reg_lock);
    r->next = reg_rings;
    /* Release: the crash handler, which walks the list without the lock,
     * sees the ring whole. */
    __atomic_store_n(&reg_rings, r, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&reg_lock);
}

void pv_trace_registry_lock(void)
{
    pthread_mutex_lock(&reg_lock);
}

void pv_trace_registry_unlock(void)
{
    pthread_mutex_unlock(&reg_lock);
}

struct pv_trace_ring *pv_trace_registry_first(void)
{
    return reg_rings;
}

void pv_trace_registry_remove(struct pv_trace_ring *r)
{
    pthread_mutex_lock(&reg_lock);
    for (struct pv_trace_ring **pp = &reg_rings; *pp; pp = &(*pp)->next)
        if (*pp == r) {
            *pp = r->next;
            break;
        }
    pthread_mutex_unlock(&reg_lock);
}

struct pv_trace_ring *pv_trace_registry_head(void)
{
    return __atomic_load_n(&reg_rings, __ATOMIC_ACQUIRE);
}

void pv_trace_meta_append(const void *bytes, size_t len)
{
    pthread_mutex_lock(&reg_lock);
    pv_trace_buf_put(&reg_meta, bytes, len);
    pthread_mutex_unlock(&reg_lock);
}

struct pv_trace_buf pv_trace_meta_take(void)
{
    pthread_mutex_lock(&reg_lock);
    struct pv_trace_buf meta = reg_meta;
    reg_meta = (struct pv_trace_buf){ 0 };
    pthread_mutex_unlock(&reg_lock);
    return meta;
}

void pv_trace_meta_pending(const uint8_t **p, size_t *len)
{
    *p = reg_meta.p;
    *len = reg_meta.len;
}

void pv_trace_registry_forget(void)
{
    reg_rings = NULL;
    reg_meta = (struct pv_trace_buf){ 0 };
    pthread_mutex_init(&reg_lock, NULL);
}
