#!/usr/bin/env python3
"""Write synthetic logs in pvomp's format (or QEMU's flat one) for the
reader's tests: a known set of runtime events whose intervals, statistics
and imbalance are known in advance, independent of the runtime."""
import struct

HEADER_ID = 0xFFFFFFFFFFFFFFFF
MAGIC = 0xF2B177CB0AA429B4
DROPPED = 0xFFFFFFFFFFFFFFFE

META = [
    ("pvtrace_event", "uint64_t id, const char *name, const char *args, const char *fmt"),
    ("pvtrace_process", "uint64_t pid, const char *exe, const char *cmdline, const char *runtime"),
    ("pvtrace_clock", "const char *source, uint64_t ticks_per_sec, uint64_t monotonic_ns, uint64_t realtime_ns"),
    ("pvtrace_chunk", "uint64_t stream, uint64_t seq, uint64_t bytes"),
    ("pvtrace_cut", "uint64_t arg, uint64_t len"),
    ("pvtrace_end", "uint64_t streams, uint64_t chunks, uint64_t bytes, uint64_t monotonic_ns"),
]
RUNTIME = [
    ("parallel_begin", "void *team, void *fn, unsigned nthreads, unsigned level"),
    ("parallel_end", "void *team"),
    ("implicit_task_begin", "void *team, unsigned thread_num, unsigned nthreads"),
    ("implicit_task_end", "void *team, unsigned thread_num"),
    ("barrier_enter", "unsigned kind"),
    ("barrier_leave", "unsigned kind"),
    ("wait_begin", "void *word, unsigned policy"),
    ("wait_block", "unsigned policy, uint64_t spins, unsigned phantoms"),
    ("wait_wake", "unsigned policy, uint64_t spins, unsigned phantoms"),
    ("wait_end", "uint64_t spins, unsigned blocked"),
    ("critical_enter", "void *lock"),
    ("critical_acquired", "void *lock"),
    ("critical_release", "void *lock"),
    ("critical_held", "void *lock, uint64_t ns"),
    ("lock_acquired", "void *lock"),
    ("lock_release", "void *lock"),
    ("lock_held", "void *lock, uint64_t ns"),
    ("phantom_change", "unsigned phantoms, uint64_t avg_fp, uint64_t seq"),
    ("loop_chunk", "int64_t start, int64_t end"),
]
EVENTS = META + RUNTIME
# A log of a pvomp that names enumerated values declares this too (enum_log).
ENUM_META = ("pvtrace_enum", "uint64_t id, uint64_t arg, const char *name, const char *values")
ID = {name: i for i, (name, _) in enumerate(EVENTS + [ENUM_META])}
STRARGS = {name: [("char *" in a) for a in args.split(", ")] if args != "void" else []
           for name, args in EVENTS + [ENUM_META]}


def args_bytes(name, args):
    out = b""
    for is_str, a in zip(STRARGS[name], args):
        if is_str:
            b = a.encode() if isinstance(a, str) else a
            out += struct.pack("=I", len(b)) + b
        else:
            out += struct.pack("=Q", a & 0xFFFFFFFFFFFFFFFF)
    return out


def event(eid, ts, tid, payload):
    return struct.pack("=QQQII", 1, eid, ts, 24 + len(payload), tid) + payload


def ev(name, ts, tid, *args):
    return event(ID[name], ts, tid, args_bytes(name, args))


def preamble(pid=4242, events=EVENTS):
    out = struct.pack("=QQQ", HEADER_ID, MAGIC, 4)
    for i, (name, _) in enumerate(events):
        out += struct.pack("=QQI", 0, i, len(name)) + name.encode()
    out += ev("pvtrace_process", 1000, pid, pid, "/synthetic/app", "app --test", "mklog")
    out += ev("pvtrace_clock", 1000, pid, "monotonic", 0, 1000, 1700000000000000000)
    for i, (name, args) in enumerate(events):
        out += ev("pvtrace_event", 1000, pid, i, name, args, '""')
    return out


BARRIER_KIND = "explicit=0,workshare=1,join=2,cancel=3,other=4"


