#!/usr/bin/env python3
"""Run LLVM 16's runtime tests (openmp/runtime/test) against an OpenMP runtime.

Each test's RUN lines are interpreted as LLVM's lit configuration
(openmp/runtime/test/lit.cfg) would for the chosen compiler: the lit
substitutions are expanded, and each RUN line runs as a bash pipeline
(pipefail, as lit does) whose output FileCheck checks.  REQUIRES /
UNSUPPORTED / XFAIL are evaluated on the features lit sets for that compiler
on x86-64 Linux.  --subset ompt is the directory ompt/ (lit's check-ompt),
--subset runtime every other directory (the rest of check-libomp).

--compiler gcc (the GOMP ABI): gcc 12 (g++ for C++) with gcc's own omp.h and
LLVM's omp-tools.h.  Departures from lit: -lomp becomes -lgomp,
omp_control_tool and omp_in_explicit_task are declared weak (gcc 12's omp.h
and libgomp lack them; programs link against the system libgomp),
kmp_platform.h is a stub, and the program's ompt_start_tool is exported
(a clang link against libomp exports it; a gcc link does not).  A test whose
link needs __kmpc_*/__kmp_* symbols is skipped as kmp-specific.

--compiler clang (libomp's ABI): clang 14 with its own omp.h (libomp 14's),
-fopenmp -pthread, -L <lib-dir> before clang's own libomp directory (as lit
puts the library under test), LLVM 16's omp-tools.h and the same
kmp_platform.h stub; nothing else departs from lit, and no test is skipped
for what it links.

The runtime comes from <lib-dir> (LD_LIBRARY_PATH); every test binary is first
shown, through the dynamic loader, to resolve its OpenMP runtime
(libgomp.so.1 or libomp.so.5, whichever it needs) into <lib-dir>.
Tests listed in a known-failures file are XFAIL when they fail, XPASS (a
failure) when they pass (unless the reason starts with "passes at times:":
a test whose outcome the machine's timing decides); tests marked XFAIL for gcc but listed in an
expected-passes file must PASS.  Prints one line per test and then
"N passed, N failed, N known failures, N skipped"; exits 1 if any failed.
Counting as lit does: passed = PASS + XFAIL (marked in the test),
failed = FAIL + XPASS.  See docs/ompt.md, "LLVM's OMPT tests"."""

import argparse
import concurrent.futures
import os
import re
import shutil
import signal
import subprocess
import sys

ATTEMPTS = 3   # tries of a timing-dependent test (see Suite.run)
# A known failure whose reason starts so fails or passes by the machine's
# timing, not by a change of the runtime: its pass is no XPASS.
MAY_PASS = "passes at times:"
FILECHECK = os.environ.get("PVOMP_FILECHECK", "/usr/lib/llvm-14/bin/FileCheck")
NOT = os.path.join(os.path.dirname(FILECHECK), "not")
SHIM = """/* Written by scripts/llvm-ompt/runner.py: what gcc 12's omp.h lacks
   beside libomp's (which includes <stdlib.h>, so the tests rely on it). */
#include <stdlib.h>
#ifdef __cplusplus
extern "C" {
#endif
typedef enum omp_control_tool_result_t {
  omp_control_tool_notool = -2, omp_control_tool_nocallback = -1,
  omp_control_tool_success = 0, omp_control_tool_ignored = 1
} omp_control_tool_result_t;
typedef enum omp_control_tool_t {
  omp_control_tool_start = 1, omp_control_tool_pause = 2,
  omp_control_tool_flush = 3, omp_control_tool_end = 4
} omp_control_tool_t;
/* weak: the program links against the system libgomp, which lacks them;
   the dynamic loader binds them to the runtime that has them */
extern int omp_control_tool(int, int, void *) __attribute__((weak));
extern int omp_in_explicit_task(void) __attribute__((weak));
#ifdef __cplusplus
}
#endif
"""
KMP_PLATFORM = """/* Stub of libomp's kmp_platform.h (scripts/llvm-ompt/runner.py) */
#define KMP_ARCH_X86 0
#define KMP_ARCH_X86_64 1
#define KMP_ARCH_PPC64 0
#define KMP_ARCH_AARCH64 0
#define KMP_ARCH_RISCV64 0
#define KMP_ARCH_LOONGARCH64 0
#define KMP_OS_LINUX 1
"""


RUNTIME_SONAMES = ("libgomp.so.1", "libomp.so.5")   # what an OpenMP program may need
CLANG, CLANGXX = "clang-14", "clang++-14"


def compiler_version(compiler):
    if compiler == "gcc":
        cmd = ["gcc", "-dumpfullversion"]
    else:
        cmd = [CLANG, "-dumpversion"]
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()


