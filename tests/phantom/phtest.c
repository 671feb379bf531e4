#include "phtest.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "phantom/connect.h"

static pid_t daemon_pid;
static char sock_path[128], pin_dir[128];
static const volatile struct pvomp_phantom_page *pages;
static uint32_t nr_pages;

static void stop_daemon(void)
{
    if (daemon_pid > 0 && getpid() != daemon_pid) {
        kill(daemon_pid, SIGTERM);
        waitpid(daemon_pid, NULL, 0);
        daemon_pid = 0;
    }
}

static bool alive(void)
{
    char why[300];
    uint32_t n;
    int fd = pv_phantomd_request(sock_path, PVOMP_PHANTOMD_OP_MAP, NULL, &n, why, sizeof(why));
    if (fd < 0)
        return false;
    close(fd);
    return true;
}

void ph_start_daemon(void)
{
    if (geteuid() != 0) {
        fprintf(stderr, "FAIL: the phantom tracker tests load eBPF programs and must run as root\n");
        exit(1);
    }
    pid_t me = getpid();
    snprintf(sock_path, sizeof(sock_path), "/tmp/pvomp-phtest-%d.sock", (int)me);
    snprintf(pin_dir, sizeof(pin_dir), "/sys/fs/bpf/pvomp-phtest-%d", (int)me);
    setenv(PVOMP_PHANTOMD_SOCKET_ENV, sock_path, 1);
    daemon_pid = fork();
    PH_CHECK(daemon_pid >= 0);
    if (daemon_pid == 0) {
        /* If the test dies (crash, CTest timeout), the daemon goes too and
         * removes its pins and probes. */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != me)
            _exit(1);
        execl(PHANTOMD, PHANTOMD, "--foreground", "--socket", sock_path, "--pin", pin_dir,
              (char *)NULL);
        perror("exec " PHANTOMD);
        _exit(127);
    }
    atexit(stop_daemon);
    /* Wait for the socket; no time limit, but a dead daemon fails at once. */
    while (!alive()) {
        int st;
        if (waitpid(daemon_pid, &st, WNOHANG) == daemon_pid) {
            fprintf(stderr, "FAIL: pvomp-phantomd exited (status %d) before serving\n", st);
            daemon_pid = 0;
            exit(1);
        }
        usleep(10000);
    }
}

const char *ph_pin_dir(void)
{
    return pin_dir;
}

const volatile struct pvomp_phantom_page *ph_pages(void)
{
    if (pages)
        return pages;
    char why[300];
    int fd = pv_phantomd_request(pv_phantomd_socket_path(), PVOMP_PHANTOMD_OP_MAP, NULL,
                                 &nr_pages, why, sizeof(why));
    if (fd < 0) {
        fprintf(stderr, "FAIL: %s\n", why);
        exit(1);
    }
    pages = pv_phantom_map_pages(fd, nr_pages);
    close(fd);
    PH_CHECK(pages != NULL);
    PH_CHECK(pages[0].hdr.magic == PVOMP_PHANTOM_MAGIC);
    PH_CHECK(pages[0].hdr.version == PVOMP_PHANTOM_VERSION);
    PH_CHECK(pages[0].hdr.kind == PVOMP_PHANTOM_KIND_GLOBAL);
    return pages;
}

ph_global_t *ph_global(void)
{
    return &ph_pages()[0].g;
}

ph_proc_t *ph_find(pid_t pid)
{
    const volatile struct pvomp_phantom_page *pg = ph_pages();
    for (uint32_t i = 1; i < nr_pages; i++) {
        if (pg[i].p.pid == (uint32_t)pid)
            return &pg[i].p;
    }
    return NULL;
}

void (*ph_load_pvomp(void))(void)
{
    /* These tests register threads by hand: the library's default policy
     * must not register the loading thread with the tracker by itself (it
     * does when a tracker runs, src/wait/late.c). */
    setenv("PVOMP_WAIT_ADAPT", "0", 1);
    void *h = dlopen(PVOMP_LIB, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "FAIL: dlopen %s: %s\n", PVOMP_LIB, dlerror());
        exit(1);
    }
    void (*reg)(void) = (void (*)(void))dlsym(h, PVOMP_PHANTOM_REGISTER_SYMBOL);
    PH_CHECK(reg != NULL);
    Dl_info info;
    char lib[PATH_MAX];
    PH_CHECK(dladdr((void *)reg, &info) && info.dli_fname && realpath(info.dli_fname, lib));
    char why[300];
    uint32_t n;
    int fd = pv_phantomd_request(pv_phantomd_socket_path(), PVOMP_PHANTOMD_OP_REGISTER, lib, &n,
                                 why, sizeof(why));
    if (fd < 0) {
        fprintf(stderr, "FAIL: %s\n", why);
        exit(1);
    }
    close(fd);
    return reg;
}

void ph_pin_cpu(int cpu)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    PH_CHECK(sched_setaffinity(0, sizeof(s), &s) == 0);
}