def enum_log(path):
    """A log that names its enumerated values (pvtrace_enum): barrier_enter's
    kind is a barrier_kind, barrier_leave's declaration is corrupt ("join"
    has no number), wait_begin's policy has none.  One thread: barrier_enter
    with kinds 2 (join) and 9 (not a barrier_kind), barrier_leave 2, then a
    wait_begin (policy 3) and a loop_chunk that must still be read.  The log
    also declares phantom_change otherwise than the catalog (one argument),
    as another version might, and records one."""
    out = preamble(events=EVENTS + [ENUM_META])
    out += ev("pvtrace_event", 1000, 4242, ID["phantom_change"], "phantom_change",
              "unsigned phantoms", '""')
    out += ev("pvtrace_enum", 1000, 4242, ID["barrier_enter"], 0, "barrier_kind", BARRIER_KIND)
    out += ev("pvtrace_enum", 1000, 4242, ID["barrier_leave"], 0, "barrier_kind",
              "explicit=0,join")
    a = Stream(1, 101)
    out += a.chunk([ev("barrier_enter", T0, 101, 2),
                    ev("barrier_enter", T0 + 1000, 101, 9),
                    ev("barrier_leave", T0 + 2000, 101, 2),
                    ev("wait_begin", T0 + 3000, 101, 0x9000, 3),
                    ev("loop_chunk", T0 + 4000, 101, 0, 10),
                    event(ID["phantom_change"], T0 + 5000, 101, struct.pack("=Q", 1))])
    out += ev("pvtrace_end", T0 + 6000, 4242, 1, 1, len(out), 0)
    with open(path, "wb") as f:
        f.write(out)


class Stream:
    def __init__(self, sid, tid):
        self.sid, self.tid, self.seq = sid, tid, 0

    def chunk(self, records):
        data = b"".join(records)
        ts = struct.unpack_from("=Q", data, 16)[0]
        head = ev("pvtrace_chunk", ts, self.tid, self.sid, self.seq, len(data))
        self.seq += 1
        return head + data


MS = 1000000
T0 = 10 * MS
TEAM, FN = 0x7000, 0x401136


def runtime_log(path, complete=True):
    """Two threads, one parallel region of 100 ms.  Thread 101 (primary):
    implicit task 0-80 ms with an explicit barrier 20-60 (spinning 20-30,
    blocked 30-60), so 40 ms of work; join barrier 80-100.  Thread 102:
    implicit task 0-90 ms, a barrier it passes at once (60 ms), a critical
    section 10-15 ms, so 90 ms of work; join barrier 90-100; 7 events dropped.
    Imbalance = 90 / 65 - 1 = 38.5 %.  A phantom episode lasts 30-50 ms.
    Sections in one record each (_held: ns before the record's time): thread
    102 waits for a critical section 20-22 ms and holds it 22-25 (8 ms of
    critical sections in all, 2 waiting); thread 101 holds a lock 66-70 ms,
    then another 72-76 with a nested level 73-74 (8 ms of locks)."""
    a, b = Stream(1, 101), Stream(2, 102)
    t = T0
    ra = [ev("parallel_begin", t, 101, TEAM, FN, 2, 1),
          ev("implicit_task_begin", t, 101, TEAM, 0, 2),
          ev("barrier_enter", t + 20 * MS, 101, 0),
          ev("wait_begin", t + 20 * MS, 101, 0x9000, 3),
          ev("wait_block", t + 30 * MS, 101, 3, 1000, 1),
          ev("phantom_change", t + 30 * MS, 101, 1, 65536, 1),
          ev("phantom_change", t + 50 * MS, 101, 0, 0, 2),
          ev("wait_wake", t + 60 * MS, 101, 3, 1000, 0),
          ev("wait_end", t + 60 * MS, 101, 1000, 1),
          ev("barrier_leave", t + 60 * MS, 101, 0)]
    ra2 = [ev("loop_chunk", t + 70 * MS, 101, 0, 10),
           ev("lock_held", t + 70 * MS, 101, 0x6000, 4 * MS),
           ev("lock_acquired", t + 72 * MS, 101, 0x6008),
           ev("lock_held", t + 74 * MS, 101, 0x6008, 1 * MS),
           ev("lock_release", t + 76 * MS, 101, 0x6008),
           ev("implicit_task_end", t + 80 * MS, 101, TEAM, 0),
           ev("barrier_enter", t + 80 * MS, 101, 2),
           ev("barrier_leave", t + 100 * MS, 101, 2),
           ev("parallel_end", t + 100 * MS, 101, TEAM)]
    rb = [ev("implicit_task_begin", t + 1, 102, TEAM, 1, 2),
          ev("critical_enter", t + 10 * MS, 102, 0x5000),
          ev("critical_acquired", t + 10 * MS, 102, 0x5000),
          ev("critical_release", t + 15 * MS, 102, 0x5000),
          ev("critical_enter", t + 20 * MS, 102, 0x5000),
          ev("critical_held", t + 25 * MS, 102, 0x5000, 3 * MS),
          ev("barrier_enter", t + 60 * MS, 102, 0),
          ev("wait_begin", t + 60 * MS, 102, 0x9000, 3),
          ev("wait_end", t + 60 * MS + 1, 102, 50, 0),
          ev("barrier_leave", t + 60 * MS + 1, 102, 0),
          ev("implicit_task_end", t + 90 * MS, 102, TEAM, 1),
          ev("barrier_enter", t + 90 * MS, 102, 2),
          ev("barrier_leave", t + 100 * MS, 102, 2)]
    out = preamble()
    # Chunks interleaved as a writer would: b's first chunk is written after
    # a's second although it starts earlier.
    out += a.chunk(ra)
    out += b.chunk(rb[:6])
    out += a.chunk(ra2)
    out += b.chunk(rb[6:])
    out += b.chunk([event(DROPPED, t + 100 * MS, 102, struct.pack("=Q", 7))])
    if complete:
        out += ev("pvtrace_end", t + 101 * MS, 4242, 2, 5, len(out), 0)
    with open(path, "wb") as f:
        f.write(out)
    return out


