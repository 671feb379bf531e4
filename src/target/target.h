/* Target constructs on pvomp's host device (src/target).
 *
 * Device 0 is a "device" that lives in the same process as the host.  By
 * default it shares the host's memory (like unified shared memory): a map is
 * bookkeeping only (an identity mapping, reference counted, reported to OMPT
 * as associate / disassociate) and nothing is copied, so target regions cost
 * what they cost on libgomp's host fallback.  With PVOMP_DEVICE_MEMORY=separate
 * it has its own memory: every mapped object gets a separately allocated
 * copy, so a map really copies and a device-side write is invisible on the
 * host until it is copied back.  Kernels run on device threads (league.c), one per team
 * up to a width, which are initial threads of their own contention groups.
 * The initial device (the host itself) is number omp_get_num_devices().
 *
 *   device.c   the device table, device selection, OMP_TARGET_OFFLOAD
 *   mem.c      device memory and copies (each one an OMPT data operation)
 *   map.c      the table of mapped host ranges, reference counts
 *   mapvars.c  what each GOMP_MAP_* kind does on entry and on exit
 *   kernel.c   GOMP_target_ext: map, launch, unmap; nowait and depend
 *   data.c     target data / enter / exit / update constructs
 *   league.c   device threads, teams on them, GOMP_teams4's device side
 *   api.c      the omp_target_* and device routines
 *   api_async.c  omp_target_memcpy(_rect)_async, omp_target_memset(_async)
 *   api_query.c  omp_get_mapped_ptr, omp_target_is_accessible, device uids,
 *              GOMP_target_map_indirect_ptr
 *   interop.c  the interop construct and routines (no foreign runtime)
 *   events.c   OMPT target callbacks, ids, and device trace records */
#ifndef PV_TARGET_TARGET_H
#define PV_TARGET_TARGET_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "omp-tools.h"

#define PV_TLS __thread __attribute__((tls_model("initial-exec")))

/* gomp-constants.h values, as gcc 12 passes them (names are ours). */
enum {
    PV_DEV_ICV = -1,              /* "the default device" */
    PV_DEV_HOST_FALLBACK = -2,    /* if(false) */
};
enum {
    PV_TF_NOWAIT = 1u << 0,       /* GOMP_TARGET_FLAG_NOWAIT */
    PV_TF_EXIT_DATA = 1u << 1,    /* GOMP_TARGET_FLAG_EXIT_DATA */
};
enum {
    PV_TARG_DEVICE_MASK = 0x7f,   /* which device an argument is for (0: all) */
    PV_TARG_SUBSEQUENT = 1 << 7,  /* the value is the next array element */
    PV_TARG_ID_MASK = 0xff << 8,
    PV_TARG_NUM_TEAMS = 1 << 8,
    PV_TARG_THREAD_LIMIT = 2 << 8,
    PV_TARG_VALUE_SHIFT = 16,
};

/* ------------------------------------------------------------- mappings */
#define PV_REF_INF UINT64_MAX     /* associated pointers: never unmapped */

struct pv_mapping {
    uintptr_t host_start, host_end;   /* [start, end) on the host; may be empty */
    uintptr_t dev_start;              /* device address of host_start */
    void *mem;                        /* allocation this entry owns (NULL: none) */
    uint64_t refcount;                /* in the group head for struct members */
    struct pv_mapping *head;          /* struct group head (itself if alone) */
    struct pv_mapping **members;      /* head only: the group, in address order */
    unsigned nmembers;
    uint32_t *attach;                 /* attach count per pointer slot, or NULL */
    uintptr_t *orig;                  /* identity mappings: host pointers under attachments */
    bool identity;                    /* a declare target variable: device = host (dtvars.c) */
    bool pset_null;                   /* a Fortran descriptor first mapped with a null data pointer */
    uint64_t serial;                  /* unique: a construct's item still refers to it? */
    int device;
};
uint64_t pv_map_serial(void);

/* The table: entries sorted by (host_start, host_end), no two overlapping
 * (empty entries may sit at the start of another). */
struct pv_map_table {
    struct pv_mapping **v;
    size_t n, cap;
};

struct pv_mapping *pv_map_find(struct pv_map_table *t, uintptr_t start, uintptr_t end);
/* The entry containing address a, or an empty entry at a. */
struct pv_mapping *pv_map_find_addr(struct pv_map_table *t, uintptr_t a);
void pv_map_insert(struct pv_map_table *t, struct pv_mapping *m);
void pv_map_remove(struct pv_map_table *t, struct pv_mapping *m);
static inline uintptr_t pv_map_dev(const struct pv_mapping *m, uintptr_t host)
{
    return m->dev_start + (host - m->host_start);
}

