#!/usr/bin/env python3
"""Run LLVM 16's OMPT tests (openmp/runtime/test/ompt) against a GOMP-ABI runtime.

Each test's RUN lines are interpreted as LLVM's lit configuration
(openmp/runtime/test/lit.cfg) would for a GNU compiler: the lit substitutions
are expanded, the compiler is gcc 12 (g++ for C++) with gcc's own omp.h and
LLVM's omp-tools.h, and each RUN line runs as a bash pipeline (pipefail, as lit
does) whose output FileCheck checks.  REQUIRES / UNSUPPORTED / XFAIL are
evaluated on the features lit sets for gcc 12 on x86-64 Linux.  Departures
from lit, because the runtime has the GOMP ABI: -lomp becomes -lgomp,
omp_control_tool and omp_in_explicit_task are declared weak (gcc 12's omp.h
and libgomp lack them; programs link against the system libgomp), kmp_platform.h is a stub, and the program's ompt_start_tool is exported
(a clang link against libomp exports it; a gcc link does not).  A test whose
link needs __kmpc_*/__kmp_* symbols is skipped as kmp-specific.

The runtime comes from <lib-dir> (LD_LIBRARY_PATH); every test binary is first
shown, through the dynamic loader, to resolve libgomp.so.1 into <lib-dir>.
Tests listed in a known-failures file are XFAIL when they fail, XPASS (a
failure) when they pass; tests marked XFAIL for gcc but listed in an
expected-passes file must PASS.  Prints one line per test and then
"N passed, N failed, N known failures, N skipped"; exits 1 if any failed.
Counting as lit does: passed = PASS + XFAIL (marked in the test),
failed = FAIL + XPASS.  See docs/ompt.md, "LLVM's OMPT tests"."""

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys

ATTEMPTS = 3   # tries of a timing-dependent test (see Suite.run)
FILECHECK = os.environ.get("PVOMP_FILECHECK", "/usr/lib/llvm-14/bin/FileCheck")
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


def features():
    ver = subprocess.run(["gcc", "-dumpfullversion"], capture_output=True,
                         text=True, check=True).stdout.strip()
    parts = ver.split(".")
    feats = {"gcc", "x86_64", "x86_64-target-arch", "x86-target-arch", "linux",
             "affinity", "hidden-helper", "ompt"}
    for i in range(1, len(parts) + 1):
        feats.add("gcc-" + ".".join(parts[:i]))
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


