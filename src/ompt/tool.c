/* Tool discovery, initialization and finalization (OpenMP 5.1, 4.2).
 *
 * At start-up (a constructor that runs right after the runtime's own):
 *   1. OMP_TOOL=disabled: no tool, nothing else happens.
 *   2. ompt_start_tool in the address space, looked up at run time with
 *      dlsym(RTLD_DEFAULT), so a tool linked into the program (or preloaded)
 *      is found.  An executable must export the symbol for the dynamic
 *      linker to see it: pvomp defines a weak ompt_start_tool that answers
 *      "no tool" (as libomp does), because a linker exports an executable's
 *      definition of a symbol that a shared library it links against also
 *      defines -- so a program linked against pvomp (or libomp) exports its
 *      tool with no -rdynamic.  The lookup steps past pvomp's own definition
 *      (RTLD_NEXT: a tool in a library loaded after pvomp is still found).
 *   3. Otherwise each entry of OMP_TOOL_LIBRARIES (colon-separated) in order:
 *      the first library that loads, defines ompt_start_tool and returns
 *      non-NULL is the tool.
 * The tool's initializer then gets the lookup function; if it returns
 * non-zero the tool is active.  The program's initial thread begins
 * (thread_begin, initial-task begin) later, when it first uses OpenMP
 * (thread.c), as in libomp.  At the end of the program (an atexit handler
 * registered once main runs, so that the tool is finalized before any
 * library destructor; a destructor as the fallback) the initial task ends,
 * the thread ends and the finalizer runs; after that no callback is made. */
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/message.h"
#include "base/version.h"
#include "ompt/tool.h"
#include "runtime/ompt_view.h"

bool pv_ompt_active;

typedef ompt_start_tool_result_t *(*start_tool_fn)(unsigned int, const char *);

static ompt_start_tool_result_t *tool;   /* the active tool's answer */
static atomic_int finished;              /* finalization done (or under way) */


static const char *runtime_version(void)
{
    static char text[96];
    if (!text[0])
        snprintf(text, sizeof text, "%s (OMPT 5.1; libgomp.so.1 ABI of GCC 12)",
                 pvomp_version());
    return text;
}

static ompt_start_tool_result_t *call_start(start_tool_fn start)
{
    return start(PV_OMPT_OMP_VERSION, runtime_version());
}

/* pvomp's own ompt_start_tool (see the top of the file): no tool here.
 * Compared by this local name, which the program's definition cannot
 * interpose. */
static ompt_start_tool_result_t *no_tool(unsigned int omp_version, const char *runtime)
{
    (void)omp_version;
    (void)runtime;
    return NULL;
}
PV_EXPORT __attribute__((weak, alias("no_tool"))) ompt_start_tool_result_t *
ompt_start_tool(unsigned int omp_version, const char *runtime_version);

static ompt_start_tool_result_t *from_address_space(void)
{
    pv_ompt_verbose("Search for OMP tool in current address space... ");
    start_tool_fn start = (start_tool_fn)dlsym(RTLD_DEFAULT, "ompt_start_tool");
    if (start == no_tool)
        start = (start_tool_fn)dlsym(RTLD_NEXT, "ompt_start_tool");
    ompt_start_tool_result_t *r = start ? call_start(start) : NULL;
    pv_ompt_verbose(r ? "Success.\n" : "Failed.\n");
    return r;
}

/* One entry of OMP_TOOL_LIBRARIES. */
static ompt_start_tool_result_t *from_library(const char *name)
{
    pv_ompt_verbose("Opening %s... ", name);
    void *h = dlopen(name, RTLD_LAZY | RTLD_LOCAL);
    if (!h) {
        const char *err = dlerror();
        pv_ompt_verbose("Failed: %s\n", err ? err : "?");
        return NULL;
    }
    pv_ompt_verbose("Success.\n");
    pv_ompt_verbose("Searching for ompt_start_tool in %s... ", name);
    dlerror();
    start_tool_fn start = (start_tool_fn)dlsym(h, "ompt_start_tool");
    if (!start || start == no_tool) {   /* no_tool: found in pvomp, a dependence of the library */
        const char *err = start ? NULL : dlerror();
        if (err)
            pv_ompt_verbose("Failed: %s\n", err);
        else
            pv_ompt_verbose("Failed: %s: undefined symbol: ompt_start_tool\n", name);
        dlclose(h);
        return NULL;
    }
    ompt_start_tool_result_t *r = call_start(start);
    if (!r) {
        pv_ompt_verbose("Found but not using the OMPT interface.\n");
        pv_ompt_verbose("Continuing search...\n");
        dlclose(h);
        return NULL;
    }
    /* The tool's library stays loaded for the life of the process. */
    pv_ompt_verbose("Success.\n");
    return r;
}

