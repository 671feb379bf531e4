#!/usr/bin/env python3
"""Files call in one direction: within a set of objects, the graph "file A
uses a symbol that file B defines" (nm) has no cycle, apart from the ones
named as known.

file_cycles.py NM NAME [--known a,b,c]... obj...
A known cycle is given by its files' names (object names less .c.o); the test
fails on any other strongly connected component, and on a known one that is
gone (so the list only shrinks).
"""
import argparse
import collections
import os
import sys

from links import symbols


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("nm")
    ap.add_argument("name")
    ap.add_argument("--known", action="append", default=[])
    ap.add_argument("objs", nargs="+")
    a = ap.parse_args()
    owner, uses = {}, collections.defaultdict(set)
    objs = [o for arg in a.objs for o in arg.split(";") if o]
    for o in objs:
        f = os.path.basename(o).removesuffix(".o").removesuffix(".c")
        for sym in symbols(a.nm, [o], "-g", "--defined-only"):
            owner.setdefault(sym, f)
        uses[f] |= symbols(a.nm, [o], "-u")
    edges = {f: {owner[s] for s in syms if s in owner and owner[s] != f} for f, syms in uses.items()}
    # Tarjan's strongly connected components.
    index, low, stack, on, comps = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(comp)

    sys.setrecursionlimit(10000)
    for v in sorted(set(owner.values()) | set(uses)):
        if v not in index:
            visit(v)
    known = [set(k.split(",")) for k in a.known]
    bad = [c for c in comps if c not in known]
    gone = [k for k in known if k not in comps]
    for c in bad:
        print(f"{a.name}: files that call each other: {', '.join(sorted(c))}")
    for k in gone:
        print(f"{a.name}: the known cycle {', '.join(sorted(k))} is gone: take it off the list")
    print(f"{a.name}: {len(set(owner.values()) | set(uses))} files, {len(comps)} cycles, "
          f"{len(comps) - len(bad)} known")
    return 1 if bad or gone else 0


if __name__ == "__main__":
    sys.exit(main())