def features(compiler):
    # openmp/cmake/OpenMPTesting.cmake: the compiler's name, then -MAJOR,
    # -MAJOR.MINOR and the full version; lit.cfg adds the platform's
    parts = compiler_version(compiler).split(".")
    feats = {compiler, "x86_64", "x86_64-target-arch", "x86-target-arch", "linux",
             "affinity", "hidden-helper", "ompt"}
    for i in range(1, len(parts) + 1):
        feats.add(compiler + "-" + ".".join(parts[:i]))
    if (os.cpu_count() or 1) > 1:
        feats.add("multicpu")
    return feats


def directive(text, name):
    """The comma-separated feature list of every '// NAME:' line, joined."""
    items = []
    for m in re.finditer(r"^\s*//\s*" + name + r":(.*)$", text, re.M):
        items += [x.strip() for x in m.group(1).split(",") if x.strip()]
    return items


def run_lines(text):
    lines, cur = [], ""
    for m in re.finditer(r"^\s*//\s*RUN:(.*)$", text, re.M):
        part = m.group(1).rstrip()
        if part.endswith("\\"):
            cur += part[:-1] + " "
            continue
        lines.append((cur + part).strip())
        cur = ""
    return lines


def substitute(line, subs):
    # lit applies its substitutions in list order; the longer names come first
    for key, val in subs:
        line = line.replace(key, val)
    return line


def read_list(path):
    """test path | reason, one a line ('#' comments)."""
    out = {}
    if path:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#"):
                    name, _, why = line.partition(" | ")
                    out[name.strip()] = why.strip()
    return out


