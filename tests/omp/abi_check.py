#!/usr/bin/env python3
"""ABI checks of pvomp's libgomp.so.1, with the binutils and the dynamic
loader as witnesses.

  abi_check.py versions [--added LIST] PVOMP_LIB [SYSTEM_LIBGOMP]
      readelf: the soname is libgomp.so.1; the version nodes GOMP_1.0 ..
      GOMP_5.1 and OMP_1.0 .. OMP_5.1 are defined with libgomp 12's parents;
      with LIST (src/runtime/abi/libgomp16_added.txt, "NODE PARENT symbol"
      per line: what GCC 13-16's libgomp.map adds), every node of it is
      defined with its parent and every symbol of it exported default-
      versioned (@@) in its node; and, when the system libgomp.so.1 is
      given (a GCC 12 one, or with LIST one of GCC 13-16), every symbol it
      exports in those nodes is exported by pvomp with the same version,
      default (@@) or not (@) alike.

  abi_check.py bindings PVOMP_LIB PROGRAM [ARGS...]
      runs PROGRAM with LD_DEBUG=bindings, LD_BIND_NOW=1 and
      LD_LIBRARY_PATH=dir(PVOMP_LIB):
      its GOMP_parallel reference, and every other GOMP_*/omp_* reference,
      is bound to PVOMP_LIB.
"""
import os
import re
import subprocess
import sys

# libgomp 12's nodes and their parents (gomp-abi.txt, libgomp.map).
EXPECTED_PARENTS = {
    "OMP_1.0": None, "OMP_2.0": "OMP_1.0", "OMP_3.0": "OMP_2.0", "OMP_3.1": "OMP_3.0",
    "OMP_4.0": "OMP_3.1", "OMP_4.5": "OMP_4.0", "OMP_5.0": "OMP_4.5",
    "OMP_5.0.1": "OMP_5.0", "OMP_5.0.2": "OMP_5.0.1", "OMP_5.1": "OMP_5.0.2",
    "GOMP_1.0": None, "GOMP_2.0": "GOMP_1.0", "GOMP_3.0": "GOMP_2.0",
    "GOMP_4.0": "GOMP_3.0", "GOMP_4.0.1": "GOMP_4.0", "GOMP_4.5": "GOMP_4.0.1",
    "GOMP_5.0": "GOMP_4.5", "GOMP_5.0.1": "GOMP_5.0", "GOMP_5.1": "GOMP_5.0.1",
}
NODE_RE = re.compile(r"^(G?OMP)_[0-9.]+$")

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def readelf(*args):
    return subprocess.run(["readelf", "-W", *args], check=True, capture_output=True,
                          text=True).stdout


def version_defs(lib):
    """{node: parent or None} from readelf -V's .gnu.version_d listing."""
    text = readelf("-V", lib)
    section = text.split("Version definition section", 1)
    if len(section) < 2:
        return {}
    body = section[1].split("Version needs section", 1)[0]
    defs, last = {}, None
    for line in body.splitlines():
        m = re.search(r"Flags: (\S+)\s+Index: \d+\s+Cnt: \d+\s+Name: (\S+)", line)
        if m:
            last = None if m.group(1) == "BASE" else m.group(2)
            if last:
                defs[last] = None
            continue
        m = re.search(r"Parent 1: (\S+)", line)
        if m and last:
            defs[last] = m.group(1)
    return defs


def dyn_symbols(lib):
    """{(name, version): is_default} for defined dynamic symbols."""
    syms = {}
    for line in readelf("--dyn-syms", lib).splitlines():
        f = line.split()
        if len(f) < 8 or not f[0].endswith(":") or f[6] == "UND":
            continue
        m = re.match(r"^([^@]+)(@@?)([^@\s(]+)", f[7])
        if m:
            syms[(m.group(1), m.group(3))] = m.group(2) == "@@"
    return syms


def read_added(path):
    """{node: parent} and [(symbol, node)] of the GCC 13+ list."""
    parents, syms = {}, []
    with open(path) as f:
        for line in f:
            f_ = line.split("#", 1)[0].split()
            if len(f_) == 3:
                parents[f_[0]] = f_[1]
                syms.append((f_[2], f_[0]))
    return parents, syms


def check_added(lib, path):
    parents, syms = read_added(path)
    if not parents:
        fail("%s lists no nodes" % path)
    defs, ours = version_defs(lib), dyn_symbols(lib)
    for node, parent in sorted(parents.items()):
        if node not in defs:
            fail("GCC 13+ version node %s is not defined" % node)
        elif defs[node] != parent:
            fail("GCC 13+ version node %s has parent %s, expected %s" % (node, defs[node], parent))
    missing = 0
    for name, node in syms:
        if ours.get((name, node)) is not True:
            missing += 1
            fail("%s@@%s is not exported (%s)" %
                 (name, node, "not default" if (name, node) in ours else "missing"))
    print("%d of %d GCC 13+ version nodes present with their parents; %d of %d symbols "
          "exported as NAME@@NODE" % (sum(defs.get(n) == p for n, p in parents.items()),
                                      len(parents), len(syms) - missing, len(syms)))


