#!/usr/bin/env python3
"""Target constructs in the flight log: runs target_flight (tests/target)
with PVOMP_TRACE, reads the log back with pvomp-trace dump, and checks that
every construct and device memory operation it announced ("expect ...") is
there, in order, on its thread, with its kind, device and byte count; then
that each target task left one complete group of records on the thread that
ran it.  Fails if a target_begin/end/data record is missing, extra, or wrong.
Usage: target_flight.py TARGET_FLIGHT_EXE PVOMP_TRACE_EXE"""

import os
import re
import subprocess
import sys
import tempfile

DUMP_LINE = re.compile(r"^(\w+) -?\d+\.\d+ pid=(\d+)((?: \w+=\S+)*)$")


def fail(msg):
    print("target_flight: FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def target_kinds(reader):
    """The numbers of the target_kind names, from the catalog the reader has
    compiled in (`pvomp-trace events`: #enum target_kind { region = 0, ... })."""
    p = subprocess.run([reader, "events"], capture_output=True, text=True)
    m = re.search(r"^#enum target_kind \{([^}]*)\}", p.stdout, re.M)
    if p.returncode != 0 or not m:
        fail("pvomp-trace events lists no target_kind enumeration:\n" + p.stdout + p.stderr)
    return {k.strip(): int(v) for k, v in (item.split("=") for item in m.group(1).split(","))}


def records(reader, log):
    """The log's target_* records as (tid, (name, kind, device[, bytes])); the
    reader prints kinds by name (kind=region), given here as their numbers."""
    kinds = target_kinds(reader)
    p = subprocess.run([reader, "dump", log], capture_output=True, text=True)
    if p.returncode != 0:
        fail("pvomp-trace dump exited %d:\n%s" % (p.returncode, p.stderr))
    out = []
    for line in p.stdout.splitlines():
        m = DUMP_LINE.match(line)
        if not m:
            fail("unparsable dump line: %r" % line)
        name = m.group(1)
        if name == "dropped":
            fail("records were dropped: " + line)
        if not name.startswith("target_"):
            continue
        args = dict(kv.split("=", 1) for kv in m.group(3).split())
        if args["kind"] not in kinds:
            fail("kind %r is not a target_kind name: %r" % (args["kind"], line))
        rec = (name, kinds[args["kind"]], int(args["device"], 16))
        if name == "target_data":
            rec += (int(args["bytes"], 16),)
        out.append((int(m.group(2)), rec))
    return out


def main():
    exe, reader = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "target.pvtrace")
        env = {k: v for k, v in os.environ.items() if not k.startswith("PVOMP_TRACE")}
        env.update(PVOMP_TRACE=log, PVOMP_TRACE_EVENTS="target_*")
        p = subprocess.run([exe], env=env, capture_output=True, text=True)
        if p.returncode != 0:
            fail("target_flight exited %d:\n%s%s" % (p.returncode, p.stdout, p.stderr))
        recs = records(reader, log)

    expected = []
    tasks = None
    for line in p.stdout.splitlines():
        f = line.split()
        if f[0] == "expect":
            expected.append((f[1],) + tuple(int(x) for x in f[2:]))
        elif f[0] == "expect_tasks":
            tasks, task_bytes = int(f[1]), int(f[2])
    if not expected or tasks is None:
        fail("target_flight printed no expectations:\n" + p.stdout)
    if not recs:
        fail("no target_* record in the log (trace points missing?)")

    # The sequential part: exactly the expected records, in order, on the
    # thread that ran main (the first one to record anything).
    main_tid = recs[0][0]
    mine = [r for tid, r in recs if tid == main_tid]
    for i, want in enumerate(expected):
        got = mine[i] if i < len(mine) else None
        if got != want:
            fail("record %d on the main thread: got %r, wanted %r\n  around: %r"
                 % (i, got, want, mine[max(0, i - 3):i + 3]))

    # The target tasks: per thread, whole groups, TASKS of them in all.
    group = [("target_begin", 0, 0), ("target_data", 7, 0, task_bytes),
             ("target_data", 5, 0, task_bytes), ("target_data", 6, 0, task_bytes),
             ("target_data", 8, 0, task_bytes), ("target_end", 0, 0)]
    rest = {}
    for tid, r in recs:
        rest.setdefault(tid, []).append(r)
    rest[main_tid] = rest[main_tid][len(expected):]
    groups = 0
    for tid, seq in rest.items():
        if len(seq) % len(group) or any(seq[i] != group[i % len(group)] for i in range(len(seq))):
            fail("thread %d: target task records are not whole groups %r:\n  %r" % (tid, group, seq))
        groups += len(seq) // len(group)
    if groups != tasks:
        fail("%d target tasks in the log, wanted %d" % (groups, tasks))

    print("target_flight: %d records: %d constructs and memory operations in order, "
          "%d target tasks on %d thread(s)" % (len(recs), len(expected), tasks,
                                                sum(1 for s in rest.values() if s)))


if __name__ == "__main__":
    main()