pid_t ph_gettid(void)
{
    return (pid_t)syscall(SYS_gettid);
}

void ph_wait_thread_gone(pid_t tid)
{
    char p[64];
    struct stat st;
    snprintf(p, sizeof(p), "/proc/self/task/%d", (int)tid);
    while (stat(p, &st) == 0)
        usleep(1000);
}

char ph_thread_state(pid_t tid)
{
    char p[64], buf[512];
    snprintf(p, sizeof(p), "/proc/self/task/%d/stat", (int)tid);
    FILE *f = fopen(p, "r");
    if (!f)
        return '?';
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = 0;
    char *rp = strrchr(buf, ')');
    return rp && rp[1] ? rp[2] : '?';
}

/* The kernel's own accounts, so that checks of the tracker hold on a busy
 * machine too: they compare the tracker with what the scheduler saw. */
bool ph_thread_sched(pid_t tid, uint64_t *cpu_ns, uint64_t *switch_ins)
{
    char p[64];
    snprintf(p, sizeof(p), "/proc/self/task/%d/schedstat", (int)tid);
    FILE *f = fopen(p, "r");
    if (!f)
        return false;
    unsigned long long cpu, turns;
    bool ok = fscanf(f, "%llu %*u %llu", &cpu, &turns) == 2;
    fclose(f);
    if (ok) {
        *cpu_ns = cpu;
        *switch_ins = turns;
    }
    return ok;
}

int ph_runnable_tasks(void)
{
    FILE *f = fopen("/proc/loadavg", "r");
    int running = -1;
    if (f) {
        if (fscanf(f, "%*f %*f %*f %d/%*d", &running) != 1)
            running = -1;
        fclose(f);
    }
    return running;
}

long long ph_cpu_steal_ticks(int cpu)
{
    FILE *f = fopen("/proc/stat", "r");
    char line[512], want[16];
    long long steal = -1;
    snprintf(want, sizeof(want), "cpu%d ", cpu);
    while (f && fgets(line, sizeof(line), f))
        if (strncmp(line, want, strlen(want)) == 0 &&
            sscanf(line + strlen(want), "%*u %*u %*u %*u %*u %*u %*u %lld", &steal) == 1)
            break;
    if (f)
        fclose(f);
    return steal;
}

uint64_t ph_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void ph_busy_ns(uint64_t ns)
{
    uint64_t end = ph_now_ns() + ns;
    while (ph_now_ns() < end)
        ;
}

double ph_avg(ph_proc_t *p)
{
    return (double)p->avg / (double)(1u << PVOMP_PHANTOM_AVG_SHIFT);
}

bool ph_is_child(void)
{
    return getenv("PHTEST_CHILD") != NULL;
}

char *ph_run_child(const char *policy, const char *const args[])
{
    int fds[2];
    PH_CHECK(pipe(fds) == 0);
    fflush(stdout);
    pid_t c = fork();
    PH_CHECK(c >= 0);
    if (c == 0) {
        close(fds[0]);
        dup2(fds[1], 1);
        dup2(fds[1], 2); /* the runtime's warnings are part of the output */
        setenv("PHTEST_CHILD", "1", 1);
        /* "default": no variable; "default-noadapt": the default without its
         * late-waiter rules (PVOMP_WAIT_ADAPT=0). */
        unsetenv("GOMP_WAIT_POLICY");
        if (policy && !strcmp(policy, "default-noadapt"))
            setenv("PVOMP_WAIT_ADAPT", "0", 1);
        else if (policy && strcmp(policy, "default"))
            setenv("GOMP_WAIT_POLICY", policy, 1);
        char *argv[16];
        int n = 0;
        argv[n++] = "phtest-child";
        for (int i = 0; args[i] && n < 15; i++)
            argv[n++] = (char *)args[i];
        argv[n] = NULL;
        execv("/proc/self/exe", argv);
        _exit(127);
    }
    close(fds[1]);
    size_t cap = 4096, len = 0;
    char *out = malloc(cap);
    PH_CHECK(out != NULL);
    for (;;) {
        if (len + 1024 > cap) {
            cap *= 2;
            out = realloc(out, cap);
            PH_CHECK(out != NULL);
        }
        ssize_t r = read(fds[0], out + len, cap - len - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        len += (size_t)r;
    }
    out[len] = 0;
    close(fds[0]);
    int st;
    PH_CHECK(waitpid(c, &st, 0) == c);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "FAIL: child (GOMP_WAIT_POLICY=%s) failed (status %d); it printed:\n%s\n",
                policy ? policy : "unset", st, out);
        exit(1);
    }
    return out;
}

const char *ph_runtime_path(void)
{
    static char path[PATH_MAX];
    void *fn = dlsym(RTLD_DEFAULT, "pvomp_runtime_path");
    PH_CHECK(fn != NULL);
    Dl_info info;
    PH_CHECK(dladdr(fn, &info) && info.dli_fname && realpath(info.dli_fname, path));
    return path;
}