class Suite:
    def __init__(self, args):
        self.args = args
        self.src = os.path.abspath(args.src)
        self.testdir = os.path.join(self.src, "test")
        self.work = os.path.abspath(args.work)
        self.lib = os.path.abspath(args.lib_dir)
        self.feats = features()
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

    def tests(self):
        out = []
        for root, _, files in os.walk(os.path.join(self.testdir, "ompt")):
            for fn in files:
                if fn.endswith((".c", ".cpp")):
                    out.append(os.path.relpath(os.path.join(root, fn), self.testdir))
        return sorted(out)

    def subs(self, path, tmp):
        tdir = os.path.dirname(tmp)
        flags = (f"-I {self.testdir} -I {self.testdir}/ompt -I {self.inc} "
                 f"-include {self.inc}/pvomp-shim.h -fno-omit-frame-pointer "
                 f"-Wl,--export-dynamic-symbol=ompt_start_tool")
        libs = " -lm -latomic"
        return [
            ("%libomp-cxx-compile-and-run", "%libomp-cxx-compile && %libomp-run"),
            ("%libomp-c99-compile-and-run", "%libomp-c99-compile && %libomp-run"),
            ("%libomp-compile-and-run", "%libomp-compile && %libomp-run"),
            ("%libomp-cxx-compile-c", "%clangXX %openmp_flags %flags -std=c++17 -x c++ %s -o %t" + libs),
            ("%libomp-cxx-compile", "%clangXX %openmp_flags %flags -std=c++17 %s -o %t" + libs),
            ("%libomp-c99-compile", "%clang %openmp_flags %flags -std=c99 %s -o %t" + libs),
            ("%libomp-compile", "%clang %openmp_flags %flags %s -o %t" + libs),
            ("%libomp-run", "%t"),
            ("%clangXX", "g++"),
            ("%clang", "gcc"),
            ("%openmp_flags", "-fopenmp"),
            ("%flags-use-compiler-omp-h", flags),
            ("%flags", flags),
            ("%python", sys.executable),
            ("%sort-threads", "sort -n -s"),
            ("%preload-tool", f"env LD_PRELOAD={tdir}/tool.so"),
            ("%no-as-needed-flag", "-Wl,--no-as-needed"),
            ("FileCheck", FILECHECK),
            ("-lomp", "-lgomp"),
            ("%s", path), ("%S", os.path.dirname(path)),
            ("%t", tmp), ("%T", tdir),
        ]

    def env(self):
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("OMP_", "KMP_", "GOMP_", "PVOMP_")) and k != "LD_PRELOAD"}
        env["LD_LIBRARY_PATH"] = self.lib
        return env

    def loaded_from_lib(self, binary):
        """The dynamic loader's own answer: where would libgomp.so.1 come from?"""
        env = self.env()
        env["LD_TRACE_LOADED_OBJECTS"] = "1"
        out = subprocess.run([binary], env=env, capture_output=True, text=True).stdout
        m = re.search(r"libgomp\.so\.1 => (\S+)", out)
        return m and os.path.dirname(os.path.realpath(m.group(1))) == os.path.realpath(self.lib) \
            or (m and os.path.dirname(m.group(1)) == self.lib)

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
            try:
                p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], env=self.env(),
                                   cwd=tdir, capture_output=True, text=True, errors="replace",
                                   timeout=self.args.timeout)
            except subprocess.TimeoutExpired:
                reason = f"no end after {self.args.timeout} s (hang guard)"
                break
            if re.search(r"undefined reference to `__kmp", p.stderr):
                return "SKIP", "kmp-specific (links __kmpc_*/__kmp_* symbols)"
            if os.path.exists(tmp) and not getattr(self, "_checked_" + tdir, False):
                setattr(self, "_checked_" + tdir, True)
                if not self.loaded_from_lib(tmp):
                    return "FAIL", f"libgomp.so.1 would not come from {self.lib}"
            if p.returncode != 0:
                err = [l for l in p.stderr.splitlines() if l.strip()]
                first = next((l for l in err if "error:" in l), err[0] if err else "")
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
            return ("KFAIL", self.known[rel]) if reason else ("XPASS", "passed although in known-failures: " + self.known[rel])
        return ("FAIL", reason) if reason else ("PASS", "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", required=True, help="the extracted openmp/runtime directory")
    ap.add_argument("--lib-dir", required=True, help="directory holding the runtime's libgomp.so.1")
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
    unknown = sorted((set(suite.known) | set(suite.passes) | set(suite.timing))
                     - set(suite.tests()))
    counts = dict.fromkeys(["PASS", "FAIL", "XFAIL", "XPASS", "KFAIL", "SKIP"], 0)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for rel, (status, why) in zip(tests, pool.map(suite.run, tests)):
            counts[status] += 1
            shown = "XFAIL" if status == "KFAIL" else status
            tag = "known failure: " if status == "KFAIL" else ""
            print(f"{shown} {rel}" + (f" [{tag}{why}]" if why else ""), flush=True)
    for name in unknown:
        print(f"FAIL {name} [listed in known-failures, expected-passes or timing-dependent but no such test]")
        counts["FAIL"] += 1
    passed = counts["PASS"] + counts["XFAIL"]
    failed = counts["FAIL"] + counts["XPASS"]
    print(f"{args.label}{passed} passed, {failed} failed, {counts['KFAIL']} known failures, "
          f"{counts['SKIP']} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