TASK_EVENTS = [("task_create", "void *task, void *fn, unsigned flags, void *codeptr_ra"),
               ("task_begin", "void *task"), ("task_end", "void *task")]
FN_A, RA_A, FN_B, RA_B = 0x401200, 0x401180, 0x401300, 0x401190


def tasks_log(path):
    """Tasks of two sites (A: FN_A created at RA_A, B: FN_B at RA_B) and one
    created before the log.  Thread 101 creates tasks 1 and 2 (A) and 3
    (B) at 0-2 ms, runs 1 5-15 ms, then creates a task at 1's address again,
    of site B (the runtime reuses task memory), and at 40-42 ms runs task 9,
    whose task_create is not in the log.  Thread 102 runs 2 6-26 ms, and
    inside it 3 8-9 ms, then the second 1 30-34 ms.  A: 2 runs on 2 threads,
    30 ms, longest 20; B: 2 runs on 1 thread, 5 ms, longest 4; before the
    log: 1 run, 2 ms."""
    events = EVENTS + TASK_EVENTS
    ids = {name: i for i, (name, _) in enumerate(events)}
    for name, args in TASK_EVENTS:
        STRARGS[name] = [False] * len(args.split(", "))

    def tev(name, ts, tid, *args):
        return event(ids[name], ts, tid, args_bytes(name, args))
    t = T0
    a, b = Stream(1, 101), Stream(2, 102)
    out = preamble(events=events)
    out += a.chunk([tev("task_create", t, 101, 0x8001, FN_A, 0, RA_A),
                    tev("task_create", t + 1 * MS, 101, 0x8002, FN_A, 0, RA_A),
                    tev("task_create", t + 2 * MS, 101, 0x8003, FN_B, 0, RA_B),
                    tev("task_begin", t + 5 * MS, 101, 0x8001),
                    tev("task_end", t + 15 * MS, 101, 0x8001),
                    tev("task_create", t + 16 * MS, 101, 0x8001, FN_B, 0, RA_B),
                    tev("task_begin", t + 40 * MS, 101, 0x8009),
                    tev("task_end", t + 42 * MS, 101, 0x8009)])
    out += b.chunk([tev("task_begin", t + 6 * MS, 102, 0x8002),
                    tev("task_begin", t + 8 * MS, 102, 0x8003),
                    tev("task_end", t + 9 * MS, 102, 0x8003),
                    tev("task_end", t + 26 * MS, 102, 0x8002),
                    tev("task_begin", t + 30 * MS, 102, 0x8001),
                    tev("task_end", t + 34 * MS, 102, 0x8001)])
    out += ev("pvtrace_end", t + 50 * MS, 4242, 2, 2, len(out), 0)
    with open(path, "wb") as f:
        f.write(out)


def qemu_flat_log(path):
    """A QEMU-style log: header, mappings, events at the top level, no
    declarations (the reader needs --events)."""
    names = [("qemu_a", "int x"), ("qemu_b", "const char *s, uint64_t v")]
    out = struct.pack("=QQQ", HEADER_ID, MAGIC, 4)
    for i, (n, _) in enumerate(names):
        out += struct.pack("=QQI", 0, i, len(n)) + n.encode()
    out += event(0, 100, 7, struct.pack("=Q", 5))
    out += event(1, 200, 7, struct.pack("=I", 2) + b"hi" + struct.pack("=Q", 9))
    out += event(DROPPED, 300, 7, struct.pack("=Q", 3))
    with open(path, "wb") as f:
        f.write(out)
    with open(path + ".events", "w") as f:
        for n, a in names:
            f.write('%s(%s) "x"\n' % (n, a))


if __name__ == "__main__":
    import sys
    runtime_log(sys.argv[1])
