/* threadprivate through libomp's ABI, for programs built with clang's
 * -fnoopenmp-use-tls (clang's default is TLS, which needs no runtime).
 * __kmpc_threadprivate_cached(data, size) returns the calling thread's copy
 * of the variable at `data`; __kmpc_threadprivate_register gives a C++
 * variable its constructor, copy constructor and destructor.
 *
 * As in libomp, the initial thread's copy is the variable itself.  Another
 * thread's copy is made on its first access: by the registered constructor,
 * else by the copy constructor from the variable, else as a copy of the
 * variable's value when the runtime first saw it (libomp's "pod_init"
 * image).  A thread's copies are destroyed (registered destructor) and
 * freed when it exits.  The per-thread table is an open-addressing hash of
 * the variables' addresses; `cache` (libomp's per-variable array) is not
 * used. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/linux.h"
#include "abi/kmpc.h"
#include "base/alloc.h"
#include "base/message.h"

typedef void *(*kmpc_ctor)(void *);
typedef void *(*kmpc_cctor)(void *, void *);
typedef void (*kmpc_dtor)(void *);

/* What the process knows of a threadprivate variable (a list: few). */
struct var {
    struct var *next;
    const void *data;
    size_t size;
    kmpc_ctor ctor;
    kmpc_cctor cctor;
    kmpc_dtor dtor;
    void *image; /* its value when first seen (no constructor) */
};

static struct var *vars;
static pthread_mutex_t vars_lock = PTHREAD_MUTEX_INITIALIZER;

static struct var *var_find_locked(const void *data)
{
    for (struct var *v = vars; v; v = v->next)
        if (v->data == data)
            return v;
    struct var *v = pv_malloc(sizeof *v);
    memset(v, 0, sizeof *v);
    v->data = data;
    v->next = vars;
    vars = v;
    return v;
}

PV_EXPORT void __kmpc_threadprivate_register(ident_t *loc, void *data, kmpc_ctor ctor,
                                             kmpc_cctor cctor, kmpc_dtor dtor)
{
    (void)loc;
    pthread_mutex_lock(&vars_lock);
    struct var *v = var_find_locked(data);
    v->ctor = ctor, v->cctor = cctor, v->dtor = dtor;
    pthread_mutex_unlock(&vars_lock);
}

/* The variable's record, its image taken the first time. */
static struct var *var_get(void *data, size_t size)
{
    pthread_mutex_lock(&vars_lock);
    struct var *v = var_find_locked(data);
    if (!v->image && !v->ctor && !v->cctor) {
        v->image = pv_malloc(size ? size : 1);
        memcpy(v->image, data, size);
    }
    v->size = size;
    pthread_mutex_unlock(&vars_lock);
    return v;
}

/* This thread's copies: data -> copy. */
struct slot {
    const void *data;
    void *copy;
    kmpc_dtor dtor;
};
struct table {
    size_t cap, used;
    struct slot slots[];
};

static __thread struct table *mine;
static pthread_key_t exit_key;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

static void thread_exit(void *arg)
{
    struct table *t = arg;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].data) {
            if (t->slots[i].dtor)
                t->slots[i].dtor(t->slots[i].copy);
            free(t->slots[i].copy);
        }
    free(t);
}

static void make_key(void)
{
    if (pthread_key_create(&exit_key, thread_exit) != 0)
        pv_fatal("threadprivate: no thread-exit key");
}

static struct slot *slot_of(struct table *t, const void *data)
{
    size_t i = ((uintptr_t)data >> 4) * 0x9E3779B97F4A7C15ull >> 7;
    for (;; i++) {
        struct slot *s = &t->slots[i & (t->cap - 1)];
        if (!s->data || s->data == data)
            return s;
    }
}

static struct table *table_grow(struct table *old)
{
    size_t cap = old ? old->cap * 2 : 16;
    struct table *t = pv_malloc(sizeof *t + cap * sizeof(struct slot));
    memset(t, 0, sizeof *t + cap * sizeof(struct slot));
    t->cap = cap;
    if (old) {
        for (size_t i = 0; i < old->cap; i++)
            if (old->slots[i].data) {
                *slot_of(t, old->slots[i].data) = old->slots[i];
                t->used++;
            }
        free(old);
    }
    pthread_once(&exit_once, make_key);
    pthread_setspecific(exit_key, t);
    return t;
}

static bool initial_thread(void)
{
    static __thread int initial = -1;
    if (initial < 0)
        initial = pv_gettid() == getpid();
    return initial;
}

PV_EXPORT void *__kmpc_threadprivate_cached(ident_t *loc, kmp_int32 gtid, void *data,
                                            size_t size, void ***cache)
{
    (void)loc, (void)gtid, (void)cache;
    if (initial_thread()) {
        if (!mine) { /* take the image before the program changes the variable */
            mine = table_grow(NULL);
        }
        struct slot *s = slot_of(mine, data);
        if (!s->data) {
            (void)var_get(data, size);
            if (2 * (mine->used + 1) > mine->cap) {
                mine = table_grow(mine);
                s = slot_of(mine, data);
            }
            s->data = data; /* copy NULL: the variable itself */
            mine->used++;
        }
        return data;
    }
    if (!mine || 2 * (mine->used + 1) > mine->cap)
        mine = table_grow(mine);
    struct slot *s = slot_of(mine, data);
    if (s->data)
        return s->copy;
    struct var *v = var_get(data, size);
    void *copy = pv_malloc(size ? size : 1);
    if (v->ctor)
        v->ctor(copy);
    else if (v->cctor)
        v->cctor(copy, data);
    else
        memcpy(copy, v->image, size);
    s->data = data;
    s->copy = copy;
    s->dtor = v->dtor;
    mine->used++;
    return copy;
}

/* The uncached form (libomp: the same copy, looked up each time). */
PV_EXPORT void *__kmpc_threadprivate(ident_t *loc, kmp_int32 gtid, void *data, size_t size)
{
    return __kmpc_threadprivate_cached(loc, gtid, data, size, NULL);
}
