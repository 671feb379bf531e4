"""Helpers shared by the Python benchmark runners (bench/pvsched/run.py,
bench/contention/run.py): where each OpenMP runtime lives, how busy the CPUs
are, and a private pvomp-phantomd for the pvsched configurations."""

import os
import signal
import socket
import subprocess
import sys
import time

LIBOMP = "/usr/lib/x86_64-linux-gnu/libomp.so.5"
DEFAULT_SOCKET = "/run/pvomp/phantomd.sock"


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def libomp_dir(build):
    """A directory whose libgomp.so.1 is LLVM's libomp (its GOMP entry points)."""
    d = os.path.join(build, "bench", "libomp-as-libgomp")
    os.makedirs(d, exist_ok=True)
    link = os.path.join(d, "libgomp.so.1")
    if os.path.realpath(link) != os.path.realpath(LIBOMP):
        if os.path.lexists(link):
            os.unlink(link)
        os.symlink(LIBOMP, link)
    return d


def cpu_busy(interval=1.0):
    """The share of CPU time not idle over the next `interval` seconds."""
    def snap():
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return sum(v), v[3] + v[4]
    t0, i0 = snap()
    time.sleep(interval)
    t1, i1 = snap()
    return 1.0 - (i1 - i0) / max(1, t1 - t0)


def wait_quiet(limit_s, who="bench"):
    """Wait up to limit_s seconds for the CPUs to be at most 15 % busy."""
    deadline = time.time() + limit_s
    busy = cpu_busy()
    while busy > 0.15 and time.time() < deadline:
        log("%s: CPUs %.0f%% busy with other work; waiting" % (who, busy * 100))
        time.sleep(5)
        busy = cpu_busy()
    return busy


def daemon_alive(sock):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(sock)
        return True
    except OSError:
        return False
    finally:
        s.close()


def start_daemon(build, sock, who="bench"):
    """Start pvomp-phantomd on `sock` (it dies with this process); returns
    the Popen.  Exits with the daemon's message if it fails."""
    exe = os.path.join(build, "bin", "pvomp-phantomd")

    def die_with_parent():
        import ctypes
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    os.makedirs(os.path.dirname(sock), exist_ok=True)
    p = subprocess.Popen([exe, "--foreground", "--no-pin", "--socket", sock],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         preexec_fn=die_with_parent)
    while not daemon_alive(sock):
        if p.poll() is not None:
            sys.exit("%s: pvomp-phantomd failed: %s" % (who, p.stderr.read().strip()))
        time.sleep(0.05)
    return p


def stop_daemon(p):
    p.send_signal(signal.SIGTERM)
    p.wait()