def run_line(cmd, env, cwd, timeout):
    """One RUN line as a bash pipeline (pipefail, as lit), in a session of its
    own: past the timeout the whole session is killed (the test program and
    the rest of its pipeline, not only bash) and the answer is None."""
    p = subprocess.Popen(["bash", "-o", "pipefail", "-c", cmd], env=env, cwd=cwd,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         errors="replace", start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return None
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


def read_run_env(path):
    """test path | VAR=VALUE[ VAR=VALUE...] | why, one a line: the environment
    a test runs in beside the runner's (see --run-env)."""
    out = {}
    for name, rest in read_list(path).items():
        assigns, _, _ = rest.partition(" | ")
        out[name] = dict(a.split("=", 1) for a in assigns.split())
    return out


class Suite:
    def __init__(self, args):
        self.args = args
        self.src = os.path.abspath(args.src)
        self.testdir = os.path.join(self.src, "test")
        self.work = os.path.abspath(args.work)
        self.lib = os.path.abspath(args.lib_dir)
        self.clang = args.compiler == "clang"
        self.feats = features(args.compiler)
        gen = os.path.join(self.work, "include")
        self.inc = os.path.join(gen, "a", "b")   # "../../src/kmp_platform.h" resolves into gen/src
        os.makedirs(self.inc, exist_ok=True)
        os.makedirs(os.path.join(gen, "src"), exist_ok=True)
        shutil.copy(os.path.join(self.src, "src", "include", "omp-tools.h.var"),
                    os.path.join(self.inc, "omp-tools.h"))
        with open(os.path.join(self.inc, "pvomp-shim.h"), "w") as f:
            f.write(SHIM)
        with open(os.path.join(gen, "src", "kmp_platform.h"), "w") as f:
            f.write(KMP_PLATFORM)
        self.known = read_list(args.known_failures)
        self.passes = read_list(args.expected_passes)
        self.timing = read_list(args.timing_dependent)
        self.run_env = read_run_env(args.run_env)

    def tests(self):
        """The tests of the chosen subset."""
        in_ompt = lambda rel: rel.startswith("ompt" + os.sep)
        if self.args.subset == "ompt":
            return [t for t in self.all_tests() if in_ompt(t)]
        if self.args.subset == "runtime":
            return [t for t in self.all_tests() if not in_ompt(t)]
        return self.all_tests()

    def all_tests(self):
        out = []
        for root, _, files in os.walk(self.testdir):
            for fn in files:
                if fn.endswith((".c", ".cpp")):
                    out.append(os.path.relpath(os.path.join(root, fn), self.testdir))
        return sorted(out)

    def subs(self, path, tmp):
        tdir = os.path.dirname(tmp)
        flags = f"-I {self.testdir} -I {self.testdir}/ompt -I {self.inc} -fno-omit-frame-pointer"
        if self.clang:
            cc, cxx, omp_flags = CLANG, CLANGXX, "-fopenmp -pthread"
            flags += f" -L {self.lib}"
            lomp = []
        else:
            cc, cxx, omp_flags = "gcc", "g++", "-fopenmp"
            flags += (f" -include {self.inc}/pvomp-shim.h"
                      f" -Wl,--export-dynamic-symbol=ompt_start_tool")
            lomp = [("-lomp", "-lgomp")]
        libs = " -lm -latomic"
        return [
            ("%libomp-cxx-compile-and-run", "%libomp-cxx-compile && %libomp-run"),
            ("%libomp-c99-compile-and-run", "%libomp-c99-compile && %libomp-run"),
            ("%libomp-compile-and-run", "%libomp-compile && %libomp-run"),
            ("%libomp-irbuilder-compile-and-run", "%libomp-irbuilder-compile && %libomp-run"),
            ("%libomp-cxx-compile-c", "%clangXX %openmp_flags %flags -std=c++17 -x c++ %s -o %t" + libs),
            ("%libomp-cxx-compile", "%clangXX %openmp_flags %flags -std=c++17 %s -o %t" + libs),
            ("%libomp-irbuilder-compile",
             "%clang %openmp_flags %flags -fopenmp-enable-irbuilder %s -o %t" + libs),
            ("%libomp-c99-compile", "%clang %openmp_flags %flags -std=c99 %s -o %t" + libs),
            ("%libomp-compile", "%clang %openmp_flags %flags %s -o %t" + libs),
            ("%libomp-run", "%t"),
            ("%clangXX", cxx),
            ("%clang", cc),
            ("%openmp_flags", omp_flags),
            ("%flags-use-compiler-omp-h", flags),
            ("%flags", flags),
            ("%python", sys.executable),
            ("%sort-threads", "sort -n -s"),
            ("%preload-tool", f"env LD_PRELOAD={tdir}/tool.so"),
            ("%no-as-needed-flag", "-Wl,--no-as-needed"),
            ("FileCheck", "tee %t.out | " + FILECHECK),   # as lit.cfg does with OMPT
            ("%not", NOT),
        ] + lomp + [
            ("%s", path), ("%S", os.path.dirname(path)),
            ("%t", tmp), ("%T", tdir),
        ]

    def env(self, rel=None):
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("OMP_", "KMP_", "GOMP_", "PVOMP_")) and k != "LD_PRELOAD"}
        env["LD_LIBRARY_PATH"] = self.lib
        env.update(self.run_env.get(rel, {}))
        return env

    def loaded_from_lib(self, binary):
        """The dynamic loader's own answer: does every OpenMP runtime the
        binary needs (at least one) come from <lib-dir>?"""
        env = self.env()
        env["LD_TRACE_LOADED_OBJECTS"] = "1"
        out = subprocess.run([binary], env=env, capture_output=True, text=True).stdout
        found = re.findall(r"(" + "|".join(map(re.escape, RUNTIME_SONAMES)) + r") => (\S+)", out)
        here = lambda p: (os.path.dirname(p) == self.lib or
                          os.path.dirname(os.path.realpath(p)) == os.path.realpath(self.lib))
        return bool(found) and all(here(p) for _, p in found)

    def run(self, rel):
        """One test; a test whose checks race by the test's own design (listed
        with --timing-dependent) gets up to ATTEMPTS tries and passes when one
        does; a lasting regression still fails every try."""
        if rel not in self.timing:
            return self.run_once(rel)
        for attempt in range(1, ATTEMPTS + 1):
            status, why = self.run_once(rel)
            if status != "FAIL" or attempt == ATTEMPTS:
                break
        note = f"attempt {attempt} of {ATTEMPTS}; timing-dependent: {self.timing[rel]}"
        return status, (f"{why}; {note}" if why else note) if attempt > 1 else why

    def run_once(self, rel):
        path = os.path.join(self.testdir, rel)
        with open(path, errors="replace") as f:
            text = f.read()
        if not set(directive(text, "REQUIRES")) <= self.feats:
            return "SKIP", "requires " + ",".join(sorted(set(directive(text, "REQUIRES")) - self.feats))
        unsup = set(directive(text, "UNSUPPORTED")) & self.feats
        if unsup:
            return "SKIP", "unsupported on " + ",".join(sorted(unsup))
        xfail = bool(set(directive(text, "XFAIL")) & self.feats)
        tdir = os.path.join(self.work, "out", os.path.dirname(rel), os.path.basename(rel) + ".dir")
        shutil.rmtree(tdir, ignore_errors=True)
        os.makedirs(tdir)
        tmp = os.path.join(tdir, "test")
        subs = self.subs(path, tmp)
        reason = None
        for line in run_lines(text):
            cmd = substitute(line, subs)
            p = run_line(cmd, self.env(rel), tdir, self.args.timeout)
            if p is None:
                reason = f"no end after {self.args.timeout} s (hang guard)"
                break
            if not self.clang and re.search(r"undefined reference to `__kmp", p.stderr):
                return "SKIP", "kmp-specific (links __kmpc_*/__kmp_* symbols)"
            if os.path.exists(tmp) and not getattr(self, "_checked_" + tdir, False):
                setattr(self, "_checked_" + tdir, True)
                if not self.loaded_from_lib(tmp):
                    return "FAIL", f"its OpenMP runtime would not come from {self.lib}"
            if p.returncode != 0:
                err = [l for l in p.stderr.splitlines() if l.strip()]
                first = next((l for l in err if "error:" in l), err[0] if err else "")
                undefined = sorted(set(re.findall(r"undefined reference to `([^']+)'", p.stderr)))
                if undefined:
                    reason = "link: undefined reference to " + ", ".join(undefined)
                    break
                sig = f" (signal {-p.returncode})" if p.returncode < 0 else ""
                nxt = ""
                for i, l in enumerate(err):
                    if "error:" in l and i + 1 < len(err):
                        nxt = " // " + err[i + 1].strip()
                        break
                reason = f"exit {p.returncode}{sig}: {first.strip()}{nxt}"[:300]
                break
        if xfail and rel in self.passes:   # marked XFAIL for gcc, passes on this runtime
            return ("FAIL", f"{reason} (listed in expected-passes)") if reason else ("PASS", "")
        if xfail:
            return ("XFAIL", "marked XFAIL") if reason else ("XPASS", "passed although marked XFAIL")
        if rel in self.known:
            why = self.known[rel]
            if not reason and why.startswith(MAY_PASS):
                return ("PASS", "a known failure that " + why)
            return ("KFAIL", why) if reason else ("XPASS", "passed although in known-failures: " + why)
        return ("FAIL", reason) if reason else ("PASS", "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", required=True, help="the extracted openmp/runtime directory")
    ap.add_argument("--lib-dir", required=True,
                    help="directory holding the runtime (libgomp.so.1; for clang libomp.so and libomp.so.5)")
    ap.add_argument("--compiler", choices=("gcc", "clang"), default="gcc",
                    help="gcc 12 (the GOMP ABI) or clang 14 (libomp's ABI)")
    ap.add_argument("--subset", choices=("ompt", "runtime", "all"), default="ompt",
                    help="ompt/ (check-ompt), every other directory, or both")
    ap.add_argument("--run-env", help="tests run with extra environment variables "
                    "(test | VAR=VALUE ... | why), e.g. more threads for tests that sleep")
    ap.add_argument("--results", help="write 'STATUS test' lines here (for compare.py)")
    ap.add_argument("--work", required=True, help="scratch directory for binaries and outputs")
    ap.add_argument("--known-failures", help="list of tests failing by design (test | reason)")
    ap.add_argument("--expected-passes",
                    help="tests marked XFAIL for gcc that this runtime passes (test | why)")
    ap.add_argument("--timing-dependent",
                    help="tests whose checks race by the test's own design (test | why): "
                         f"up to {ATTEMPTS} tries each")
    ap.add_argument("--filter", default="", help="only tests whose name matches this regexp")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=120, help="per RUN line hang guard (s)")
    ap.add_argument("--label", default="", help="prefix of the summary line")
    args = ap.parse_args()
    suite = Suite(args)
    tests = [t for t in suite.tests() if re.search(args.filter, t)]
    unknown = sorted((set(suite.known) | set(suite.passes) | set(suite.timing) | set(suite.run_env))
                     - set(suite.all_tests()))
    counts = dict.fromkeys(["PASS", "FAIL", "XFAIL", "XPASS", "KFAIL", "SKIP"], 0)
    results = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for rel, (status, why) in zip(tests, pool.map(suite.run, tests)):
            counts[status] += 1
            results.append(f"{status} {rel}\n")
            if rel in suite.run_env:
                env = " ".join(f"{k}={v}" for k, v in suite.run_env[rel].items())
                why = f"{why}; run with {env}" if why else f"run with {env}"
            shown = "XFAIL" if status == "KFAIL" else status
            tag = "known failure: " if status == "KFAIL" else ""
            print(f"{shown} {rel}" + (f" [{tag}{why}]" if why else ""), flush=True)
    for name in unknown:
        print(f"FAIL {name} [listed in known-failures, expected-passes or timing-dependent but no such test]")
        counts["FAIL"] += 1
    if args.results:
        with open(args.results, "w") as f:
            f.writelines(results)
    passed = counts["PASS"] + counts["XFAIL"]
    failed = counts["FAIL"] + counts["XPASS"]
    print(f"{args.label}{passed} passed, {failed} failed, {counts['KFAIL']} known failures, "
          f"{counts['SKIP']} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
