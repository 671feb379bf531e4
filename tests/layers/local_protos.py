#!/usr/bin/env python3
"""No .c file of the runtime declares a function that another file defines:
such a declaration belongs in the header of the file that defines it, where
the compiler checks it against the definition (a local copy can disagree with
it and nothing notices).  The compiler says where every declaration is:
`gcc -aux-info` writes one line per function declared or defined in a
translation unit, with its file and line.  A declaration (flag C) that stands
in the .c file itself, is not static, and names a function that another of
the library's objects defines (nm) is reported.

local_protos.py CC NM SOURCE_DIR ALLOWED MODULE=incdir|incdir...=src;src...=obj;obj... ...
ALLOWED: a file of "path function  # reason" lines, known and checked:
each must still be found (so the list only shrinks).
"""
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from links import symbols

AUX = re.compile(r"^/\* (\S+):(\d+):([NO])([CF]) \*/ (.*?)([A-Za-z_]\w*) \(")


def defined(nm, obj):
    """The functions and variables obj defines, without symbol versions."""
    return {s.split("@")[0] for s in symbols(nm, [obj], "-g", "--defined-only")}


def main():
    cc, nm, root, allowed_file = sys.argv[1:5]
    allowed = {}
    for line in open(allowed_file):
        line = line.split("#", 1)[0].strip()
        if line:
            path, fn = line.split()
            allowed[(path, fn)] = False
    units = []
    owner = {}
    for arg in sys.argv[5:]:
        _, incs, srcs, objs = arg.split("=", 3)
        objs = [o for o in objs.split(";") if o]
        by_base = {os.path.basename(o)[: -len(".o")]: o for o in objs}
        for o in objs:
            for sym in defined(nm, o):
                owner.setdefault(sym, set()).add(o)
        for s in filter(None, srcs.split(";")):
            if s.endswith(".c") and os.path.basename(s) in by_base:
                units.append((s, [i for i in incs.split("|") if i], by_base[os.path.basename(s)]))
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        def aux_of(i):
            src, incs, _ = units[i]
            aux = os.path.join(tmp, f"{i}.aux")
            subprocess.run([cc, "-fsyntax-only", "-std=gnu11", "-D_GNU_SOURCE", "-DPVOMP_BUILD",
                            *[f"-I{i}" for i in incs], "-aux-info", aux, src],
                           check=True, capture_output=True)
            return aux
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            auxes = list(pool.map(aux_of, range(len(units))))
        for (src, incs, obj), aux in zip(units, auxes):
            mine = defined(nm, obj)
            rel = os.path.relpath(src, root)
            for line in open(aux):
                m = AUX.match(line)
                if not m or m.group(4) != "C" or " static " in f" {m.group(5)}":
                    continue
                where = m.group(1)
                if os.path.realpath(where) != os.path.realpath(src):
                    continue
                fn = m.group(6)
                if fn in mine or not (owner.get(fn, set()) - {obj}):
                    continue
                if (rel, fn) in allowed:
                    allowed[(rel, fn)] = True
                    continue
                bad.append(f"{rel}:{m.group(2)}: declares {fn}, which "
                           f"{os.path.basename(sorted(owner[fn])[0])[:-2]} defines: include its header")
    for b in bad:
        print(b)
    gone = [f"{p} {f}" for (p, f), seen in allowed.items() if not seen]
    for g in gone:
        print(f"allowed but no longer found (take it off the list): {g}")
    print(f"local prototypes: {len(units)} files, {len(bad)} declarations of another file's "
          f"function, {sum(allowed.values())} known")
    return 1 if bad or gone else 0


if __name__ == "__main__":
    sys.exit(main())