static ompt_start_tool_result_t *from_libraries(void)
{
    const char *list = getenv("OMP_TOOL_LIBRARIES");
    if (!list || !*list) {
        pv_ompt_verbose("No OMP_TOOL_LIBRARIES defined.\n");
        pv_ompt_verbose("...searching tool libraries failed.\n");
        return NULL;
    }
    pv_ompt_verbose("Searching tool libraries...\n");
    pv_ompt_verbose("OMP_TOOL_LIBRARIES = %s\n", list);
    char *copy = strdup(list);
    if (!copy)
        pv_fatal("out of memory");
    ompt_start_tool_result_t *r = NULL;
    char *save = NULL;
    for (char *name = strtok_r(copy, ":", &save); name && !r; name = strtok_r(NULL, ":", &save))
        r = from_library(name);
    free(copy);
    /* Earlier entries failing is how the list is used; none yielding a tool
     * means the tool the user asked for is missing: say so once. */
    if (!r) {
        pv_ompt_verbose("...searching tool libraries failed.\n");
        pv_warn("OMP_TOOL_LIBRARIES='%s': no entry yields a tool (cannot load, or ompt_start_tool "
                "missing or returned NULL; OMP_TOOL_VERBOSE_INIT=stderr says which)",
                list);
    }
    return r;
}

/* OMP_TOOL: enabled (default) or disabled. */
static bool tool_enabled(void)
{
    const char *v = getenv("OMP_TOOL");
    if (!v || strcasecmp(v, "enabled") == 0)
        return true;
    if (strcasecmp(v, "disabled") == 0)
        return false;
    pv_warn("OMP_TOOL='%s' is neither 'enabled' nor 'disabled'; using 'enabled'", v);
    return true;
}

void pv_ompt_init(void)
{
    static bool done;
    if (done)
        return;
    done = true;
#ifdef PVOMP_NO_OMPT
    return; /* built without OMPT (PVOMP_OMPT=OFF): no tool is ever attached */
#endif
    if (!tool_enabled())
        return;
    pv_ompt_verbose_open();
    pv_ompt_verbose("----- START LOGGING OF TOOL REGISTRATION -----\n");
    ompt_start_tool_result_t *r = from_address_space();
    if (!r)
        r = from_libraries();
    if (!r || !r->initialize) {
        pv_ompt_verbose(r ? "The tool gave no initialize function: not activated.\n"
                          : "No OMP tool loaded.\n");
        pv_ompt_verbose("----- END LOGGING OF TOOL REGISTRATION -----\n");
        pv_ompt_verbose_close();
        return;
    }
    /* The log ends before the initializer runs, as libomp's does. */
    pv_ompt_verbose("Tool was started and is using the OMPT interface.\n");
    pv_ompt_verbose("----- END LOGGING OF TOOL REGISTRATION -----\n");
    pv_ompt_verbose_close();
    tool = r;
    int ok = r->initialize(pv_ompt_lookup, omp_get_initial_device(), &r->tool_data);
    if (!ok) {
        pv_ompt_clear_callbacks();
        tool = NULL;
        return;
    }
    pv_ompt_where_init();
    pv_ompt_observe_sites(true); /* before the tool is active (observe.c) */
    __atomic_store_n(&pv_ompt_active, true, __ATOMIC_RELEASE);
}

/* Detach the tool: no callback from now on, then the finalizer. */
static void detach(void)
{
    ompt_start_tool_result_t *t = tool;
    pv_ompt_wait_workers_ended(); /* their last callbacks come before the end */
    pv_ompt_devices_detach();   /* device tracing delivered, device_finalize (src/target) */
    pv_ompt_clear_callbacks();
    pv_ompt_wait_dispatches();  /* callbacks that started before the clearing end first */
    __atomic_store_n(&pv_ompt_active, false, __ATOMIC_RELEASE);
    pv_ompt_observe_sites(false);
    tool = NULL;
    if (t && t->finalize)
        t->finalize(&t->tool_data);
}

void pv_ompt_shutdown(void)
{
    if (atomic_exchange_explicit(&finished, 1, memory_order_acq_rel))
        return;
    if (!__atomic_load_n(&pv_ompt_active, __ATOMIC_ACQUIRE))
        return;
    /* The device threads (src/target) first: their pools' workers exit
     * then too, and pv_ompt_end_workers waits for every worker's end. */
    pv_ompt_devices_end_threads();
    pv_ompt_end_workers();
    pv_ompt_thread_end();
    detach();
}

/* ompt_finalize_tool: as at the program's end (docked workers end, this
 * thread ends), then the finalizer (as libomp). */
void pv_ompt_finalize_tool(void)
{
    pv_ompt_shutdown();
}

static void shutdown_at_exit(void)
{
    pv_ompt_shutdown();
}

void pv_ompt_register_atexit(void)
{
    static atomic_int registered;
    if (atomic_load_explicit(&registered, memory_order_relaxed) ||
        atomic_exchange_explicit(&registered, 1, memory_order_relaxed))
        return;
    atexit(shutdown_at_exit);
}

/* Right after the runtime's own constructor (priority 101). */
__attribute__((constructor(102))) static void ompt_constructor(void)
{
    pv_runtime_init();
    pv_ompt_init();
}

__attribute__((destructor)) static void ompt_destructor(void)
{
    pv_ompt_shutdown();
}
