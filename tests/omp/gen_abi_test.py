#!/usr/bin/env python3
"""gen_abi.py --added: the GCC 13+ list's nodes become version nodes with the
list's parents, and a list whose parent disagrees with the node chain is
refused (one message, exit status not 0).

  gen_abi_test.py GEN_ABI ABI_DIR"""
import os
import re
import subprocess
import sys
import tempfile


def run(gen, abi_dir, added, out):
    files = [os.path.join(abi_dir, f) for f in ("libgomp12.abi", "pvomp.abi", "kmpc.abi")]
    outs = [os.path.join(out, f) for f in ("m", "s.c", "l.c", "l.map")]
    r = subprocess.run([sys.executable, gen, "--added", added] + files + outs,
                       capture_output=True, text=True)
    return r, outs[0]


def main(gen, abi_dir):
    failures = []
    real = os.path.join(abi_dir, "libgomp16_added.txt")
    with tempfile.TemporaryDirectory() as tmp:
        r, vmap = run(gen, abi_dir, real, tmp)
        if r.returncode != 0:
            failures.append("the real list was refused: " + r.stderr.strip())
        else:
            text = open(vmap).read()
            parents = dict(re.findall(r"\n(\S+) \{[^}]*\}(?: (\S+))?;", text))
            want = {}
            for line in open(real):
                f = line.split("#", 1)[0].split()
                if len(f) == 3:
                    want[f[0]] = f[1]
            for node, parent in sorted(want.items()):
                if parents.get(node) != parent:
                    failures.append("%s: parent %s in the map, %s in the list" %
                                    (node, parents.get(node), parent))
            print("%d GCC 13+ nodes in the version script, with the list's parents" %
                  sum(parents.get(n) == p for n, p in want.items()))
        bad = os.path.join(tmp, "bad.txt")
        with open(bad, "w") as f:
            f.write("OMP_5.2 OMP_5.1 omp_in_explicit_task\n")   # the chain says OMP_5.1.1
            f.write("OMP_5.1.1 OMP_5.1 omp_get_mapped_ptr\n")
        r, _ = run(gen, abi_dir, bad, tmp)
        if r.returncode == 0 or "OMP_5.2" not in r.stderr:
            failures.append("a list with a wrong parent was accepted (%d: %s)" %
                            (r.returncode, r.stderr.strip()))
        else:
            print("a wrong parent is refused: " + r.stderr.strip())
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