/* --------------------------------------------------------------- devices */
enum { PV_DEV_UNINIT = 0, PV_DEV_READY = 1, PV_DEV_FINALIZED = 2 };

struct pv_device {
    int num;
    _Atomic int state;
    bool shared;                      /* shares the host's memory (not PVOMP_DEVICE_MEMORY=separate) */
    pthread_mutex_t lock;             /* the map table and device state */
    struct pv_map_table map;
};

/* Enter the program's declare target variables as identity mappings. */
void pv_target_declare_vars(struct pv_device *d);
/* The device a construct's device number selects, initialized; NULL means
 * "run on the initial device" (fatal under OMP_TARGET_OFFLOAD=mandatory
 * when a non-host device was asked for and is not available). */
struct pv_device *pv_target_resolve(int device_id);
/* The device `num` for the memory routines (no fallback, no fatal). */
struct pv_device *pv_target_device(int num);
/* omp.h's special device numbers (OpenMP 5.1 / 6.0). */
enum { PV_OMP_INITIAL_DEVICE = -1, PV_OMP_INVALID_DEVICE = -4, PV_OMP_DEFAULT_DEVICE = -5 };
/* A device number of the device routines (api.c), with omp_initial_device
 * and omp_default_device replaced by the numbers they stand for. */
int pv_target_devnum(int num);
/* Which device that number is: -1 invalid, 0 the initial device, 1 device
 * *d. */
int pv_target_which(int num, struct pv_device **d);
/* omp_target_memcpy_rect's argument checks: 0 when the copy may go ahead,
 * else what the routine answers (INT_MAX for two NULL pointers, EINVAL). */
int pv_target_rect_check(const void *dst, const void *src, int num_dims, const size_t *volume,
                         const size_t *dst_offsets, const size_t *src_offsets,
                         const size_t *dst_dimensions, const size_t *src_dimensions,
                         int dst_device_num, int src_device_num);

/* ------------------------------------------------------------ flight log */
/* `kind` of the trace events target_begin/end/data is enum
 * pvtrace_target_kind (#enum target_kind in src/trace/trace-events):
 * constructs, from target_begin to target_end on the encountering thread
 * (a target data region spans GOMP_target_data_ext to GOMP_target_end_data),
 * and device memory operations (target_data, one instant each, with bytes). */

/* --------------------------------------------------------- device memory */
/* A device block of `size` bytes placed like host address `host_like`
 * (modulo max(64, align)); *mem receives what pv_dev_free releases. */
void *pv_dev_alloc(struct pv_device *d, size_t size, uintptr_t host_like, size_t align,
                   void **mem);
void pv_dev_free(struct pv_device *d, void *mem, void *dev_addr, size_t size);
/* A shared-memory device's mapping of [host, host + size) begins or ends:
 * no block, no copy, only the OMPT data operation (optype: associate or
 * disassociate). */
void pv_dev_share(struct pv_device *d, ompt_target_data_op_t optype, uintptr_t host, size_t size);
void pv_dev_to(struct pv_device *d, void *dev, const void *host, size_t size);
void pv_dev_from(struct pv_device *d, void *host, const void *dev, size_t size);
/* Copy between devices (-1: the initial device), as omp_target_memcpy does.
 * flags: PV_COPY_ASYNC (an _async routine's task: 6.0 tools are told
 * transfer_async), PV_COPY_QUIET (part of a copy already reported: no OMPT
 * event). */
enum { PV_COPY_ASYNC = 1u, PV_COPY_QUIET = 2u };
void pv_dev_copy(int dst_dev, void *dst, int src_dev, const void *src, size_t size,
                 unsigned flags);
/* omp_target_memset(_async) of `count` bytes of device `device`'s memory. */
void pv_dev_fill(int device, void *ptr, int val, size_t count, bool async);
/* omp_target_memcpy_rect(_async)'s copy (arguments checked): one OMPT
 * transfer_rect event for a 6.0 tool, a transfer per contiguous run for a
 * 5.1 tool. */
int pv_target_copy_rect(void *dst, const void *src, size_t element_size, int num_dims,
                        const size_t *volume, const size_t *dst_offsets,
                        const size_t *src_offsets, const size_t *dst_dimensions,
                        const size_t *src_dimensions, int dst_device_num, int src_device_num,
                        bool async);

