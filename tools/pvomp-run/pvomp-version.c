/* pvomp-version: load a libgomp.so.1 and print, as the library itself
 * reports them, its path and its pvomp version ("PATH<TAB>VERSION").
 * Exit status 1 when the library cannot be loaded or is not pvomp.
 * pvomp-run -v uses it to say which runtime a program will run on. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc > 2 || (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0))) {
        fprintf(argc > 2 ? stderr : stdout,
                "Usage: pvomp-version [LIBRARY]\n"
                "Print the path and version of the pvomp runtime LIBRARY (default:\n"
                "the libgomp.so.1 that the dynamic loader finds).\n");
        return argc > 2 ? 2 : 0;
    }
    const char *lib = argc == 2 ? argv[1] : "libgomp.so.1";
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "pvomp-version: cannot load %s: %s\n", lib, dlerror());
        return 1;
    }
    const char *(*version)(void) = (const char *(*)(void))dlsym(h, "pvomp_version");
    const char *(*path)(void) = (const char *(*)(void))dlsym(h, "pvomp_runtime_path");
    if (!version || !path) {
        fprintf(stderr, "pvomp-version: %s is not pvomp (it has no pvomp_version)\n", lib);
        return 1;
    }
    printf("%s\t%s\n", path(), version());
    return 0;
}
