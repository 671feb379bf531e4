#!/usr/bin/env python3
"""Run the C, C++ and Fortran tests of GCC 12's libgomp testsuite against pvomp.

Each test is compiled once (per option set) by the system gcc, g++ or gfortran
with -fopenmp, the way GCC's libgomp.c/c.exp, libgomp.c++/c++.exp and
libgomp.fortran/fortran.exp do (it links against the system libgomp's ABI, as
any user program does), run once on the system
libgomp (the baseline; only a pass is cached), and run on the runtime in
<lib-dir> through LD_LIBRARY_PATH; a test that fails on both is a SKIP only
if it fails the same way, and never if pvomp-passes lists it.  With
--ompt-tool or --trace-reader a pass also needs the evidence of evidence.py.  Every pvomp run must prove, through the dynamic loader's own
log, that libgomp.so.1 came from <lib-dir>.  Tests listed in known-failures
(next to this file) fail by design: they report XFAIL when they fail as
expected, XPASS (a failure) when they pass.  Prints one line per test and then
"N passed, N failed, N xfailed, N skipped"; exits 1 if any test failed.
See docs/testsuite.md."""

import argparse
import collections
import concurrent.futures
import copy
import glob
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dg        # noqa: E402
import evidence  # noqa: E402
import features  # noqa: E402

# How GCC's .exp files compile the test directories (OpenACC's libgomp.oacc-*
# are left out: pvomp has no OpenACC).  Per language: the compiler (and the
# variable that overrides it), the directories with the suffixes of their tests
# and a tag on the test names when a directory is compiled in two languages,
# and the default options, which dg-options replaces.
Lang = collections.namedtuple("Lang", "compiler_var compiler dirs options")
LANGS = {
    # libgomp.c/c.exp: *.c of libgomp.c and libgomp.c-c++-common, -O2
    "c": Lang("PVOMP_TESTSUITE_CC", "gcc",
              [("libgomp.c", r"\.c$", ""), ("libgomp.c-c++-common", r"\.c$", "")], ["-O2"]),
    # libgomp.c++/c++.exp: *.C of libgomp.c++ and, as C++ ("-x c++"),
    # libgomp.c-c++-common/*.c, -O2; linked with libstdc++
    "c++": Lang("PVOMP_TESTSUITE_CXX", "g++",
                [("libgomp.c++", r"\.C$", ""), ("libgomp.c-c++-common", r"\.c$", "@c++")], ["-O2"]),
    # libgomp.fortran/fortran.exp: *.[fF]{,90,95,03,08}, through
    # gfortran-dg-runtest's option sets (TORTURE); no default options
    "fortran": Lang("PVOMP_TESTSUITE_FC", "gfortran",
                    [("libgomp.fortran", r"\.[fF](?:|90|95|03|08)$", "")], []),
}
# gfortran-dg-runtest compiles a file that contains "dg-do run" once per set of
# DG_TORTURE_OPTIONS (gcc-dg.exp; the test is named name@LABEL here) and any
# other file once with -O (name@O); dg-options come after the set.
TORTURE = [("O0", "-O0"), ("O1", "-O1"), ("O2", "-O2"),
           ("O3-loops", "-O3 -fomit-frame-pointer -funroll-loops -fpeel-loops -ftracer -finline-functions"),
           ("O3-g", "-O3 -g"), ("Os", "-Os")]
Item = collections.namedtuple("Item", "name path lang torture")
SYSTEM_LIBGOMP = "/usr/lib/x86_64-linux-gnu/libgomp.so.1"
CATEGORIES = ("tasks", "target")
KNOWN_FAILURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "known-failures")
KNOWN_FAILURES_NAME = "known-failures"    # the file in use (--known-failures)
# Tests whose program calls exit() from two threads at once, inside a
# parallel region: glibc 2.36 then runs exit handlers on one thread while
# the other ends the process, so the OMPT tool's whole-log check may not get
# to run (as for dg-shouldfail tests, only its initialisation is required).
EXIT_IN_PARALLEL = {"libgomp.c/sections-2.c"}
# Tests the system libgomp fails and pvomp passes: they must keep passing.
PASSES_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pvomp-passes")


