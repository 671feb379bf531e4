/* Patched entry points (patch.h): the byte switch at a tool's start and end.
 *
 * Called only while the process has one thread doing OpenMP work: at the
 * tool's start (the runtime's initialisation) and at its end (after the
 * workers ended, tool.c).  The page is made writable and executable for the
 * one store, since other code on it (this function, perhaps) keeps running,
 * then executable again.  A system that refuses writable executable pages
 * (W^X policies) leaves the entries as `ret`: the warning says which events
 * the tool then misses.  Under valgrind a translation already made of the
 * old byte would survive the store, so the translations are discarded. */
#include "ompt/patch.h"

#ifndef PVOMP_NO_OMPT /* without OMPT no entry is patched */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/compiler.h"
#include "base/valgrind.h"

struct pv_ompt_patch {
    unsigned char *site;
    const char *name;
};

extern struct pv_ompt_patch __start_pv_ompt_patch[] PV_HIDDEN;
extern struct pv_ompt_patch __stop_pv_ompt_patch[] PV_HIDDEN;

static bool set_byte(unsigned char *site, unsigned char b)
{
    if (*site == b)
        return true;
    long pg = sysconf(_SC_PAGESIZE);
    uintptr_t page = (uintptr_t)site & ~(uintptr_t)(pg - 1);
    /* The byte and its displacement could straddle a page: cover both. */
    size_t len = (uintptr_t)site + 5 - page;
    if (mprotect((void *)page, len, PROT_READ | PROT_WRITE | PROT_EXEC) != 0)
        return false;
    __atomic_store_n(site, b, __ATOMIC_RELEASE);
    mprotect((void *)page, len, PROT_READ | PROT_EXEC);
    VALGRIND_DISCARD_TRANSLATIONS(site, 5);
    return true;
}

bool pv_ompt_patch_sites(bool on)
{
    for (struct pv_ompt_patch *p = __start_pv_ompt_patch; p < __stop_pv_ompt_patch; p++) {
        if (!set_byte(p->site, on ? PV_PATCH_JMP : PV_PATCH_RET)) {
            fprintf(stderr,
                    "pvomp: OMPT: cannot make the code of %s writable (%s); the tool gets "
                    "no event from it\n",
                    p->name, strerror(errno));
            return false;
        }
    }
    return true;
}

const unsigned char *pv_ompt_patch_site(const char *name)
{
    for (struct pv_ompt_patch *p = __start_pv_ompt_patch; p < __stop_pv_ompt_patch; p++)
        if (strcmp(p->name, name) == 0)
            return p->site;
    return NULL;
}
#endif
