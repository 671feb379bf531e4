/* `declare target` variables on device 0.
 *
 * gcc lists every declare target variable of a program or library in its
 * `.gnu.offload_vars` section (address, size; the top bit of the size marks
 * `link`).  Without an offload compiler, the kernel code is the host code,
 * so it reads and writes those variables at their host addresses.  To keep
 * maps and updates of them consistent with that, each one is entered in the
 * device table as an identity mapping (device address = host address,
 * never unmapped): a map finds it present, copies of it are no-ops, and a
 * pointer attached inside it is restored when detached (mapexit.c). */
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "target/target.h"

#define LINK_BIT ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 1))

static bool read_at(int fd, void *buf, size_t len, off_t off)
{
    return pread(fd, buf, len, off) == (ssize_t)len;
}

/* Address and size of `name` in the ELF file, or false. */
static bool find_section(const char *path, const char *name, uintptr_t *addr, size_t *size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    bool found = false;
    ElfW(Ehdr) eh;
    ElfW(Shdr) *sh = NULL;
    char *names = NULL;
    if (!read_at(fd, &eh, sizeof eh, 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_shentsize != sizeof(ElfW(Shdr)) || eh.e_shstrndx >= eh.e_shnum)
        goto out;
    sh = malloc((size_t)eh.e_shnum * sizeof *sh);
    if (!sh || !read_at(fd, sh, (size_t)eh.e_shnum * sizeof *sh, (off_t)eh.e_shoff))
        goto out;
    ElfW(Shdr) *strs = &sh[eh.e_shstrndx];
    names = malloc(strs->sh_size + 1);
    if (!names || !read_at(fd, names, strs->sh_size, (off_t)strs->sh_offset))
        goto out;
    names[strs->sh_size] = '\0';
    for (unsigned i = 0; i < eh.e_shnum; i++)
        if (sh[i].sh_name < strs->sh_size && strcmp(names + sh[i].sh_name, name) == 0) {
            *addr = sh[i].sh_addr;
            *size = sh[i].sh_size;
            found = true;
            break;
        }
out:
    free(names);
    free(sh);
    close(fd);
    return found;
}

static int add_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct pv_device *d = arg;
    const char *path = info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name
                                                             : "/proc/self/exe";
    uintptr_t addr;
    size_t bytes;
    if (!find_section(path, ".gnu.offload_vars", &addr, &bytes))
        return 0;
    const uintptr_t *table = (const uintptr_t *)(info->dlpi_addr + addr);
    for (size_t i = 0; i + 1 < bytes / sizeof(uintptr_t); i += 2) {
        uintptr_t start = table[i], len = table[i + 1] & ~LINK_BIT;
        if (!start || pv_map_find(&d->map, start, start + (len ? len : 1)))
            continue;
        struct pv_mapping *m = pv_calloc(1, sizeof *m);
        *m = (struct pv_mapping){.host_start = start, .host_end = start + len,
                                 .dev_start = start, .refcount = PV_REF_INF, .head = m,
                                 .device = d->num, .serial = pv_map_serial(),
                                 .identity = true};
        pv_map_insert(&d->map, m);
    }
    return 0;
}

void pv_target_declare_vars(struct pv_device *d)
{
    pthread_mutex_lock(&d->lock);
    dl_iterate_phdr(add_object, d);
    pthread_mutex_unlock(&d->lock);
}