def fatal(msg):
    print("testsuite: FATAL: " + msg, file=sys.stderr, flush=True)
    sys.exit(2)


# --- Environment ------------------------------------------------------------

def clean_env():
    """The caller's environment without anything that steers an OpenMP
    runtime or the loader; tests set what they need via dg-set-target-env-var."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("OMP_", "GOMP_", "KMP_", "PVOMP_", "LD_"))}
    env["LC_ALL"] = env["LANG"] = "C"
    return env


def file_sig(path):
    st = os.stat(os.path.realpath(path))
    return "%s:%d:%d" % (os.path.realpath(path), st.st_size, st.st_mtime_ns)


def sh(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, errors="replace", **kw)


def read_known_failures(path):
    """{test name: (compiled failure regexp, why)} from the known-failures file:
    one test per line, "name | regexp the FAIL reason must match | why"."""
    known = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = [x.strip() for x in line.split(" | ")]
            if len(fields) != 3 or not all(fields):
                fatal("%s:%d: expected 'name | failure regexp | why'" % (path, n))
            try:
                known[fields[0]] = (re.compile(fields[1]), fields[2])
            except re.error as e:
                fatal("%s:%d: bad regexp: %s" % (path, n, e))
    return known


def read_passes(path):
    """The test names in the pvomp-passes file (one a line, # comments)."""
    try:
        with open(path) as f:
            return {ln.split("#")[0].strip() for ln in f if ln.split("#")[0].strip()}
    except FileNotFoundError:
        return set()


def name_prefixes(name):
    """A test name and the names it is a variant of, longest first:
    x.c@c++@4 -> x.c@c++@4, x.c@c++, x.c."""
    parts = name.split("@")
    return ["@".join(parts[:i]) for i in range(len(parts), 0, -1)]


def apply_known_failure(known, name, verdict, why):
    """A known failure's verdict: XFAIL if it failed the expected way, XPASS
    (which counts as a failure) if it passed; other results are unchanged.
    An entry for a test applies to its variants (language, options, threads)
    unless a variant has its own."""
    entry = next((known[n] for n in name_prefixes(name) if n in known), None)
    if not entry:
        return verdict, why
    rx, reason = entry
    if verdict == "PASS":
        return "XPASS", "known failure passed (%s); remove it from %s" % (
            reason[:60], KNOWN_FAILURES_NAME)
    if verdict == "FAIL":
        if rx.search(why):
            return "XFAIL", reason
        return "FAIL", "%s (known failure, but expected /%s/)" % (why, rx.pattern)
    return verdict, why


# --- Running one program ----------------------------------------------------

def run_program(exe, cwd, env, timeout, on_timeout=None):
    """(status, output): status is an int exit code, 'timeout', or -signal.
    on_timeout(pid) runs before a timed-out process is killed."""
    p = subprocess.Popen([exe], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        status = p.returncode
    except subprocess.TimeoutExpired:
        if on_timeout:
            on_timeout(p.pid)
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, _ = p.communicate()
        status = "timeout"
    return status, out.decode(errors="replace")


def last_line(out):
    # not what gfortran's runtime prints on a signal ("Program received signal
    # SIGABRT ...", a backtrace): the reason names the signal already
    out = re.split(r"^Program received signal ", out, 1, re.M)[0]
    lines = [ln.strip() for ln in out.splitlines() if ln.strip()]
    return (lines[-1][:140]) if lines else ""


def judge(test, status, out, timeout):
    """'' if the run passed, else a one-line reason."""
    if status == "timeout":
        return "timeout after %gs" % timeout
    failed = status != 0
    if test.shouldfail and not failed:
        return "expected to fail (dg-shouldfail) but exited 0"
    if failed and not test.shouldfail:
        if status < 0:
            try:
                name = signal.Signals(-status).name
            except ValueError:
                name = "signal %d" % -status
            why = "killed by %s" % name
        else:
            why = "exit %d" % status
        tail = last_line(out)
        return why + (": " + tail if tail else " (no output)")
    if test.output and not re.search(test.output, out, re.S):
        return "output does not match dg-output /%s/" % test.output.encode("unicode_escape").decode()[:80]
    return ""


# --- The runner -------------------------------------------------------------

class Runner:
    def __init__(self, args):
        self.args = args
        self.src = os.path.abspath(args.src)  # .../libgomp (tests compile in their work dirs)
        self.cache = os.path.abspath(args.cache)
        self.lib = os.path.abspath(args.lib_dir)
        self.lib_gomp = os.path.join(self.lib, "libgomp.so.1")
        self.with_cats = set(args.with_cats)
        self.langs = args.langs
        self.cc = os.environ.get("PVOMP_TESTSUITE_CC", "gcc")     # the probe's
        self.workroot = os.path.join(self.cache, "work")
        self.cfgdir = os.path.join(self.cache, "config")
        # as GCC's libgomp.exp: the libgomp sources (libgomp_g.h) and gcc's
        # include/ (gomp-constants.h), then our config.h
        self.include = [self.src, os.path.join(os.path.dirname(self.src), "include"), self.cfgdir]
        self.baseline_path = os.path.join(self.cache, "baseline.json")
        self.lock = threading.Lock()
        self.known = {}                      # set in setup() for pvomp only
        self.passes = set()                  # likewise
        self.evidence = evidence.Evidence(args.ompt_tool, args.trace_reader)
        try:
            with open(self.baseline_path) as f:
                self.baseline = json.load(f)
        except (OSError, ValueError):
            self.baseline = {}
        # per language: the compiler and what identifies it in the cache keys
        self.compilers, self.toolchain = {}, {}
        for lang in self.langs:
            cc = os.environ.get(LANGS[lang].compiler_var, LANGS[lang].compiler)
            try:
                r = sh([cc, "--version"])
            except OSError:
                r = None
            if r is None or r.returncode:
                fatal("no %s compiler %r (install it, or leave %s out of PVOMP_TESTSUITE_LANGS)" %
                      (dg.LANGS[lang], cc, lang))
            self.compilers[lang] = cc
            self.toolchain[lang] = r.stdout.splitlines()[0] + "|" + file_sig(SYSTEM_LIBGOMP)

    # -- setup and the proof that the runtime under test is the one that runs
    def setup(self):
        os.makedirs(self.workroot, exist_ok=True)
        os.makedirs(self.cfgdir, exist_ok=True)
        # libgomp's own config.h is a build product; affinity-1.c needs one macro.
        with open(os.path.join(self.cfgdir, "config.h"), "w") as f:
            f.write("/* written by scripts/testsuite/runner.py */\n"
                    "#define HAVE_PTHREAD_AFFINITY_NP 1\n")
        if not os.path.isfile(self.lib_gomp):
            fatal("%s does not exist (build pvomp first)" % self.lib_gomp)
        self.lib_real = os.path.realpath(self.lib_gomp)
        if self.lib_real == os.path.realpath(SYSTEM_LIBGOMP) and not self.args.allow_foreign:
            fatal("%s is the system libgomp" % self.lib_gomp)
        syms = sh(["readelf", "-W", "--dyn-syms", self.lib_gomp]).stdout
        self.is_pvomp = re.search(r"\bpvomp_version\b", syms) is not None
        if not self.is_pvomp:
            if not self.args.allow_foreign:
                fatal("%s does not export pvomp_version: it is not pvomp" % self.lib_gomp)
            print("testsuite: WARNING: %s is not pvomp (--allow-foreign-runtime)" % self.lib_gomp,
                  flush=True)
        else:       # pvomp's known failures; another runtime is judged plainly
            self.known = {}
            for path in self.args.known_failures:
                for name, entry in read_known_failures(path).items():
                    if name in self.known:
                        fatal("%s lists %s, which an earlier known-failures file lists too"
                              % (path, name))
                    self.known[name] = entry
            self.passes = read_passes(PASSES_FILE)
        self.probe()

    def probe(self):
        """Compile a small OpenMP program that reports which file its
        libgomp.so.1 is mapped from, and check it under both environments."""
        d = os.path.join(self.cache, "probe")
        os.makedirs(d, exist_ok=True)
        src = os.path.join(d, "probe.c")
        with open(src, "w") as f:
            f.write(PROBE_C)
        exe = os.path.join(d, "probe")
        r = sh([self.cc, "-fopenmp", "-O1", src, "-o", exe, "-ldl"])
        if r.returncode:
            fatal("cannot compile the probe program:\n" + r.stdout)
        env = clean_env()
        env["LD_LIBRARY_PATH"] = self.lib
        st, out = run_program(exe, d, env, 60)
        m = re.search(r"^mapped (.*)$", out, re.M)
        if st != 0 or not m or os.path.realpath(m.group(1)) != self.lib_real:
            fatal("the probe did not run on %s (exit %s):\n%s" % (self.lib_gomp, st, out))
        if self.is_pvomp and "pvomp_version yes" not in out:
            fatal("the probe ran on %s but pvomp_version is not visible:\n%s" % (self.lib_gomp, out))
        st, out = run_program(exe, d, clean_env(), 60)
        m = re.search(r"^mapped (.*)$", out, re.M)
        if st != 0 or not m or os.path.realpath(m.group(1)) != os.path.realpath(SYSTEM_LIBGOMP):
            fatal("without LD_LIBRARY_PATH the probe did not run on the system libgomp:\n" + out)
        print("testsuite: runtime under test: %s -> %s (%s); baseline: %s" %
              (self.lib_gomp, self.lib_real, "pvomp" if self.is_pvomp else "NOT pvomp",
               os.path.realpath(SYSTEM_LIBGOMP)), flush=True)

    # -- the list of tests: [Item] of the languages, language by language,
    # sorted by name, those whose name matches the regexp rx (if any)
    def tests(self, langs, rx=None):
        base = os.path.join(self.src, "testsuite")
        items = []
        for lang in langs:
            mine = []
            for d, suffix, tag in LANGS[lang].dirs:
                for p in glob.glob(os.path.join(base, d, "**", "*"), recursive=True):
                    if not re.search(suffix, p) or not os.path.isfile(p):
                        continue
                    name = os.path.relpath(p, base) + tag
                    for n, (label, flags) in enumerate(self.option_sets(lang, p)):
                        mine.append(((name, n), Item(name + label, p, lang, flags)))
            mine.sort(key=lambda m: m[0])            # a file's option sets in TORTURE order
            items += [i for _, i in mine if not rx or rx.search(i.name)]
        return items

    @staticmethod
    def option_sets(lang, path):
        """[(name suffix, flags)]: one for C and C++; for Fortran those of
        gfortran-dg-runtest (TORTURE when the file says "dg-do run", else -O)."""
        if lang != "fortran":
            return [("", [])]
        with open(path, errors="replace") as f:
            if "dg-do run" in f.read():
                return [("@" + label, flags.split()) for label, flags in TORTURE]
        return [("@O", ["-O"])]

    # -- one test, start to finish: [(display name, verdict, reason)], one
    # entry, plus one per extra thread count when --threads asks for them
    def one(self, item):
        name, path = item.name, item.path
        t = dg.read_test(name, path, item.lang, LANGS[item.lang].options)
        t.torture = item.torture
        verdict, why = self.prepare(t, name, path)
        if verdict:
            return [(name, verdict, why)]
        exe, work, timeout = why
        results = [(name,) + apply_known_failure(self.known, name,
                                                 *self.check(t, name, exe, work, timeout))]
        for n in self.args.threads:
            vname = "%s@%d" % (name, n)
            if "OMP_NUM_THREADS" in t.env:
                results.append((vname, "SKIP", "the test sets OMP_NUM_THREADS itself"))
                continue
            tv = copy.copy(t)
            tv.env = dict(t.env, OMP_NUM_THREADS=str(n))
            tv.run_tag = "@%d" % n
            results.append((vname,) + apply_known_failure(self.known, vname,
                                                          *self.check(tv, vname, exe, work, timeout)))
        return results

    def prepare(self, t, name, path):
        """('SKIP', reason) or ('', (exe, workdir, timeout)) ready to run."""
        if t.skip:
            return "SKIP", t.skip
        need = features.needs([path] + t.sources)
        for cat in CATEGORIES:
            if cat in need and cat not in self.with_cats:
                return "SKIP", "needs %s (%s); enable with PVOMP_TESTSUITE_WITH=%s" % (
                    cat, ", ".join(need[cat][:3]), cat)
        work = os.path.join(self.workroot, re.sub(r"[^\w.-]", "_", name))
        os.makedirs(work, exist_ok=True)
        exe, key, err = self.compile(t, work)
        if err:      # the runtime plays no part in compiling: nothing to compare
            return "SKIP", "does not compile with the system %s (%s)" % (
                os.path.basename(self.compilers[t.lang]), err)
        t.key = key
        needed = sh(["readelf", "-d", exe]).stdout
        if "[libgomp.so.1]" not in needed:
            return "SKIP", "program does not link libgomp.so.1 (no runtime calls)"
        return "", (exe, work, (t.timeout or self.args.timeout) * t.timeout_factor)

    def check(self, t, name, exe, work, timeout):
        """(verdict, reason): baseline on the system libgomp, then the runtime under test."""
        key = hashlib.sha256((t.key + repr(sorted(t.env.items()))).encode()).hexdigest()
        base = self.run_baseline(t, name, key, exe, work, timeout)
        verdict, why = self.run_pvomp(t, name, exe, work, timeout)
        if not base or verdict == "PASS":
            if verdict == "PASS" and base:
                return "PASS", "the system libgomp fails it (%s)" % base
            return verdict, why
        # Both fail.  Many of these target tests assume a device with its own
        # memory, which pvomp has and libgomp's host fallback has not.  Only
        # the same failure (signal or exit status and last line) is excused;
        # a test pvomp is known to pass (PASSES_FILE) must go on passing.
        if any(n in self.passes for n in name_prefixes(name)):
            return "FAIL", "%s (listed in %s as passing on pvomp)" % (
                why, os.path.basename(PASSES_FILE))
        if why.startswith(base):
            return "SKIP", "fails on system libgomp too, the same way (pvomp: %s; libgomp: %s)" % (
                why, base)
        return "FAIL", "%s (libgomp fails differently: %s)" % (why, base)

    def compile(self, t, work):
        cmd = ([self.compilers[t.lang], t.path] + t.sources + ["-fopenmp"] +
               ["-I" + d for d in self.include] + t.torture + t.options + t.extra_options +
               ["-lm", "-g"])
        h = hashlib.sha256()
        for p in [t.path] + t.sources:
            with open(p, "rb") as f:
                h.update(f.read())
        h.update(repr((cmd, sorted(t.env.items()), self.toolchain[t.lang])).encode())
        key = h.hexdigest()
        exe = os.path.join(work, "test.exe")
        stamp = os.path.join(work, "key")
        try:
            with open(stamp) as f:
                if f.read() == key and os.path.isfile(exe):
                    return exe, key, ""
        except OSError:
            pass
        r = sh(cmd + ["-o", exe], cwd=work, env=clean_env(), timeout=600)
        with open(os.path.join(work, "compile.log"), "w") as f:
            f.write(" ".join(cmd) + "\n" + r.stdout)
        if r.returncode:
            errs = [ln for ln in r.stdout.splitlines() if "error" in ln]
            return exe, key, (errs[0] if errs else last_line(r.stdout))[:140]
        with open(stamp, "w") as f:
            f.write(key)
        return exe, key, ""

    def run_baseline(self, t, name, key, exe, work, timeout):
        """'' if the test passes on the system libgomp, else why not.  Only
        a pass is cached: a failure is rerun (twice) in every run."""
        with self.lock:
            b = self.baseline.get(name)
        if b and b.get("key") == key and not b.get("why"):
            return ""
        env = clean_env()
        env.update(t.env)
        why = ""
        for _ in range(2):                  # a flaky test counts as passing there
            st, out = run_program(exe, work, env, timeout)
            why = judge(t, st, out.replace(exe, "test.exe"), timeout)
            if not why:
                break
        with self.lock:
            self.baseline[name] = {"key": key, "why": why}
        return why

    def run_pvomp(self, t, name, exe, work, timeout):
        tag = t.run_tag
        ld = os.path.join(work, "ld" + tag)
        os.makedirs(ld, exist_ok=True)
        for f in os.listdir(ld):
            os.unlink(os.path.join(ld, f))
        env = clean_env()
        env.update(t.env)
        env.update(self.args.run_env)
        env.update(self.evidence.env(work, tag))
        env["LD_LIBRARY_PATH"] = self.lib
        env["LD_DEBUG"] = "libs"
        env["LD_DEBUG_OUTPUT"] = os.path.join(ld, "log")
        hang = []
        st, out = run_program(exe, work, env, timeout, lambda pid: hang.append(self.stacks(pid)))
        with open(os.path.join(work, "run%s.out" % tag), "w") as f:
            f.write(out)
        why = judge(t, st, out.replace(exe, "test.exe"), timeout)
        if st == "timeout" and hang and hang[0]:
            why += " (" + hang[0] + ")"
        if why and isinstance(st, int) and st < 0:
            why += self.locate(exe, work, t, timeout)
        if why:
            return "FAIL", why
        proof = self.loaded_from(ld)       # a pass counts only on the runtime under test
        if not proof:                      # and only with what the pass must prove
            proof = self.evidence.check(work, tag, t.shouldfail or t.name in EXIT_IN_PARALLEL)
        return ("FAIL", proof) if proof else ("PASS", "")

    def locate(self, exe, work, t, timeout):
        """For a crash: rerun under gdb and name the test's source line that
        was executing (tests are built with -g, which does not change code)."""
        env = clean_env()
        env.update(t.env)
        env.update(self.args.run_env)       # the crash happened with these
        cmd = ["gdb", "-nx", "-batch", "-ex", "set startup-with-shell off",
               "-ex", "set environment LD_LIBRARY_PATH=" + self.lib, "-ex", "run", "-ex", "bt", exe]
        try:
            r = subprocess.run(cmd, cwd=work, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                               text=True, errors="replace", timeout=timeout + 30)
        except (OSError, subprocess.TimeoutExpired):
            return ""
        base = os.path.join(self.src, "testsuite")
        for m in re.finditer(r"^#\d+ .* at (\S+):(\d+)$", r.stdout, re.M):
            path, line = m.group(1), int(m.group(2))
            if os.path.abspath(path).startswith(base):
                return " at %s:%d%s" % (os.path.basename(path), line, self.code_near(path, line))
        return ""

    def stacks(self, pid):
        """Where a hung test is: for each thread, the test line and the
        runtime entry point it is in (gdb attaches before the kill)."""
        try:
            r = subprocess.run(["gdb", "-nx", "-batch", "-p", str(pid), "-ex", "thread apply all bt"],
                               stdin=subprocess.DEVNULL, capture_output=True, text=True,
                               errors="replace", timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            return ""
        base = os.path.join(self.src, "testsuite")
        where = []
        frame = re.compile(r"^#\d+\s+(?:0x[0-9a-f]+ in )?(\S+) \(.*?\)(?: at (\S+):(\d+))?", re.M)
        for block in re.split(r"\n(?=Thread \d+ )", r.stdout):
            entry, inner = "", []
            for m in frame.finditer(block):
                fn, path, line = m.group(1), m.group(2), m.group(3)
                if path and os.path.abspath(path).startswith(base):
                    where.append("%s:%s%s" % (os.path.basename(path), line, " in " + entry if entry else ""))
                    break
                if re.match(r"(GOMP_|omp_)", fn):
                    entry = fn
                if path and not path.startswith(("../", "./")) and len(inner) < 3:
                    inner.append(fn)          # runtime frames (not libc's)
            else:
                if inner:                     # a pool thread: no test frame
                    where.append("thread in " + "<".join(inner))
        uniq = sorted(set(where), key=where.index)
        return ("stacks: " + "; ".join(uniq[:3])) if uniq else ""

    @staticmethod
    def code_near(path, line):
        try:
            with open(path, errors="replace") as f:
                lines = f.read().splitlines()
        except OSError:
            return ""
        code = lines[line - 1].strip() if 0 < line <= len(lines) else ""
        if code.startswith("abort") and line >= 2:     # show the check, not the call
            code = lines[line - 2].strip() + " " + code
        return " `%s`" % code[:100] if code else ""

    def loaded_from(self, ld):
        """'' if the loader's log shows libgomp.so.1 initialised from the lib dir."""
        inits = []
        for f in os.listdir(ld):
            with open(os.path.join(ld, f), errors="replace") as fh:
                inits += re.findall(r"calling init: (\S*libgomp\.so\.1)\s*$", fh.read(), re.M)
        if not inits:
            return "no proof that the runtime under test was loaded (no libgomp init in LD_DEBUG log)"
        wrong = [p for p in inits if os.path.realpath(p) != self.lib_real]
        if wrong:
            return "ran on %s, not on the runtime under test" % wrong[0]
        return ""

    def save_baseline(self):
        tmp = self.baseline_path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.baseline, f, indent=0, sort_keys=True)
        os.replace(tmp, self.baseline_path)


PROBE_C = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
int main(void)
{
    int n = 0;
    Dl_info info;
#pragma omp parallel num_threads(2) reduction(+:n)
    n += 1;
    /* The file the OpenMP entry points really came from. */
    if (dladdr((void *)omp_get_thread_num, &info) && info.dli_fname)
        printf("mapped %s\n", info.dli_fname);
    printf("threads %d\npvomp_version %s\n", n, dlsym(RTLD_DEFAULT, "pvomp_version") ? "yes" : "no");
    return n < 1;
}
"""


def comma_list(value, known, var):
    """The names in a comma list ("all" = every known one), each checked."""
    names = [x.strip() for x in value.split(",") if x.strip()]
    if "all" in names:
        return list(known)
    for x in names:
        if x not in known:
            fatal("unknown value %r in %s (known: %s)" % (x, var, ",".join(known)))
    return names


def summary(counts):
    """'N passed, N failed, N xfailed, N skipped' (an XPASS is a failure)."""
    return "%d passed, %d failed, %d xfailed, %d skipped" % (
        counts["PASS"], counts["FAIL"] + counts["XPASS"], counts["XFAIL"], counts["SKIP"])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", required=True, help="extracted libgomp source dir (has testsuite/)")
    ap.add_argument("--cache", required=True, help="cache dir (binaries, baseline)")
    ap.add_argument("--lib-dir", required=True, help="dir holding the libgomp.so.1 under test")
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("PVOMP_TESTSUITE_JOBS", "2")))
    ap.add_argument("--timeout", type=float, default=float(os.environ.get("PVOMP_TESTSUITE_TIMEOUT", "60")))
    ap.add_argument("--filter", default=os.environ.get("PVOMP_TESTSUITE_FILTER", ""),
                    help="only tests whose name matches this regexp")
    ap.add_argument("--threads", default=os.environ.get("PVOMP_TESTSUITE_THREADS", ""),
                    help="comma list of OMP_NUM_THREADS values: also run every test at each (name@N)")
    ap.add_argument("--with", dest="with_cats", default=os.environ.get("PVOMP_TESTSUITE_WITH", ""),
                    help="comma list of categories to run instead of skip: tasks,target (or all)")
    ap.add_argument("--langs", default=os.environ.get("PVOMP_TESTSUITE_LANGS", "c"),
                    help="comma list of the languages whose tests run: c,c++,fortran (or all); "
                         "default c")
    ap.add_argument("--allow-foreign-runtime", dest="allow_foreign", action="store_true",
                    default=os.environ.get("PVOMP_TESTSUITE_ALLOW_FOREIGN", "") == "1",
                    help="accept a libgomp.so.1 that is not pvomp (to check the runner itself)")
    ap.add_argument("--run-env", default=os.environ.get("PVOMP_TESTSUITE_RUN_ENV", ""),
                    help="space-separated VAR=VALUE set for the runs on pvomp (not the baseline), "
                         "e.g. OMP_TOOL_LIBRARIES=build/tests/ompt/libpvomp_tt.so TT_QUIET=1")
    ap.add_argument("--known-failures", action="append",
                    default=[f for f in os.environ.get("PVOMP_TESTSUITE_KNOWN_FAILURES", "").split(":")
                             if f],
                    help="a known-failures file; repeat it for several, whose entries add up (a test "
                         "listed twice is an error). Default: known-failures, or "
                         "known-failures.separate when --run-env has PVOMP_DEVICE_MEMORY=separate")
    ap.add_argument("--ompt-tool", default=os.environ.get("PVOMP_TESTSUITE_OMPT_TOOL", ""),
                    help="the recording tool (libpvomp_tt.so): attach it to every run on pvomp, "
                         "check each log's invariants, and require its evidence for a pass")
    ap.add_argument("--trace-reader", default=os.environ.get("PVOMP_TESTSUITE_TRACE_READER", ""),
                    help="pvomp-trace: turn the flight log on in every run on pvomp and require "
                         "each passing test's logs to read back whole")
    args = ap.parse_args()
    args.run_env = dict(kv.split("=", 1) for kv in args.run_env.split())
    # Device 0's memory mode decides the offload_device_* effective targets
    # and which known failures apply (docs/target.md, docs/testsuite.md).
    separate = args.run_env.get("PVOMP_DEVICE_MEMORY", "").strip().lower() == "separate"
    dg.set_device_memory(separate)
    if not args.known_failures:
        args.known_failures = [KNOWN_FAILURES + (".separate" if separate else "")]
    global KNOWN_FAILURES_NAME
    KNOWN_FAILURES_NAME = " or ".join(os.path.basename(f) for f in args.known_failures)
    args.with_cats = comma_list(args.with_cats, CATEGORIES, "PVOMP_TESTSUITE_WITH")
    args.langs = [x for x in LANGS if x in comma_list(args.langs, LANGS, "PVOMP_TESTSUITE_LANGS")]
    if not args.langs:
        fatal("no language to test (PVOMP_TESTSUITE_LANGS)")
    args.threads = [int(x) for x in args.threads.split(",") if x.strip()]

    r = Runner(args)
    r.setup()
    tests = r.tests(args.langs, re.compile(args.filter) if args.filter else None)
    if not args.filter:
        names = set(p for i in r.tests(LANGS) for p in name_prefixes(i.name))
        for n in sorted(set(r.known) - names):
            print("testsuite: WARNING: %s lists %s, which is not a test" % (
                KNOWN_FAILURES_NAME, n), flush=True)
    zero = {"PASS": 0, "FAIL": 0, "XFAIL": 0, "XPASS": 0, "SKIP": 0}
    counts = {lang: dict(zero) for lang in args.langs}
    results = [None] * len(tests)
    printed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futs = {pool.submit(r.one, item): i for i, item in enumerate(tests)}
        for fut in concurrent.futures.as_completed(futs):
            i = futs[fut]
            try:
                results[i] = fut.result()
            except Exception as e:             # a runner bug must not hide a test
                results[i] = [(tests[i].name, "FAIL", "runner error: %r" % e)]
            while printed < len(tests) and results[printed] is not None:
                for disp, verdict, why in results[printed]:
                    counts[tests[printed].lang][verdict] += 1
                    print("%s %s%s" % (verdict, disp, " [%s]" % why if why else ""), flush=True)
                printed += 1
    r.save_baseline()
    total = {v: sum(c[v] for c in counts.values()) for v in zero}
    if len(args.langs) > 1:
        for lang in args.langs:
            print("testsuite: %s tests: %s" % (dg.LANGS[lang], summary(counts[lang])), flush=True)
    print(summary(total), flush=True)
    return 1 if total["FAIL"] + total["XPASS"] else 0


if __name__ == "__main__":
    sys.exit(main())