def check_versions(lib, system):
    dyn = readelf("-d", lib)
    if not re.search(r"\(SONAME\)\s+Library soname: \[libgomp\.so\.1\]", dyn):
        fail("soname of %s is not libgomp.so.1" % lib)
    defs = version_defs(lib)
    for node, parent in EXPECTED_PARENTS.items():
        if node not in defs:
            fail("version node %s is not defined" % node)
        elif defs[node] != parent:
            fail("version node %s has parent %s, expected %s" % (node, defs[node], parent))
    print("%d of %d GOMP/OMP version nodes present" %
          (sum(n in defs for n in EXPECTED_PARENTS), len(EXPECTED_PARENTS)))
    if not system:
        return
    # The expectations above must hold for the real libgomp too.
    sysdefs = version_defs(system)
    for node, parent in sysdefs.items():
        if NODE_RE.match(node) and EXPECTED_PARENTS.get(node, "?") != parent:
            fail("test table disagrees with %s on %s (parent %s)" % (system, node, parent))
    ours, theirs = dyn_symbols(lib), dyn_symbols(system)
    missing = wrong_default = 0
    for (name, ver), default in sorted(theirs.items()):
        if not NODE_RE.match(ver):
            continue
        if (name, ver) not in ours:
            missing += 1
            if missing <= 20:
                fail("%s%s%s is exported by %s but not by pvomp" %
                     (name, "@@" if default else "@", ver, system))
        elif ours[(name, ver)] != default:
            wrong_default += 1
            fail("%s@%s: default-version is %s in pvomp, %s in libgomp" %
                 (name, ver, ours[(name, ver)], default))
    if missing > 20:
        fail("... %d symbols missing in all" % missing)
    n = sum(1 for (_, v) in theirs if NODE_RE.match(v))
    print("%d GOMP/OMP symbols of the system libgomp checked: %d missing, %d with the wrong "
          "default flag" % (n, missing, wrong_default))


def check_bindings(lib, prog_args):
    lib_real = os.path.realpath(lib)
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = os.path.dirname(lib_real)
    env["LD_DEBUG"] = "bindings"
    # Every binding at load time, on one thread: lazy bindings made later by
    # threads at once interleave their lines in the log.
    env["LD_BIND_NOW"] = "1"
    env.pop("LD_DEBUG_OUTPUT", None)
    env.pop("LD_PRELOAD", None)
    r = subprocess.run(prog_args, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        fail("%s exited with %d:\n%s" % (prog_args[0], r.returncode, r.stderr[-3000:]))
    pat = re.compile(r"binding file (.+?) \[\d+\] to (.+?) \[\d+\]: normal symbol "
                     r"`((?:GOMP|omp)_[A-Za-z0-9_]*)'(?: \[([^\]]+)\])?")
    seen = {}
    prog_real = os.path.realpath(prog_args[0])
    for line in r.stderr.splitlines():
        m = pat.search(line)
        if not m:
            continue
        src, dst, sym, ver = m.groups()
        where = os.path.realpath(dst) if os.path.exists(dst) else dst
        if where != lib_real:
            fail("%s (from %s) bound to %s, not to %s" % (sym, src, dst, lib_real))
        if os.path.exists(src) and os.path.realpath(src) == prog_real:
            seen[sym] = (where, ver)
    if "GOMP_parallel" not in seen:
        fail("no binding of the program's GOMP_parallel was reported")
    elif seen["GOMP_parallel"] != (lib_real, "GOMP_4.0"):
        fail("GOMP_parallel bound to %s [%s]" % seen["GOMP_parallel"])
    print("%d OpenMP symbols of %s bound, all to %s: %s" %
          (len(seen), prog_args[0], lib_real, " ".join(sorted(seen))))


def main(argv):
    if len(argv) >= 3 and argv[1] == "versions":
        args = argv[2:]
        if len(args) >= 3 and args[0] == "--added":
            check_added(args[2], args[1])
            # A system libgomp of GCC 13-16 has these nodes too.
            EXPECTED_PARENTS.update(read_added(args[1])[0])
            args = args[2:]
        check_versions(args[0], args[1] if len(args) > 1 else None)
    elif len(argv) >= 4 and argv[1] == "bindings":
        check_bindings(argv[2], argv[3:])
    else:
        sys.exit(__doc__)
    if failures:
        print("%d ABI check(s) failed" % len(failures))
        return 1
    print("ABI checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
