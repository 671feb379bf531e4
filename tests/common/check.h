/* CHECK(cond): the test fails (exit 1, the file, line and condition on
 * stderr) when cond is false. */
#ifndef PVOMP_TEST_CHECK_H
#define PVOMP_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

#endif