/* ------------------------------------------------------ map processing */
/* One construct's list items, in gcc's encoding (16-bit kinds). */
struct pv_maplist {
    size_t n;
    void **hostaddrs;
    size_t *sizes;
    unsigned short *kinds;
};

/* A construct's view of its items: what it holds and must give back. */
struct pv_item {
    struct pv_mapping *m;             /* the mapping the item uses (NULL: none) */
    uint64_t serial;                  /* m's serial when the item took it */
    uintptr_t host;                   /* host range of the item */
    size_t len;
    uint8_t kind;
    bool attach;                      /* an attachment to undo at the end */
    bool copy_from, always_from;
};
struct pv_mapped {
    struct pv_device *dev;
    size_t n;
    struct pv_item *items;
    void **devaddrs;                  /* target only: the kernel's argument array */
    void *fp_mem, *fp_dev;            /* target only: firstprivate copies */
    size_t fp_size;
    struct pv_mapped *prev;           /* target data stack */
};

enum pv_map_mode { PV_MAP_TARGET, PV_MAP_DATA, PV_MAP_ENTER };
/* Map the items (structured: target, target data; or enter data).  Returns
 * the construct's holdings (NULL for enter data). */
struct pv_mapped *pv_map_enter(struct pv_device *d, const struct pv_maplist *l,
                               enum pv_map_mode mode);
/* End of a structured construct: detach, release, copy back, free. */
void pv_map_exit(struct pv_mapped *h);
/* target exit data. */
void pv_map_exit_data(struct pv_device *d, const struct pv_maplist *l);
/* target update. */
void pv_map_update(struct pv_device *d, const struct pv_maplist *l);

/* ------------------------------------------------------------- kernels */
/* Run fn(args) on device d with the requested teams and thread limit
 * (GOMP_TARGET_ARG_* values: num_teams 0 = implementation choice, 1 = no
 * teams construct, -1 = unknown).  Returns the number of teams granted. */
unsigned pv_league_run(struct pv_device *d, void (*fn)(void *), void *args, int num_teams,
                       int thread_limit);
/* A host teams region of num_teams teams on W = min(num_teams, width cap)
 * threads: run(ctx, i, W) for i in 0..W-1, index 0 on the calling thread,
 * the others on device threads at the same time; returns when all are done. */
void pv_league_host(void (*run)(void *, unsigned, unsigned), void *ctx, unsigned num_teams);
/* The tool is finalized: idle device threads report thread_end (league.c). */
void pv_league_end_threads(void);
/* GOMP_teams4 on a device thread: true when handled (result in *ret). */
bool pv_target_teams4(unsigned low, unsigned high, unsigned thread_limit, bool first,
                      bool *ret);

/* libgomp's GOMP_task (src/tasks/gomp_task.c, above this module: reached through
 * the exported symbol), which makes the deferred constructs and the
 * asynchronous device routines tasks. */
void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
               long arg_align, bool if_clause, unsigned flags, void **depend, int priority,
               void *detach);
enum { PV_GTF_TASK_DEPEND = 1u << 3 };   /* GOMP_TASK_FLAG_DEPEND */
/* libgomp's GOMP_taskwait_depend (src/tasks/gomp_taskwait.c, the same way):
 * the interop construct's depend clauses (interop.c). */
void GOMP_taskwait_depend(void **depend);

/* Deferred constructs (target tasks, kernel.c).  op: */
enum { PV_TT_TARGET = 0, PV_TT_UPDATE = 1, PV_TT_ENTER = 2, PV_TT_EXIT = 3 };
void pv_target_ttask_launch(int device, int op, void (*fn)(void *), const struct pv_maplist *l,
                            unsigned flags, void **depend, const void *codeptr, bool nowait);
/* An update / enter data / exit data construct, on d (NULL: the initial
 * device), with its OMPT events (data.c). */
void pv_target_data_op(int op, struct pv_device *d, const struct pv_maplist *l, unsigned flags,
                       const void *codeptr, bool nowait);
/* GCC 4.9 ABI: 8-bit kinds to 16-bit ones (caller frees). */
unsigned short *pv_target_widen_kinds(const unsigned char *kinds, size_t n);

/* Target data constructs: a stack per thread (tasks are tied, so their
 * constructs nest on their thread). */
void pv_target_data_push(struct pv_mapped *h);
struct pv_mapped *pv_target_data_pop(void);

#endif
