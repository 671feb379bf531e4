#!/usr/bin/env python3
"""The layers hold at link time too: every function or variable a module's
objects use from another module is defined in a module it may call (the
modules below it), or, of a module whose headers it sees through VIEWS, is
named in one of those headers (src/ompt may use of the runtime only what
runtime/ompt_view.h and runtime/barrier_kind.h declare).  A bare
declaration of a function above, or of a runtime function outside the view,
gets past the include directories; this catches it.

links.py NM MODULE=callee,callee...=obj;obj...[=viewheader;viewheader...] ...
"""
import os
import re
import subprocess
import sys


def symbols(nm, objs, *flags):
    out = subprocess.run([nm, *flags, *objs], check=True, capture_output=True, text=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip() and not line.endswith(":")}


def main():
    nm = sys.argv[1]
    modules = {}
    views = {}  # module -> {viewed module: identifiers its view headers name}
    for arg in sys.argv[2:]:
        name, calls, objs, *rest = arg.split("=", 3)
        modules[name] = (set(filter(None, calls.split(","))), [o for o in objs.split(";") if o])
        for h in filter(None, (rest[0] if rest else "").split(";")):
            seen = os.path.basename(os.path.dirname(h))
            with open(h) as f:
                # The names a header mentions (declarations, and the odd
                # word of a comment: a header written for the module says
                # nothing else).
                views.setdefault(name, {}).setdefault(seen, set()).update(
                    re.findall(r"[A-Za-z_]\w*", f.read()))
    # Who defines each symbol.  A weak definition (gen/abi_stubs.c's "not
    # supported" stub of every ABI entry point, in src/runtime) owns a symbol
    # only where no module defines it for real: else every GOMP_*, __kmpc_*
    # and omp_* call would look like a call into the runtime.
    owner, weak = {}, {}
    for name, (_, objs) in modules.items():
        out = subprocess.run([nm, "-g", "--defined-only", *objs], check=True,
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            f = line.split()
            if len(f) < 2 or line.endswith(":"):
                continue
            (weak if f[-2] in "WV" else owner).setdefault(f[-1], name)
    for sym, name in weak.items():
        owner.setdefault(sym, name)
    bad = []
    for name, (calls, objs) in modules.items():
        for obj in objs:
            for sym in sorted(symbols(nm, [obj], "-u")):
                m = owner.get(sym)
                if not m or m == name or m in calls:
                    continue
                viewed = views.get(name, {})
                if m in viewed:
                    if sym not in viewed[m]:
                        bad.append(f"{name}: {obj.rsplit('/', 1)[-1]} uses {sym} of {m}, which its "
                                   f"view of {m} does not declare")
                    continue
                bad.append(f"{name}: {obj.rsplit('/', 1)[-1]} uses {sym} of {m}, "
                           f"expected only modules it may call ({', '.join(sorted(calls)) or 'none'})")
    for b in bad:
        print(b)
    print(f"links: {len(modules)} modules, {len(bad)} uses of a module above")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
