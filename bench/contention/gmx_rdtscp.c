/* LD_PRELOAD shim for Debian's GROMACS 2022 (libgromacs.so.7) on VMs whose
 * CPUID hides `rdtscp` although the instruction runs: mdrun then refuses to
 * start ("compiled to use the rdtscp CPU instruction ... not supported").
 *
 * GROMACS records the CPU's features in a std::set<gmx::CpuInfo::Feature>,
 * filled through the out-of-line (and exported, called through the PLT)
 * std::_Rb_tree<Feature,...>::_M_insert_unique<Feature>(Feature&&).  This
 * shim interposes that function and inserts X86_Rdtscp beside the first
 * feature inserted.  The enum's value of X86_Rdtscp is looked up by name
 * through the exported gmx::CpuInfo::featureString(Feature), which returns a
 * const std::string& (a pointer and a length first in libstdc++'s layout).
 *
 * Used for every runtime alike by bench/contention/run.py. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define INSERT_UNIQUE                                                                    \
    "_ZNSt8_Rb_treeIN3gmx7CpuInfo7FeatureES2_St9_IdentityIS2_ESt4lessIS2_ESaIS2_EE16_M_insert_" \
    "uniqueIS2_EESt4pairISt17_Rb_tree_iteratorIS2_EbEOT_"

struct cxx_string_head {
    const char *data;
    size_t length;
};

/* std::pair<iterator, bool>: returned in two registers, as this struct is. */
struct insert_result {
    void *node;
    bool inserted;
};

typedef struct insert_result (*insert_fn)(void *tree, const int *feature);
typedef const struct cxx_string_head *(*feature_string_fn)(int feature);

/* The Feature value named "rdtscp", or -1.  The enum's values are dense from
 * 0 and X86_Rdtscp is among the first 64; no value past it is asked for. */
static int rdtscp_feature(void)
{
    static int value = -2;
    if (value != -2)
        return value;
    value = -1;
    feature_string_fn name =
        (feature_string_fn)dlsym(RTLD_DEFAULT, "_ZN3gmx7CpuInfo13featureStringB5cxx11ENS0_7FeatureE");
    for (int f = 0; name && f < 64; f++) {
        const struct cxx_string_head *s = name(f);
        if (s->length == 6 && memcmp(s->data, "rdtscp", 6) == 0) {
            value = f;
            break;
        }
    }
    return value;
}

struct insert_result insert_unique(void *tree, const int *feature) __asm__(INSERT_UNIQUE);

struct insert_result insert_unique(void *tree, const int *feature)
{
    static insert_fn real;
    if (!real)
        real = (insert_fn)dlsym(RTLD_NEXT, INSERT_UNIQUE);
    int rdtscp = rdtscp_feature();
    if (rdtscp >= 0 && *feature != rdtscp)
        real(tree, &rdtscp);
    return real(tree, feature);
}
