#!/usr/bin/env python3
"""The layers hold at link time too: every function or variable a module's
objects use from another module is defined in a module it may call (the
modules below it, and those whose headers it sees through VIEWS).  A bare
declaration of a function above gets past the include directories; this
catches it.

links.py NM MODULE=callee,callee...=obj;obj... ...
"""
import subprocess
import sys


def symbols(nm, objs, *flags):
    out = subprocess.run([nm, *flags, *objs], check=True, capture_output=True, text=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip() and not line.endswith(":")}


def main():
    nm = sys.argv[1]
    modules = {}
    for arg in sys.argv[2:]:
        name, calls, objs = arg.split("=", 2)
        modules[name] = (set(filter(None, calls.split(","))), [o for o in objs.split(";") if o])
    owner = {}
    for name, (_, objs) in modules.items():
        for sym in symbols(nm, objs, "-g", "--defined-only"):
            owner.setdefault(sym, name)
    bad = []
    for name, (calls, objs) in modules.items():
        for obj in objs:
            for sym in sorted(symbols(nm, [obj], "-u")):
                m = owner.get(sym)
                if m and m != name and m not in calls:
                    bad.append(f"{name}: {obj.rsplit('/', 1)[-1]} uses {sym} of {m}, "
                               f"expected only modules it may call ({', '.join(sorted(calls)) or 'none'})")
    for b in bad:
        print(b)
    print(f"links: {len(modules)} modules, {len(bad)} uses of a module above")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
