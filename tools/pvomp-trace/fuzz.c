/* libFuzzer target for the reader: any byte string must be read without a
 * crash, a hang or a sanitizer report, through every command.
 *
 *   build:  tests/trace/CMakeLists.txt builds build/bin/pvomp-trace-fuzz with
 *           clang -fsanitize=fuzzer,address,undefined
 *   run:    see docs/trace.md ("Fuzzing") */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "commands.h"
#include "log.h"
#include "out.h"


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *null;
    if (!null && !(null = fopen("/dev/null", "w")))
        abort();
    tr_out_bufsize = 4096;
    int fd = memfd_create("pvomp-trace-fuzz", MFD_CLOEXEC);
    if (fd < 0)
        abort();
    for (size_t done = 0; done < size;) {
        ssize_t w = write(fd, data + done, size - done);
        if (w <= 0)
            abort();
        done += (size_t)w;
    }
    struct tr_log log, *lp = &log;
    if (tr_log_open_fd(&log, fd, "fuzz", NULL, null) == 0) {
        struct tr_opts o = { 0 };
        tr_cmd_dump(&log, &o, null);
        o.simpletrace = true;
        tr_cmd_dump(&log, &o, null);
        o.simpletrace = false;
        o.all = true;
        tr_cmd_dump(&log, &o, null);
        tr_cmd_stats(&lp, 1, &o, null);
        tr_cmd_advise(&lp, 1, &o, null);
        o.json = true;
        tr_cmd_advise(&lp, 1, &o, null);
        o.json = false;
        tr_cmd_timeline(&lp, 1, &o, null);
        o.html = true;
        o.width = 300;
        tr_cmd_timeline(&lp, 1, &o, null);
        tr_cmd_events(&log, null);
        tr_log_report_end(&log);
    }
    tr_log_close(&log);
    return 0;
}
