#!/usr/bin/env python3
"""Tests of pvomp's flight log: writer (through tp_events, a program with
its own events running on pvomp), reader (pvomp-trace), and compatibility
with QEMU's simpletrace.py.  One test per sub-command:

    trace_test.py TEST --bin BUILD/bin --build TESTBUILDDIR --src SOURCEDIR

Every test asserts; the central one everywhere: delivered + dropped ==
generated, and in each thread's stream the sequence numbers continue exactly
where the dropped-events records say they should."""
import argparse
import json
import os
import random
import re
import shutil
import signal
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import browser  # noqa: E402
import mklog  # noqa: E402
import testrun  # noqa: E402
from testrun import parse_dump  # noqa: E402

A = None      # parsed arguments
TMP = None    # scratch directory


def fail(msg):
    raise AssertionError(msg)


def check(cond, msg):
    if not cond:
        fail(msg)


def reader():
    return os.path.join(A.bin, "pvomp-trace")


def emitter():
    return os.path.join(A.build, "tp_events")


def trace_env(log, **extra):
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("PVOMP_TRACE"):
            del env[k]
    env["PVOMP_TRACE"] = log
    env.update({k: str(v) for k, v in extra.items()})
    return env


def emit(log, *args, expect_rc=0, **env):
    p = subprocess.run([emitter()] + [str(a) for a in args], env=trace_env(log, **env),
                       capture_output=True, text=True)
    check(p.returncode == expect_rc, "tp_events %s: exit %d, stderr:\n%s" % (args, p.returncode, p.stderr))
    gen = {}
    for line in p.stdout.splitlines():
        m = re.match(r"generated (\w+) (\d+)$", line)
        if m:
            gen[m.group(1)] = int(m.group(2))
    return gen, p


def run_reader(*args, ok=(0,)):
    p = subprocess.run([reader()] + [str(a) for a in args], capture_output=True)
    check(p.returncode >= 0, "pvomp-trace %s died of signal %d" % (args, -p.returncode))
    check(p.returncode in ok, "pvomp-trace %s: exit %d (wanted %s), stderr:\n%s"
          % (args, p.returncode, ok, p.stderr.decode(errors="replace")))
    return p


def dump(log, *opts, ok=(0,)):
    p = run_reader("dump", *opts, log, ok=ok)
    return parse_dump(p.stdout.decode()), p


def check_accounting(recs, gen, names):
    """delivered + dropped == generated, and per thread the tp_seq numbers
    continue exactly where the dropped records say."""
    delivered = sum(1 for r in recs if r[0] in names)
    dropped = sum(r[3]["count"] for r in recs if r[0] == "dropped")
    generated = sum(gen.get(n, 0) for n in names)
    check(delivered + dropped == generated,
          "delivered %d + dropped %d != generated %d" % (delivered, dropped, generated))
    return delivered, dropped


def basic_position(name, seq):
    """Index of an event among those a 'basic' thread generates: tp_seq i,
    followed by tp_str i when i is a multiple of 1000."""
    if name == "tp_seq":
        return seq + (seq + 999) // 1000
    return seq + seq // 1000 + 1


def check_sequences(recs, position=lambda name, seq: seq):
    """Per thread: the events' positions in what the thread generated go
    0, 1, 2, ... with a dropped record accounting for every gap (the
    dropped record precedes the next delivered event)."""
    expect = {}
    pending = {}
    for name, _, tid, args in recs:
        if name == "dropped":
            pending[tid] = pending.get(tid, 0) + args["count"]
        elif name in ("tp_seq", "tp_str"):
            key = (tid, args["thread"])
            want = expect.get(key, 0) + pending.pop(tid, 0)
            got = position(name, args["seq"])
            check(got == want, "thread %d: %s %d is event %d of the thread where %d was due"
                  % (tid, name, args["seq"], got, want))
            expect[key] = want + 1
    return expect


def check_time_order(log):
    recs, _ = dump(log, "--abs")
    last = -1.0
    for r in recs:
        check(r[1] >= last, "time goes back at %r" % (r,))
        last = r[1]
    return recs


# ------------------------------------------------------------------ tests
def test_basic():
    log = os.path.join(TMP, "basic.log")
    gen, _ = emit(log, "basic", 2, 200000)
    check(gen["tp_seq"] == 400000, "emitter generated %r" % gen)
    recs = check_time_order(log)
    delivered, dropped = check_accounting(recs, gen, ("tp_seq", "tp_str"))
    check_sequences(recs, basic_position)
    strs = [r[3]["s"] for r in recs if r[0] == "tp_str"]
    check('"hello \\"world\\""' in strs, "short string missing")
    check('""' in strs, "NULL string (recorded empty) missing")
    cut = [s for s in strs if "cut from" in s]
    check(cut and all(s == '"' + "x" * 512 + '"[cut from 1999 bytes]' for s in cut),
          "over-long strings are not cut at 512 and marked: %r" % cut[:1])
    st = run_reader("stats", log).stdout.decode()
    m = re.search(r"records: +(\d+) in (\d+) thread\(s\); dropped: (\d+)", st)
    check(m and int(m.group(3)) == dropped, "stats disagrees on drops:\n" + st)
    print("basic: %d delivered, %d dropped" % (delivered, dropped))


def test_drops():
    log = os.path.join(TMP, "drops.log")
    gen, _ = emit(log, "drops", 2, 100000, PVOMP_TRACE_BUFSIZE="4K", PVOMP_TRACE_PERIOD_MS=0)
    recs, _ = dump(log)
    delivered, dropped = check_accounting(recs, gen, ("tp_seq",))
    check(dropped > 0, "a 4 KiB buffer dropped nothing (%d delivered)" % delivered)
    check_sequences(recs)
    print("drops: %d delivered, %d dropped" % (delivered, dropped))


def test_cap():
    """PVOMP_TRACE_MAX: the file stops at the cap, every event past it is
    counted as dropped, the log stays complete; bad values: one warning, no
    cap."""
    cap = 1 << 20
    log = os.path.join(TMP, "cap.log")
    gen, _ = emit(log, "basic", 2, 200000, PVOMP_TRACE_MAX="1M", PVOMP_TRACE_EVENTS="tp_*")
    size = os.path.getsize(log)
    # Past the cap: one dropped record per thread (and the initial one) and the end record.
    check(cap - 4096 < size <= cap + 4 * 56 + 64, "capped log is %d bytes (cap %d)" % (size, cap))
    recs, _ = dump(log)  # exit 0: complete
    delivered, dropped = check_accounting(recs, gen, ("tp_seq", "tp_str"))
    check(dropped > 0 and delivered > 1000, "delivered %d dropped %d" % (delivered, dropped))
    check_sequences(recs, basic_position)
    for bad in ("12x", "100", "-1M", "1T"):
        log = os.path.join(TMP, "nocap.log")
        gen, p = emit(log, "basic", 2, 20000, PVOMP_TRACE_MAX=bad, PVOMP_TRACE_EVENTS="tp_*")
        warns = [l for l in p.stderr.splitlines() if "PVOMP_TRACE_MAX" in l]
        check(len(warns) == 1 and "no cap" in warns[0], "PVOMP_TRACE_MAX=%s: %r" % (bad, warns))
        recs, _ = dump(log)
        delivered, dropped = check_accounting(recs, gen, ("tp_seq", "tp_str"))
        check(dropped == 0, "PVOMP_TRACE_MAX=%s capped the log (%d dropped)" % (bad, dropped))
    print("cap: %d bytes, %d delivered, %d dropped" % (size, delivered, dropped))


def test_pattern():
    """%p, %r (OMPI_COMM_WORLD_RANK, else PMI_RANK, else 0) and %% in PVOMP_TRACE."""
    cases = [({"OMPI_COMM_WORLD_RANK": "3", "PMI_RANK": "7"}, "3"), ({"PMI_RANK": "7"}, "7"),
             ({}, "0")]
    for env, rank in cases:
        d = os.path.join(TMP, "pat%s" % rank)
        os.mkdir(d)
        clean = {k: "" for k in ("OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK")}
        clean.update(env)
        _, p = emit(os.path.join(d, "r%r-%p-%%.log"), "basic", 1, 10, **clean)
        files = os.listdir(d)
        check(len(files) == 1 and re.fullmatch(r"r%s-\d+-%%\.log" % rank, files[0]),
              "rank %s: files %s" % (rank, files))
        pid = int(files[0].split("-")[1])
        st = run_reader("stats", os.path.join(d, files[0])).stdout.decode()
        check("pid %d " % pid in st, "%%p is not the traced pid %d:\n%s" % (pid, st))


def test_kill9():
    log = os.path.join(TMP, "kill.log")
    # 4 MiB rings: the 5000 unflushed events stay under the first hand-over
    # threshold (1 MiB), and no periodic drain: exactly the flushed ones arrive.
    gen, p = emit(log, "kill", 10000, 5000, expect_rc=-signal.SIGKILL,
                  PVOMP_TRACE_BUFSIZE="4M", PVOMP_TRACE_PERIOD_MS=0)
    recs, p = dump(log, ok=(2,))
    err = p.stderr.decode()
    size = os.path.getsize(log)
    check("no end record" in err and ("byte %d" % size) in err,
          "the reader does not say where the killed log ends:\n" + err)
    seq = [r[3]["seq"] for r in recs if r[0] == "tp_seq"]
    check(seq == list(range(10000)), "want exactly the 10000 flushed events, got %d" % len(seq))
    run_reader("stats", log, ok=(2,))
    print("kill9: %d events up to the last hand-over; reader: %s" % (len(seq), err.strip()))


def test_kill_busy():
    log = os.path.join(TMP, "busy.log")
    proc = subprocess.Popen([emitter(), "busy", "2"], env=trace_env(log, PVOMP_TRACE_PERIOD_MS=2),
                            stdout=subprocess.PIPE, text=True)
    check(proc.stdout.readline().strip() == "started", "busy emitter did not start")
    time.sleep(0.3)
    proc.kill()
    proc.wait()
    recs, p = dump(log, ok=(2,))
    check(len(recs) > 0, "nothing in the log of a process killed while tracing")
    check_sequences(recs)
    print("kill_busy: %d records; reader: %s" % (len(recs), p.stderr.decode().strip().splitlines()[-1]))


def direct_fds(pid, log):
    """(descriptors of process pid open on log, how many of them O_DIRECT)."""
    n = direct = 0
    for fd in os.listdir("/proc/%d/fd" % pid):
        try:
            if os.path.realpath("/proc/%d/fd/%s" % (pid, fd)) != os.path.realpath(log):
                continue
            with open("/proc/%d/fdinfo/%s" % (pid, fd)) as f:
                flags = int(re.search(r"flags:\s+([0-7]+)", f.read()).group(1), 8)
        except (FileNotFoundError, AttributeError):
            continue
        n += 1
        direct += bool(flags & os.O_DIRECT)
    return n, direct


def killed_busy(log, **env):
    """Runs the busy emitter, reads its descriptors for log after 0.3 s,
    kills it; checks the killed log and returns the descriptor counts."""
    proc = subprocess.Popen([emitter(), "busy", "2"], env=trace_env(log, PVOMP_TRACE_PERIOD_MS=2, **env),
                            stdout=subprocess.PIPE, text=True)
    check(proc.stdout.readline().strip() == "started", "busy emitter did not start")
    time.sleep(0.3)
    fds = direct_fds(proc.pid, log)
    proc.kill()
    proc.wait()
    recs, p = dump(log, ok=(2,))
    err = p.stderr.decode()
    check(len(recs) > 0, "nothing in the log of a process killed while tracing")
    check_sequences(recs)
    # The file ends with the last whole record written: no padding of a
    # direct write's last block, no hole before a buffered tail.
    check("no end record" in err and ("byte %d" % os.path.getsize(log)) in err,
          "the reader does not end the killed log at its last byte:\n" + err)
    return fds, len(recs)


def test_direct():
    log = os.path.join(TMP, "direct.log")
    # The default on a regular file: a second, O_DIRECT descriptor.
    (n, direct), nrec = killed_busy(log)
    check(n == 2 and direct == 1, "want the log open twice, once O_DIRECT; got %d, %d direct" % (n, direct))
    (n0, direct0), nrec0 = killed_busy(log, PVOMP_TRACE_DIRECT=0)
    check(n0 == 1 and direct0 == 0, "PVOMP_TRACE_DIRECT=0: want one buffered descriptor; got %d, %d direct"
          % (n0, direct0))
    # A whole run, many staging buffers (2 MiB each) of records.  The two
    # producers outrun the writer, which drops what does not fit (about 2 of
    # 3 records even on an idle machine, more on a busy one): up to three
    # runs, each twice as long, until the log holds more than 4 buffers.
    for rounds in (300000, 600000, 1200000):
        gen, _ = emit(log, "basic", 2, rounds, PVOMP_TRACE_BUFSIZE="16M")
        size = os.path.getsize(log)
        if size > 8 << 20:
            break
    check(size > 8 << 20, "only %d bytes after %d rounds: fewer than 4 staging buffers"
          % (size, rounds))
    recs = check_time_order(log)
    delivered, dropped = check_accounting(recs, gen, ("tp_seq", "tp_str"))
    check_sequences(recs, basic_position)
    _, p = emit(log, "basic", 1, 10, PVOMP_TRACE_DIRECT="yes")
    check("PVOMP_TRACE_DIRECT=yes: not 0 or 1" in p.stderr, "no warning for a bad value:\n" + p.stderr)
    # A file system that refuses direct writes: the log goes on buffered.
    shim = os.path.join(A.build, "libnodirect_shim.so")
    gen2, p = emit(log, "basic", 2, 100000, LD_PRELOAD=shim)
    check("refused a direct write" in p.stderr, "the shim was not used:\n" + p.stderr)
    recs2 = check_time_order(log)
    delivered2, dropped2 = check_accounting(recs2, gen2, ("tp_seq", "tp_str"))
    check_sequences(recs2, basic_position)
    print("direct: killed logs of %d (direct) and %d (buffered) records end at their last byte; "
          "%d MB log: %d delivered, %d dropped; direct writes refused: %d delivered, %d dropped"
          % (nrec, nrec0, size >> 20, delivered, dropped, delivered2, dropped2))


def test_order():
    log = os.path.join(TMP, "order.log")
    rounds = 20000
    emit(log, "order", rounds, PVOMP_TRACE_PERIOD_MS=1)
    recs = check_time_order(log)
    seq = [(r[0], r[3]["round"]) for r in recs if r[0] in ("tp_ping", "tp_pong")]
    want = [(n, i) for i in range(rounds) for n in ("tp_ping", "tp_pong")]
    if seq != want:
        bad = next(i for i, (x, y) in enumerate(zip(seq, want)) if x != y)
        fail("ping-pong out of order at %d: %r, wanted %r" % (bad, seq[bad:bad + 4], want[bad:bad + 4]))
    tids = {r[2] for r in recs if r[0] in ("tp_ping", "tp_pong")}
    check(len(tids) == 2, "ping and pong should come from two threads")
    print("order: %d ping-pongs in order across 2 threads" % rounds)


def test_exitrace():
    """Threads record events as fast as they can while main calls exit():
    every record that pvomp_trace_begin accepted is in the log, and every
    refusal while the log was open is in its dropped counts.  The program
    counts a record after its commit and may classify one refusal as the
    log closing: each count may trail the log by one per thread."""
    threads = 3
    for rnd in range(5):
        log = os.path.join(TMP, "exitrace%d.log" % rnd)
        counts = os.path.join(TMP, "exitrace%d.counts" % rnd)
        emit(log, "exitrace", threads, 20 + 10 * rnd, counts, PVOMP_TRACE_BUFSIZE="64K")
        with open(counts, "rb") as f:
            c = struct.unpack("<%dQ" % (2 * threads), f.read())
        begun, refused = sum(c[0::2]), sum(c[1::2])
        recs, _ = dump(log)
        delivered = sum(1 for r in recs if r[0] == "tp_seq")
        dropped = sum(r[3]["count"] for r in recs if r[0] == "dropped")
        check(begun <= delivered <= begun + threads,
              "round %d: %d records in the log, %d begun by the program" % (rnd, delivered, begun))
        check(refused <= dropped <= refused + threads,
              "round %d: %d counted as dropped in the log, %d refused by the program"
              % (rnd, dropped, refused))
    print("exitrace: every record begun or refused before the log closed is accounted for "
          "(5 rounds)")


def test_heldexit():
    """The log closes while other threads hold a lock and a critical section
    (tests/trace/tp_heldexit.c): their acquisitions, only remembered in
    their rings until the release, are in the log as KIND_acquired, at the
    holder's thread and at the end of its records; so is the exiting
    thread's own.  Not when KIND_acquired is deselected."""
    prog = os.path.join(A.build, "tp_heldexit")
    for events in ("*", "*,!*_held", "*,!lock_acquired,!critical_acquired"):
        for arg in ([], ["hold-and-exit"]):
            log = os.path.join(TMP, "heldexit.log")
            env = trace_env(log, PVOMP_TRACE_EVENTS=events)
            p = subprocess.run([prog] + arg, env=env, capture_output=True, text=True, timeout=60)
            check(p.returncode == 0, "tp_heldexit %s failed:\n%s" % (arg, p.stderr))
            holders = [l.split()[1:] for l in p.stdout.splitlines() if l.startswith("holder ")]
            check(len(holders) == 2 + len(arg), "holders: %r" % p.stdout)
            recs, _ = dump(log)
            for kind, tid, addr in holders:
                group = "critical" if kind == "critical" else "lock"
                mine = [r for r in recs if int(r[2]) == int(tid) and r[0].startswith(group + "_")]
                last = mine[-1] if mine else None
                want = group + "_acquired" not in events
                if not want:
                    check(not any(r[0] == group + "_acquired" for r in mine),
                          "%s (%s): %s_acquired deselected but in the log" % (kind, events, group))
                    continue
                check(last is not None and last[0] == group + "_acquired",
                      "%s holder %s (%s %s): its last %s record is %r, not the acquisition"
                      % (kind, tid, events, arg, group, last))
                if group == "lock":
                    check(last[3]["lock"] == int(addr, 16),
                          "%s holder: acquisition of %#x, not %s" % (kind, last[3]["lock"], addr))
    # Taking and releasing without pause through the close: per thread the
    # records alternate acquisition / release (or are one-record sections),
    # with at most a last acquisition unreleased: none lost, none twice.
    ends = {}
    drops = 0
    for rnd in range(6):
        events = "*,!*_held" if rnd % 2 else "*"
        log = os.path.join(TMP, "heldexit-churn.log")
        env = trace_env(log, PVOMP_TRACE_EVENTS=events)
        p = subprocess.run([prog, "churn"], env=env, capture_output=True, text=True, timeout=60)
        check(p.returncode == 0, "tp_heldexit churn failed:\n%s" % p.stderr)
        recs, _ = dump(log)
        holding = {}
        n = 0
        for name, _, tid, args in recs:
            if name == "dropped":  # what the thread held is unknown from here
                for key in [k for k in holding if k[0] == tid]:
                    holding[key] = None
                continue
            group, _, what = name.partition("_")
            if group not in ("lock", "critical") or what not in ("acquired", "release", "held"):
                continue
            key = (tid, group)
            n += 1
            if holding.get(key, False) is None:  # after a drop: anything goes, once
                holding[key] = what == "acquired"
            elif what == "acquired":
                check(not holding.get(key), "%s: %s acquired twice by %d" % (events, group, tid))
                holding[key] = True
            elif what == "release":
                check(holding.get(key), "%s: %s released by %d, not acquired" % (events, group, tid))
                holding[key] = False
            else:
                check(not holding.get(key), "%s: %s_held by %d while holding" % (events, group, tid))
                holding[key] = False
        lost = sum(r[3]["count"] for r in recs if r[0] == "dropped")
        check(n + lost >= 500, "churn round %d: only %d lock records and %d dropped events, "
              "for at least 500 sections per thread" % (rnd, n, lost))
        for k, v in holding.items():
            ends[v] = ends.get(v, 0) + 1
        drops += lost
    print("heldexit: locks and critical sections held when the log closes are in it, "
          "in 3 event selections, with and without the exiting thread holding one; "
          "6 churn rounds consistent (threads ending in a section / not: %d / %d; "
          "%d events dropped)" % (ends.get(True, 0), ends.get(False, 0), drops))


def test_churn():
    log = os.path.join(TMP, "churn.log")
    gen, _ = emit(log, "churn", 64, 2000, PVOMP_TRACE_BUFSIZE="64K")
    recs, _ = dump(log)
    check_accounting(recs, gen, ("tp_seq",))
    st = run_reader("stats", log).stdout.decode()
    m = re.search(r"in (\d+) thread\(s\)", st)
    # 64 emitting threads, and the initial thread (its thread_begin/_end).
    check(m and int(m.group(1)) == 65, "want 65 thread streams (rings handed over at exit):\n" + st)
    print("churn: 64 short-lived threads, all handed over")


def good_log():
    log = os.path.join(TMP, "good.log")
    if not os.path.exists(log):
        emit(log, "basic", 2, 20000, PVOMP_TRACE_PERIOD_MS=0, PVOMP_TRACE_BUFSIZE="64K")
    return log


def n_records(path, ok=(0, 1, 2)):
    p = run_reader("dump", path, ok=ok)
    return p.stdout.count(b"\n"), p


def test_truncated():
    src = good_log()
    data = open(src, "rb").read()
    full, _ = n_records(src, ok=(0,))
    rng = random.Random(4)
    offsets = sorted(set(list(range(0, 400)) + [rng.randrange(len(data)) for _ in range(250)]
                         + [len(data) - k for k in range(1, 80)]))
    cut = os.path.join(TMP, "cut.log")
    last = 0
    for off in offsets:
        with open(cut, "wb") as f:
            f.write(data[:off])
        n, p = n_records(cut)
        err = p.stderr.decode()
        want_rc = 1 if off < 24 else 2
        check(p.returncode == want_rc, "cut at %d: exit %d, wanted %d" % (off, p.returncode, want_rc))
        check(re.search(r"byte \d+", err) or off < 24, "cut at %d: no byte offset in:\n%s" % (off, err))
        check(n <= full and n >= last, "cut at %d: %d records (full %d, shorter cut %d)" % (off, n, full, last))
        last = n
        run_reader("stats", cut, ok=(1, 2))
        run_reader("timeline", "--html", cut, ok=(1, 2))
    print("truncated: %d cuts, no crash, records grow with the cut point, offsets reported" % len(offsets))


def test_corrupt():
    src = good_log()
    data = bytearray(open(src, "rb").read())
    bad = os.path.join(TMP, "bad.log")

    def expect(mut, rc, text):
        with open(bad, "wb") as f:
            f.write(mut)
        p = run_reader("dump", bad, ok=(rc,))
        err = p.stderr.decode()
        check(text in err, "wanted %r in:\n%s" % (text, err))

    m = bytearray(data)
    m[8] ^= 1
    expect(m, 1, "not a simpletrace log")
    m = bytearray(data)
    m[16:24] = struct.pack("=Q", 3)
    expect(m, 1, "log version 3")
    # The first event record after the mappings: find the first type-1 word.
    off = 24
    while struct.unpack_from("=Q", data, off)[0] == 0:
        off += 20 + struct.unpack_from("=I", data, off + 16)[0]
    m = bytearray(data)
    m[off + 24:off + 28] = struct.pack("=I", 0xFFFFFFF0)
    expect(m, 2, "absurd length")
    m = bytearray(data)
    m[off:off + 8] = struct.pack("=Q", 7)
    expect(m, 2, "unknown record type 7")
    m = bytearray(data)
    m[off + 8:off + 16] = struct.pack("=Q", 99999)
    expect(m, 2, "unknown event id")
    # Random damage: never a crash, always an answer.
    rng = random.Random(11)
    for i in range(300):
        m = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            pos = rng.randrange(len(m))
            m[pos] = rng.randrange(256)
        with open(bad, "wb") as f:
            f.write(m)
        run_reader("dump", bad, ok=(0, 1, 2))
        if i % 10 == 0:
            run_reader("stats", bad, ok=(0, 1, 2))
            run_reader("timeline", bad, ok=(0, 1, 2))
            run_reader("dump", "--simpletrace", bad, ok=(0, 1, 2))
    print("corrupt: magic, version, absurd length, unknown type and id reported; 300 random damages survived")


def test_simpletrace():
    log = os.path.join(TMP, "st.log")
    emit(log, "basic", 2, 3000)
    log2 = os.path.join(TMP, "st2.log")
    emit(log2, "select")
    qemu = os.path.join(HERE, "third_party", "qemu", "simpletrace.py")
    for lg in (log, log2):
        ev = lg + ".events"
        with open(ev, "wb") as f:
            f.write(run_reader("events", lg).stdout)
        q = subprocess.run([sys.executable, qemu, ev, lg], capture_output=True)
        check(q.returncode == 0, "QEMU's simpletrace.py rejects the log:\n" + q.stderr.decode())
        ours = run_reader("dump", "--simpletrace", lg).stdout
        check(ours == q.stdout, "dump --simpletrace differs from simpletrace.py's output")
        check(b"tp_seq" in q.stdout or b"tp_many" in q.stdout, "no program events in simpletrace.py's output")
    # The built-in catalog is itself a trace-events file tracetool accepts.
    sys.path.insert(0, os.path.join(HERE, "third_party", "qemu"))
    import tracetool  # noqa: E402
    cat = run_reader("events").stdout.decode()
    evs = tracetool.read_events(cat.splitlines(True), "catalog")
    check(len(evs) >= 30, "tracetool read only %d events from the catalog" % len(evs))
    print("simpletrace: QEMU's simpletrace.py reads pvomp logs; dump --simpletrace is byte-identical")


def test_select():
    log = os.path.join(TMP, "sel.log")
    gen, p = emit(log, "select", PVOMP_TRACE_EVENTS="tp_*,!tp_noisy,!tp_p?ng")
    recs, _ = dump(log)
    names = sorted({r[0] for r in recs})
    check(names == ["tp_many", "tp_seq", "tp_str", "tp_void"], "selected events: %r" % names)
    many = next(r[3] for r in recs if r[0] == "tp_many")
    want = {"a0": 2**64 - 1, "a1": 2, "a2": 2**64 - 3, "a3": 2**64 - 4, "a4": 5, "a5": 2**64 - 6,
            "a6": 1, "a7": 0x1234, "a8": 9, "a9": '"ten"'}
    check(many == want, "tp_many arguments: %r" % many)
    _, p = emit(os.path.join(TMP, "list.log"), "select", PVOMP_TRACE_EVENTS="list")
    check("tp_seq(unsigned thread, uint64_t seq)" in p.stderr and "parallel_begin(" in p.stderr,
          "PVOMP_TRACE_EVENTS=list does not list both catalogs:\n" + p.stderr)
    _, p = emit(os.path.join(TMP, "w.log"), "select", PVOMP_TRACE_EVENTS="nosuch_*",
                PVOMP_TRACE_BUFSIZE="lots")
    check("PVOMP_TRACE_BUFSIZE=lots" in p.stderr and "'nosuch_*' matched no event" in p.stderr,
          "bad settings are not reported:\n" + p.stderr)
    recs, _ = dump(os.path.join(TMP, "w.log"))
    check(not recs, "nothing should be traced with nosuch_*")
    # No PVOMP_TRACE: no file, no output.
    env = dict(os.environ)
    env.pop("PVOMP_TRACE", None)
    q = subprocess.run([emitter(), "select"], env=env, capture_output=True, text=True)
    check(q.returncode == 0 and not q.stderr, "untraced run: %d %s" % (q.returncode, q.stderr))
    print("select: globs, exclusions, list, warnings")


def test_reader_synthetic():
    log = os.path.join(TMP, "syn.log")
    mklog.runtime_log(log)
    st = run_reader("stats", log).stdout.decode()
    row = {}
    for line in st.splitlines():
        f = line.split()
        if f and f[0] in ("101", "102"):
            # tid records dropped, then lifetime and per-column ms (3 decimals)
            row[f[0]] = f[:3] + re.findall(r"\b\d+\.\d{3}\b", " ".join(f[3:]))
    # lifetime parallel barrier spin blocked critical
    check(row["101"][3:8] == ["100.000", "80.000", "60.000", "10.000", "30.000"],
          "thread 101 times:\n" + st)
    # critical, critical wait, lock (lock wait: no thread waited, no column)
    check(row["102"][2] == "7" and row["102"][8:11] == ["8.000", "2.000", "0.000"],
          "thread 102 drops/critical (_held after _enter: 2 ms waiting, 3 held):\n" + st)
    check(row["101"][8:11] == ["0.000", "0.000", "8.000"],
          "thread 101 locks (_held alone, and nested in _acquired/_release):\n" + st)
    check(re.search(r"0x401136 +1 +2 +100\.000 +130\.000 +38\.5% +38\.5%", st), "region imbalance:\n" + st)
    check("phantom episodes: 1, 20.000 ms" in st, "phantom episode:\n" + st)
    # JSON for Perfetto.
    j = json.loads(run_reader("timeline", log).stdout)
    xs = [e for e in j["traceEvents"] if e["ph"] == "X"]
    blocked = [e for e in xs if e["name"] == "blocked"]
    check(len(blocked) == 1 and abs(blocked[0]["dur"] - 30000) < 1e-6 and blocked[0]["tid"] == 101,
          "blocked interval in JSON: %r" % blocked)
    check(any(e["name"] == "phantom" and abs(e["dur"] - 20000) < 1e-6 for e in xs), "phantom interval")
    check(all(set(("ph", "pid", "ts")) <= set(e) for e in j["traceEvents"] if e["ph"] != "M"),
          "events lack ph/pid/ts")
    # A log killed before its end: intervals still open end at the last record.
    mklog.runtime_log(log + ".k", complete=False)
    p = run_reader("stats", log + ".k", ok=(2,))
    check(b"no end record" in p.stderr, "incomplete synthetic log not reported")
    # A QEMU flat log with an --events file.
    flat = os.path.join(TMP, "flat.log")
    mklog.qemu_flat_log(flat)
    p = run_reader("dump", "--events", flat + ".events", flat)
    check(p.stdout.decode().splitlines() == [
        "qemu_a 0.000 pid=7 x=0x5", 'qemu_b 0.100 pid=7 s="hi" v=0x9', "dropped 0.100 pid=7 count=0x3"],
        "QEMU flat log:\n" + p.stdout.decode())
    p = run_reader("dump", flat, ok=(2,))
    check(b"no declaration" in p.stderr or b"unknown event" in p.stderr, p.stderr.decode())
    print("reader_synthetic: stats, imbalance, JSON intervals, incomplete and QEMU logs")


def test_reader_tasks():
    """mklog.tasks_log: stats' task table by site (a reused task address
    takes its new site; a task whose task_create is not in the log is
    "(created before the log)"), with the runs, threads and times the log
    holds; timeline --json's and --html's task intervals carry the names."""
    log = os.path.join(TMP, "tasks.log")
    mklog.tasks_log(log)
    st = run_reader("stats", log).stdout.decode()
    check("\ntasks (" in st, "no task table:\n" + st)
    rows = {}
    for line in st.split("\ntasks (", 1)[1].splitlines()[2:]:
        m = re.match(r"^  (.+?)\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$", line)
        if not m:
            break
        rows[m.group(1)] = m.groups()[1:]
    a, b = "%#x" % mklog.FN_A, "%#x" % mklog.FN_B
    want = {a: ("2", "2", "30.000", "15000.000", "20000.000"),
            b: ("2", "1", "5.000", "2500.000", "4000.000"),
            "(created before the log)": ("1", "1", "2.000", "2000.000", "2000.000")}
    check(rows == want, "task table %r, wanted %r:\n%s" % (rows, want, st))
    check(list(rows) == [a, b, "(created before the log)"], "not sorted by total time: %r" % list(rows))
    j = json.loads(run_reader("timeline", log).stdout)
    runs = sorted((e["args"]["task"], round(e["dur"])) for e in j["traceEvents"]
                  if e["ph"] == "X" and e["name"] == "task")
    check(runs == sorted([(a, 10000), (a, 20000), (b, 1000), (b, 4000),
                          ("(created before the log)", 2000)]), "JSON task intervals %r" % runs)
    html = os.path.join(TMP, "tasks.html")
    run_reader("timeline", "--html", "-o", html, log)
    text = open(html).read()
    d = json.loads(re.search(r'<script id="pvdata" type="application/json">(.*?)</script>',
                             text, re.S).group(1))
    runs = sorted((d["fns"][t[0]], t[2]) for t in d["tasks"])
    check(runs == sorted([(a, 10 * 10 ** 6), (a, 20 * 10 ** 6), (b, 10 ** 6), (b, 4 * 10 ** 6),
                          ("(created before the log)", 2 * 10 ** 6)]), "HTML tasks %r" % runs)
    print("reader_tasks: task table, JSON and HTML by site")


def test_html():
    chromium = browser.chromium_or_skip("html")
    log = os.path.join(TMP, "syn.log")
    mklog.runtime_log(log)
    html = os.path.join(TMP, "report.html")
    run_reader("timeline", "--html", "-o", html, log)
    text = open(html).read()
    check('<canvas id="tl">' in text and "://" not in text,
          "the report must be self-contained (no external resources)")
    png = os.path.join(TMP, "report.png")
    shot = browser.screenshot(chromium, TMP, "file://" + html, png)
    want = {"barrier": (0xf4, 0xa3, 0x00), "spin": (0xe0, 0x30, 0x1e), "blocked": (0x2f, 0x5d, 0xa8),
            "parallel": (0xb9, 0xe4, 0xb4), "phantom": (0x22, 0x22, 0x22), "critical": (0x8e, 0x44, 0xad),
            "lock": (0xd1, 0x6f, 0xc4)}
    counts = browser.count_colors(shot, want)
    # Areas the synthetic timeline must cover at 1500 px for 100 ms (the
    # legend's 144 pixels of each colour included).
    minimum = {"barrier": 2000, "spin": 500, "blocked": 1500, "parallel": 5000, "phantom": 3000,
               "critical": 300, "lock": 300}
    for k, n in counts.items():
        check(n >= minimum[k], "screenshot: %d pixels of %s, wanted >= %d (%r)" % (n, k, minimum[k], counts))
    shutil.copy(png, os.path.join(A.build, "trace_report_screenshot.png"))
    print("html: screenshot %dx%d, pixels per kind %r" % (shot[0], shot[1], counts))


def test_generator():
    gen = os.path.join(A.src, "src", "trace", "tracegen.py")
    cases = [
        ("ok(int a) \"x\"\n", 0, None),
        ("bad(float a) \"x\"\n", 1, "not allowed"),
        ("bad(int a, int b, int c, int d, int e, int f, int g, int h, int i, int j, int k) \"x\"\n", 1, "more than 10"),
        ("bad(int a) \"%m\"\n", 1, "%m"),
        ("bad(int a) \"x\"", 1, "newline"),
        ("bad() \"x\"\n", 1, "void"),
        ("dup(int a) \"\"\ndup(int b) \"\"\n", 1, "already declared"),
        ("pvtrace_x(int a) \"\"\n", 0, None),
        # enumerations (#enum): well formed, then each mistake named
        ("#enum e { a = 0, b = 1 } for ok.a\nok(int a) \"\"\n", 0, None),
        ("#enum e { a = 0, b } for ok.a\nok(int a) \"\"\n", 1, "is not 'name = number'"),
        ("#enum e { a = 0, b = 0 } for ok.a\nok(int a) \"\"\n", 1, "repeats a name or a number"),
        ("#enum e { a = 0 } for ok.z\nok(int a) \"\"\n", 1, "has no argument 'z'"),
        ("#enum e { a = 0 } for ok.p\nok(void *p) \"\"\n", 1, "is not an integer"),
        ("#enum e { a = 0 } for no.a\nok(int a) \"\"\n", 1, "no event 'no'"),
        ("#enum e { a = 0 }\nok(int a) \"\"\n", 1, "not an enumeration"),
    ]
    for i, (text, rc, msg) in enumerate(cases):
        path = os.path.join(TMP, "ev%d" % i)
        with open(path, "w") as f:
            f.write(text)
        p = subprocess.run([sys.executable, gen, "--check", path], capture_output=True, text=True)
        check(p.returncode == rc, "tracegen on %r: exit %d" % (text, p.returncode))
        if msg:
            check(msg in p.stderr and "%s:" % path in p.stderr, "tracegen on %r: %s" % (text, p.stderr))
    p = subprocess.run([sys.executable, gen, "--group", "g", os.path.join(TMP, "ev7"),
                        os.path.join(TMP, "g.h"), os.path.join(TMP, "g.c")], capture_output=True, text=True)
    check(p.returncode == 1 and "reserved" in p.stderr, "pvtrace_* names must be refused to programs")
    p = subprocess.run([sys.executable, gen, "--group", "g", os.path.join(TMP, "ev8"),
                        os.path.join(TMP, "g.h"), os.path.join(TMP, "g.c")], capture_output=True, text=True)
    check(p.returncode == 1 and "only supported in pvomp's own catalog" in p.stderr,
          "a program's catalog with an enumeration: %d %s" % (p.returncode, p.stderr))
    print("generator: %d declarations checked" % len(cases))


def test_reader_enums():
    """The reader names enumerated values from the log's pvtrace_enum records;
    an unknown value prints as its number with a note, a corrupt declaration
    is one message and the rest of the log reads; a log without pvtrace_enum
    (written before logs carried them) gets the catalog's enumerations."""
    log = os.path.join(TMP, "enum.log")
    mklog.enum_log(log)
    p = run_reader("dump", log, ok=(0, 1, 2))
    out, err = p.stdout.decode(), p.stderr.decode()
    lines = [l for l in out.splitlines() if l.split()[0] != "dropped"]
    check(len(lines) == 6, "the log after the corrupt declaration is not all read:\n" + out + err)
    check(lines[0].startswith("barrier_enter ") and lines[0].endswith(" kind=join"),
          "a named value: %r" % lines[0])
    check(lines[1].endswith(" kind=0x9 [not a barrier_kind]"), "an unknown value: %r" % lines[1])
    check(lines[2].endswith(" kind=0x2"), "barrier_leave's corrupt enumeration still names: %r"
          % lines[2])
    check(lines[3].endswith(" policy=0x3"), "an argument the log names no enumeration for "
          "took the catalog's: %r" % lines[3])
    check(lines[4].startswith("loop_chunk "), "the last record: %r" % lines[4])
    check(lines[5].startswith("phantom_change ") and lines[5].endswith(" phantoms=0x1") and
          "event 'phantom_change' is declared (unsigned phantoms), this reader knows it as "
          "(unsigned phantoms, uint64_t avg_fp, uint64_t seq): the analyses leave it out" in err,
          "an event declared otherwise than the catalog:\n" + out + err)
    msgs = [l for l in err.splitlines() if "enumeration" in l]
    check(len(msgs) == 1 and "'barrier_kind'" in msgs[0] and "'barrier_leave'" in msgs[0] and
          "is not 'name=number'" in msgs[0] and "prints as numbers" in msgs[0],
          "the corrupt declaration: not one clear message:\n" + err)
    ev = run_reader("events", log, ok=(0, 2)).stdout.decode()
    want = ("#enum barrier_kind { explicit = 0, workshare = 1, join = 2, cancel = 3, other = 4 } "
            "for barrier_enter.kind")
    check(want in ev.splitlines() and "for barrier_leave.kind" not in ev,
          "events does not list the log's enumerations:\n" + ev)
    # An older pvomp log: no pvtrace_enum at all, the catalog's names.
    old = os.path.join(TMP, "noenum.log")
    mklog.runtime_log(old)
    recs, _ = dump(old)
    kinds = {r[3]["kind"] for r in recs if r[0] == "barrier_enter"}
    pol = {r[3]["policy"] for r in recs if r[0] == "wait_begin"}
    check(kinds == {"explicit", "join"} and pol == {"pvsched"},
          "a log without pvtrace_enum: kinds %r, policies %r" % (kinds, pol))
    print("reader_enums: kind=join, an unknown value with its note, one message for a corrupt "
          "declaration, the catalog's names for an older log")


def test_fuzz():
    fuzzer = os.path.join(A.bin, "pvomp-trace-fuzz")
    check(os.path.exists(fuzzer), "no fuzzer built (clang needed)")
    corpus = os.path.join(TMP, "corpus")
    os.makedirs(corpus, exist_ok=True)
    emit(os.path.join(corpus, "small.log"), "basic", 2, 50, PVOMP_TRACE_BUFSIZE="4K")
    emit(os.path.join(corpus, "sel.log"), "select")
    mklog.runtime_log(os.path.join(corpus, "syn.log"))
    mklog.runtime_log(os.path.join(corpus, "synk.log"), complete=False)
    mklog.qemu_flat_log(os.path.join(corpus, "flat.log"))
    os.remove(os.path.join(corpus, "flat.log.events"))
    for name in os.listdir(corpus):  # keep inputs small
        p = os.path.join(corpus, name)
        if os.path.getsize(p) > 60000:
            with open(p, "r+b") as f:
                f.truncate(60000)
    p = subprocess.run([fuzzer, "-runs=%d" % A.fuzz_runs, "-seed=1", "-max_len=65536",
                        "-detect_leaks=1", corpus], capture_output=True)
    err = p.stderr.decode(errors="replace")
    check(p.returncode == 0, "the fuzzer found a problem:\n" + err[-4000:])
    print("fuzz: %d runs clean (%s)" % (A.fuzz_runs, err.strip().splitlines()[-1]))


def sections_by_lock(recs, kind):
    """Per lock address: acquisitions (KIND_acquired, or KIND_held: one
    record for an acquisition and its release), checked against releases
    (KIND_release or KIND_held)."""
    acq, rel = {}, {}
    for name, _, _, args in recs:
        if name in (kind + "_acquired", kind + "_held"):
            acq[args["lock"]] = acq.get(args["lock"], 0) + 1
        if name in (kind + "_release", kind + "_held"):
            rel[args["lock"]] = rel.get(args["lock"], 0) + 1
    check(acq == rel, "%s: acquisitions %r but releases %r" % (kind, acq, rel))
    return acq


def test_runtime():
    """The runtime's own trace points (tests/trace/tp_runtime.c): every
    construct shows up, begin/end events pair up per thread, and the
    analyses find the regions.  Twice: with every event, and without the
    one-record sections (critical_held, lock_held)."""
    runtime_check("*")
    runtime_check("*,!*_held")


def check_shared_clock_reads(recs):
    """Events the runtime emits back to back share one clock read (trace.h,
    pv_trace_time_after): in each thread's stream, barrier_enter right after
    implicit_task_end, and barrier_leave (kinds 0-3) right after wait_end,
    carry exactly the time of the record before them."""
    prev = {}
    shared = {"barrier_enter": 0, "barrier_leave": 0}
    for r in recs:
        name, t, tid, args = r
        p = prev.get(tid)
        prev[tid] = r
        if not p:
            continue
        if (p[0], name) == ("implicit_task_end", "barrier_enter") or (
                (p[0], name) == ("wait_end", "barrier_leave") and
                args.get("kind") in ("explicit", "workshare", "join", "cancel")):
            check(t == p[1], "%s at %.3f us, right after %s at %.3f us: not one clock read"
                  % (name, t, p[0], p[1]))
            shared[name] += 1
    check(shared["barrier_enter"] > 0 and shared["barrier_leave"] > 0,
          "no back-to-back pair to check: %r" % shared)


def runtime_check(events):
    log = os.path.join(TMP, "rt.log")
    env = trace_env(log, PVOMP_TRACE_EVENTS=events)
    p = subprocess.run([os.path.join(A.build, "tp_runtime")], env=env, capture_output=True, text=True)
    check(p.returncode == 0, "tp_runtime failed:\n" + p.stderr)
    gen = {m.group(1): int(m.group(2)) for m in re.finditer(r"generated (\w+) (\d+)", p.stdout)}
    recs, _ = dump(log)
    # Records written after the fact (acquisitions remembered while a lock
    # is held) keep every thread's stream in time order.
    abs_recs = check_time_order(log)
    check_shared_clock_reads(abs_recs)
    count = {}
    for r in recs:
        count[r[0]] = count.get(r[0], 0) + 1
    dropped = sum(r[3]["count"] for r in recs if r[0] == "dropped")
    check(dropped == 0, "%d runtime events dropped" % dropped)
    n, regions = gen["threads"], gen["parallel"]

    def want(name, expected, exact=True):
        got = count.get(name, 0)
        check(got == expected if exact else got >= expected,
              "%s: %d in the log, wanted %s%d" % (name, got, "" if exact else ">= ", expected))

    want("parallel_begin", regions)
    want("parallel_end", regions)
    want("implicit_task_begin", regions * n)
    want("implicit_task_end", regions * n)
    # Critical sections: the unnamed critical's lock, a named one and the
    # atomic fallback lock (GOMP_atomic_start/end), each under its own address.
    by_addr = sections_by_lock(recs, "critical")
    check(sorted(by_addr.values()) == sorted([gen["critical"], gen["inner"], gen["atomic"]]),
          "critical sections by lock %r, wanted %d (critical), %d (named) and %d (atomic)"
          % (by_addr, gen["critical"], gen["inner"], gen["atomic"]))
    # Locks: omp_set_lock and successful omp_test_lock on the simple lock;
    # set and nested test on the nest lock (every level).
    by_addr = sections_by_lock(recs, "lock")
    check(sorted(by_addr.values()) == sorted([gen["lock"], gen["nest_lock"]]),
          "lock acquisitions by lock %r, wanted %d and %d" % (by_addr, gen["lock"], gen["nest_lock"]))
    if "_held" in events:
        # With _held off: _acquired + _release only.
        check(count.get("lock_held", 0) + count.get("critical_held", 0) == 0, "_held records")
    else:
        # Uncontended sections with nothing recorded inside: one record.
        held = [r for r in recs if r[0] in ("lock_held", "critical_held")]
        check(count.get("lock_held", 0) > 0 and count.get("critical_held", 0) > 0,
              "no lock_held or critical_held records: %r" % count)
        # (0 is possible: the clock may tick in steps of several ns)
        check(all(r[3]["ns"] < 10 ** 10 for r in held),
              "a _held record with an absurd duration: %r" % [r for r in held if r[3]["ns"] >= 10 ** 10][:3])
    # A successful test does not wait, and neither does a set whose first
    # try succeeds: no lock_enter before such an acquisition.
    last = {}
    unasked = 0
    for name, _, tid, args in recs:
        if name in ("lock_acquired", "lock_held") and last.get(tid) != ("lock_enter", args["lock"]):
            unasked += 1
        if name.startswith("lock_"):
            last[tid] = (name, args["lock"])
    check(unasked >= gen["lock"] // 2, "%d acquisitions without lock_enter, wanted at least the "
          "%d successful omp_test_lock calls" % (unasked, gen["lock"] // 2))
    check(count.get("lock_enter", 0) + unasked == gen["lock"] + gen["nest_lock"],
          "%d lock_enter + %d acquisitions at once != %d acquisitions"
          % (count.get("lock_enter", 0), unasked, gen["lock"] + gen["nest_lock"]))
    # Sections: every section of every construct handed out exactly once.
    secs = [r[3]["section"] for r in recs if r[0] == "section"]
    nsec = gen["section_count"]
    check(sorted(secs) == sorted(list(range(1, nsec + 1)) * gen["sections"]),
          "section events %r, wanted sections 1..%d %d times each"
          % (sorted(secs)[:12], nsec, gen["sections"]))
    want("single", regions * n)
    check(sum(1 for r in recs if r[0] == "single" and r[3]["executed"]) == gen["single"],
          "single: executed=1 once per construct")
    want("task_create", gen["task"])
    want("task_begin", gen["task"])
    want("task_end", gen["task"])
    want("loop_init", regions, exact=False)
    want("barrier_enter", regions * n * 2, exact=False)  # explicit + join at least
    want("thread_begin", n, exact=False)  # the workers and the initial thread
    want("lock_busy", gen["test_failed"])
    # spins: what each wait really spun, not the policy's budget.
    spun = [r[3]["spins"] for r in recs if r[0] == "wait_end" and not r[3]["blocked"]]
    # The budget: what a wait spun that blocked at the spin count, not one
    # that the late-waiter rules stopped early (a wait_late record before its
    # wait_block: a crowded waiter blocks after 20 us, src/wait/late.c).
    late_at = {(r[2], r[3]["spins"]) for r in recs if r[0] == "wait_late"}
    budget = max([r[3]["spins"] for r in recs
                  if r[0] == "wait_block" and (r[2], r[3]["spins"]) not in late_at] or [0])
    # (On a busy machine most waits may end at once or block early: rule 3.)
    every = spun + [r[3]["spins"] for r in recs if r[0] == "wait_block"]
    check(len(set(every)) > 1, "wait_end and wait_block spins all equal (%r...): not the spins "
          "of each wait" % every[:3])
    check(spun, "no wait ended while it spun")
    check(not budget or max(spun) <= budget, "a wait spun %d times, more than the %d a blocked "
          "wait spun" % (max(spun), budget))
    first = [r for r in recs if r[2] == recs[0][2]]
    check(first[0][0] == "thread_begin" and first[0][3]["worker"] == "initial",
          "the initial thread's first record is %s %r, wanted thread_begin worker=initial"
          % (first[0][0], first[0][3]))
    check(first[-1][0] == "thread_end", "the initial thread's last record is %s, wanted thread_end"
          % first[-1][0])
    chunks = sum(r[3]["end"] - r[3]["start"] for r in recs if r[0] == "loop_chunk")
    check(chunks == gen["loop_iterations"], "loop chunks cover %d iterations, wanted %d"
          % (chunks, gen["loop_iterations"]))
    # Per thread, begin/end events nest properly.
    pairs = {"parallel_begin": "parallel_end", "implicit_task_begin": "implicit_task_end",
             "barrier_enter": "barrier_leave", "critical_acquired": "critical_release",
             "lock_acquired": "lock_release", "task_begin": "task_end"}
    closing = {v: k for k, v in pairs.items()}
    stacks = {}
    for name, _, tid, _ in recs:
        st = stacks.setdefault(tid, [])
        if name in pairs:
            st.append(name)
        elif name in closing:
            check(st and st[-1] == closing[name], "thread %d: %s without %s (open: %r)"
                  % (tid, name, closing[name], st[-3:]))
            st.pop()
    # A worker released from the last join barrier may not run again before
    # the process exits and the log closes: its barrier_leave never happens.
    # Everything else must be closed.
    main_tid = recs[0][2]
    for tid, st in stacks.items():
        check(st == [] or (tid != main_tid and st == ["barrier_enter"]),
              "thread %d ends inside %r" % (tid, st))
    st = run_reader("stats", log).stdout.decode()
    check(re.search(r"parallel regions", st), "stats finds no parallel region:\n" + st)
    run_reader("timeline", "--html", "-o", os.path.join(TMP, "rt.html"), log)
    print("runtime (%s): %d records, every construct traced" % (events, len(recs)))


def fake_phantomd(sock_path, npages=128):
    """Plays pvomp-phantomd for one client: accepts one request, creates the
    phantom map (a memfd), claims the client's page and sends the map.
    Returns (thread, holder) where holder["page"] becomes a writable mmap of
    the client's page once the client is served."""
    import mmap
    import socket
    import threading
    page_size = 4096
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(sock_path)
    srv.listen(1)
    srv.settimeout(30)
    holder = {}

    def serve():
        try:
            conn, _ = srv.accept()
        except OSError as e:
            holder["error"] = str(e)
            return
        with conn:
            want = 16 + 4096
            req = b""
            while len(req) < want:
                b = conn.recv(want - len(req))
                if not b:
                    break
                req += b
            creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
            pid = struct.unpack("3i", creds)[0]
            fd = os.memfd_create("fake-phantom", 0)
            os.ftruncate(fd, npages * page_size)
            m = mmap.mmap(fd, npages * page_size)
            magic, version = 0x70766f6d, PHANTOM_VERSION
            struct.pack_into("<IHHII", m, 0, magic, version, 1, npages, 2)
            home = 1 + pid % (npages - 1)
            base = home * page_size
            struct.pack_into("<IHHIIQ", m, base, magic, version, 2, pid, 2, 2)
            holder["map"], holder["base"] = m, base
            holder["ready"].set()
            rep = struct.pack("<iIII", 0, version, npages, 0) + b"\0" * 240
            conn.sendmsg([rep], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, struct.pack("i", fd))])
            os.close(fd)
        srv.close()

    holder["ready"] = threading.Event()
    t = threading.Thread(target=serve, daemon=True)
    t.start()
    return t, holder


PHANTOM_VERSION = 2       # include/pvomp/phantom.h
QUEUED_SINCE_OFFSET = 128  # struct pvomp_phantom_proc: queued_since_ns[128]


def set_queued_since(holder, ns):
    """Every CPU's queued_since_ns word of the process page."""
    m, base = holder["map"], holder["base"]
    struct.pack_into("<128Q", m, base + QUEUED_SINCE_OFFSET, *([ns] * 128))


def set_phantom_page(holder, phantoms, avg, seq):
    """The process page's hot line: phantoms, thread/vcpu phantoms, avg, seq."""
    m, base = holder["map"], holder["base"]
    struct.pack_into("<IIII", m, base + 64, phantoms, phantoms, 0, avg)
    struct.pack_into("<Q", m, base + 80, seq)


def test_phantom():
    """phantom_change records the count a waiter saw, with the average and
    sequence number of the phantom page (tp_phantom under pvsched, against a
    fake pvomp-phantomd whose page the test writes between phases)."""
    # The page for each phase: (phantoms, avg in 16.16, seq).
    phases = [(2, 0x18000, 7), (0, 0x4000, 8), (3, 0x2c000, 11)]
    recs, err, log = run_phased("ph", phases, lambda h, ph: set_phantom_page(h, *ph),
                                GOMP_SPINCOUNT=0)
    check("pvsched" not in err, "pvsched did not start: " + err)
    got = [(r[3]["phantoms"], r[3]["avg_fp"], r[3]["seq"]) for r in recs if r[0] == "phantom_change"]
    check(got == phases, "phantom_change records %r, wanted %r" % (got, phases))
    st = run_reader("stats", log).stdout.decode()
    check(re.search(r"phantom episodes: 2,.* at most 3 phantom", st),
          "stats does not see the two episodes:\n" + st)
    print("phantom: %d phantom_change records with the page's average and sequence" % len(got))


def run_phased(name, phases, set_page, mode="wait", **env):
    """tp_phantom under pvsched against a fake daemon of its own (socket and
    log named after `name`): before each phase, set_page(holder, phase)
    writes the page.  Returns (dump records, stderr, log path)."""
    log = os.path.join(TMP, name + ".log")
    sock = os.path.join(TMP, name + ".sock")
    _, holder = fake_phantomd(sock)
    p = subprocess.Popen([os.path.join(A.build, "tp_phantom"), str(len(phases)), mode],
                         env=trace_env(log, PVOMP_TRACE_EVENTS="*", GOMP_WAIT_POLICY="pvsched",
                                       PVOMP_PHANTOMD_SOCKET=sock, OMP_NUM_THREADS=2, **env),
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    try:
        for i, ph in enumerate(phases):
            line = p.stdout.readline()
            check(line == "phase %d\n" % i, "tp_phantom said %r (stderr: %s)"
                  % (line, p.stderr.read() if not line else ""))
            check(holder["ready"].is_set(), "tp_phantom did not ask for the phantom map")
            set_page(holder, ph)
            p.stdin.write("go\n")
            p.stdin.flush()
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
    check(p.returncode == 0 and "done" in out, "tp_phantom failed (%d):\n%s" % (p.returncode, err))
    check("using the default policy" not in err, "pvsched did not start: " + err)
    recs, _ = dump(log, "--abs")
    return recs, err, log


def slice_yields_by_phase(recs, phases):
    """wait_slice_yield records inside each phase's region.  (Between two
    regions the worker waits in the pool, and the page may already hold the
    next phase's value.)"""
    out, k, inside = [[] for _ in range(phases)], -1, False
    for r in recs:
        if r[0] == "parallel_begin":
            k, inside = k + 1, True
        elif r[0] == "parallel_end":
            inside = False
        elif r[0] == "wait_slice_yield" and inside:
            out[k].append(r)
    return out


def test_slice():
    """pvsched's slice rule (src/wait/slice.c): a waiter spinning with no
    phantom yields its CPU, and records wait_slice_yield, when the phantom
    page says another task has been waiting for its CPU longer than a slice;
    not when the page says nobody waits, nor with PVOMP_PVSCHED_SLICE_US=0.
    tp_phantom's thread 0 spins ~20 ms at a barrier per phase; a fake
    pvomp-phantomd writes queued_since_ns between phases."""
    # A time long past: the slice is over at once.  0: nobody waits.
    phases = [1, 0, 1]
    recs, _, _ = run_phased("slice", phases, set_queued_since)
    by = slice_yields_by_phase(recs, len(phases))
    counts = [len(b) for b in by]
    check(counts[1] == 0, "slice yields while nobody waits for the CPU: %r" % counts)
    for k in (0, 2):
        ys = by[k]
        # ~20 ms of spinning, one yield per slice at most: ~13 with the
        # 1.5 ms slice of a 2-CPU machine.  At least a few.
        check(len(ys) >= 4, "phase %d: only %d slice yields in ~20 ms: %r" % (k, len(ys), counts))
        sl = ys[0][3]["slice_ns"]
        check(all(y[3]["slice_ns"] == sl and y[3]["held_ns"] >= sl for y in ys),
              "a yield before the slice was over: %r" % ys[:3])
        gaps = []  # per thread: each thread spaces its own yields
        for tid in {y[2] for y in ys}:
            times = [y[1] for y in ys if y[2] == tid]  # --abs: us since the start
            gaps += [b - a for a, b in zip(times, times[1:])]
        check(min(gaps) * 1000 >= sl * 0.999,
              "yields closer than a slice (%d ns): %.3f us" % (sl, min(gaps)))
    print("slice: %r slice yields per phase (slice %d us); none while nobody waits"
          % (counts, by[0][0][3]["slice_ns"] // 1000))

    # The rule turned off.
    recs, _, _ = run_phased("slice-off", [1], set_queued_since, PVOMP_PVSCHED_SLICE_US=0)
    n = sum(1 for r in recs if r[0] == "wait_slice_yield")
    check(n == 0, "%d slice yields with PVOMP_PVSCHED_SLICE_US=0" % n)
    # A bad value: a warning, and the kernel's slice.
    recs, err, _ = run_phased("slice-bad", [1], set_queued_since, PVOMP_PVSCHED_SLICE_US="2ms")
    check("PVOMP_PVSCHED_SLICE_US='2ms'" in err, "no warning for a bad value: " + err)
    n = sum(1 for r in recs if r[0] == "wait_slice_yield")
    check(n >= 4, "only %d slice yields after a bad PVOMP_PVSCHED_SLICE_US" % n)
    print("slice: none with PVOMP_PVSCHED_SLICE_US=0; a bad value warns and keeps the rule")
    # Many short waits: barriers back to back, each wait at most 30 spins
    # (GOMP_SPINCOUNT) before it sleeps.  The rule still applies, since a
    # thread's spins are counted across waits for its every-64-spins check.
    # Under load from elsewhere the threads spin less (they wait for a CPU
    # instead), so a run may count fewer yields: up to three runs.
    for attempt in range(3):
        recs, _, _ = run_phased("slice-barriers", [1, 0], set_queued_since, mode="barriers",
                                GOMP_SPINCOUNT=30)
        counts = [len(b) for b in slice_yields_by_phase(recs, 2)]
        if counts[1] != 0 or counts[0] >= 4:
            break
        print("slice: %r with barriers back to back on run %d; again" % (counts, attempt + 1))
    check(counts[0] >= 4 and counts[1] == 0,
          "slice yields with barriers back to back: %r (wanted >= 4, then 0)" % counts)
    print("slice: %r with barriers back to back" % counts)


def ring_sizes(pid):
    """The sizes of the rings of process pid: each is one memfd mapped twice."""
    sizes = []
    with open("/proc/%d/maps" % pid) as f:
        for line in f:
            if "pvomp-trace-ring" in line:
                lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
                sizes.append(hi - lo)
    return sorted(sizes[::2], reverse=True)


def test_budget():
    """PVOMP_TRACE_BUFFER: 24 threads share a 16M budget: the first get 4M,
    later ones less, none under 128K, the total under the budget plus 128K
    a thread; a bad value: one warning, 16M."""
    for env, budget in (({}, 16 << 20), ({"PVOMP_TRACE_BUFFER": "8M"}, 8 << 20),
                        ({"PVOMP_TRACE_BUFFER": "banana"}, 16 << 20)):
        log = os.path.join(TMP, "budget.log")
        proc = subprocess.Popen([emitter(), "busy", "24"], env=trace_env(log, **env),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            check(proc.stdout.readline().strip() == "started", "busy emitter did not start")
            time.sleep(0.5)
            sizes = ring_sizes(proc.pid)
        finally:
            proc.kill()
            _, err = proc.communicate()
        warns = [l for l in err.splitlines() if "PVOMP_TRACE_BUFFER" in l]
        check(len(warns) == (1 if env.get("PVOMP_TRACE_BUFFER") == "banana" else 0)
              and all("using 16M" in w for w in warns), "%r: warnings %r" % (env, warns))
        check(len(sizes) >= 24, "%r: %d rings for 24 threads" % (env, len(sizes)))
        check(sizes[0] == 4 << 20 and sizes[-1] >= 128 << 10 and sizes[-1] < sizes[0],
              "%r: ring sizes %r" % (env, sizes))
        check(sum(sizes) <= budget + (128 << 10) * len(sizes),
              "%r: %d bytes of rings for a budget of %d" % (env, sum(sizes), budget))
    print("budget: %d rings, %s KiB, %d KiB in all" % (len(sizes), [x >> 10 for x in sizes],
                                                      sum(sizes) >> 10))


# ------------------------------------------------------------ ring mode
def snapshot_info(log):
    """The pvtrace_snapshot record of a ring-mode snapshot: (reason, number,
    overwritten events)."""
    recs, _ = dump(log, "--all")
    snaps = [r for r in recs if r[0] == "pvtrace_snapshot"]
    check(len(snaps) == 1, "%s: %d pvtrace_snapshot records" % (log, len(snaps)))
    a = snaps[0][3]
    return a["reason"].strip('"'), a["number"], a["overwritten_events"]


def check_tail(recs, total, position=lambda name, seq: seq):
    """Each thread in the snapshot ends with its newest events: after its
    last delivered one come only dropped records (a full ring), and they
    count exactly the events up to the thread's last (total events)."""
    last, trailing = {}, {}
    for name, _, tid, args in recs:
        if name == "dropped":
            trailing[tid] = trailing.get(tid, 0) + args["count"]
        elif name in ("tp_seq", "tp_str"):
            last[tid] = position(name, args["seq"])
            trailing[tid] = 0
    check(last, "no events in the snapshot")
    for tid, pos in last.items():
        check(pos + 1 + trailing[tid] == total,
              "thread %d: its newest events are not in the snapshot (last %d, then %d dropped, "
              "of %d)" % (tid, pos, trailing[tid], total))


def test_ring_exit():
    """PVOMP_TRACE_MODE=ring: a run that writes ~20 times the ring leaves at
    exit a snapshot of about the ring's size holding the newest records; it
    reads back complete, and delivered + dropped (overwritten included) =
    generated, per thread to the event.  A bad PVOMP_TRACE_RING: one
    warning, the documented default (64M)."""
    log = os.path.join(TMP, "ring.log")
    gen, _ = emit(log, "basic", 2, 200000, PVOMP_TRACE_MODE="ring", PVOMP_TRACE_RING="1M",
                  PVOMP_TRACE_EVENTS="tp_*")
    size = os.path.getsize(log)
    check(size < (1 << 20) + 64 * 1024, "ring of 1M gave a %d-byte snapshot" % size)
    recs, _ = dump(log)  # exit 0: complete
    delivered, dropped = check_accounting(recs, gen, ("tp_seq", "tp_str"))
    check(dropped > 10 * delivered, "overwritten %d, kept %d: the ring kept too much"
          % (dropped, delivered))
    check_sequences(recs, basic_position)
    check_tail(recs, 200000 + 200, basic_position)
    reason, number, over = snapshot_info(log)
    check(reason == "exit" and number == 0, "snapshot %r %d" % (reason, number))
    # Dropped = overwritten + what full rings dropped before the writer came.
    check(0 < over <= dropped, "pvtrace_snapshot says %d overwritten, the streams %d dropped"
          % (over, dropped))
    st = run_reader("stats", log).stdout.decode()
    check(re.search(r"snapshot: +0 \(exit\).*overwritten before it: %d events" % over, st),
          "stats does not show the snapshot:\n" + st)
    # Time bound: 1 s keeps everything of a short run.
    gen, _ = emit(log, "basic", 2, 20000, PVOMP_TRACE_MODE="ring", PVOMP_TRACE_RING="1s,8M",
                  PVOMP_TRACE_EVENTS="tp_*")
    recs, _ = dump(log)
    check(check_accounting(recs, gen, ("tp_seq", "tp_str"))[1] == 0, "1s,8M overwrote events")
    for bad in ("banana", "10", "5x", "1s,2s", "0s"):
        gen, p = emit(log, "basic", 1, 1000, PVOMP_TRACE_MODE="ring", PVOMP_TRACE_RING=bad,
                      PVOMP_TRACE_EVENTS="tp_*")
        warns = [l for l in p.stderr.splitlines() if "PVOMP_TRACE_RING" in l]
        check(len(warns) == 1 and "using 64M" in warns[0], "PVOMP_TRACE_RING=%s: %r" % (bad, warns))
        recs, _ = dump(log)
        check(check_accounting(recs, gen, ("tp_seq", "tp_str"))[1] == 0,
              "PVOMP_TRACE_RING=%s: the default ring overwrote events" % bad)
    _, p = emit(log, "basic", 1, 10, PVOMP_TRACE_MODE="rings")
    check(sum("PVOMP_TRACE_MODE" in l for l in p.stderr.splitlines()) == 1 and
          os.path.getsize(log) > 0, "PVOMP_TRACE_MODE=rings: " + p.stderr)
    print("ring_exit: %d-byte snapshot of a 1M ring: %d kept, %d overwritten" % (size, delivered, dropped))


def test_ring_window():
    """PVOMP_TRACE_RING=1s,64M: of 5000 events, a 1.5 s pause, 5000 more,
    the exit snapshot keeps the second 5000 (the first ended more than the
    window before the newest) and counts the first as overwritten."""
    log = os.path.join(TMP, "window.log")
    n, m = 5000, 5000
    gen, _ = emit(log, "pause", n, 1500, m, PVOMP_TRACE_MODE="ring", PVOMP_TRACE_RING="1s,64M",
                  PVOMP_TRACE_EVENTS="tp_*")
    recs, _ = dump(log)  # exit 0: complete
    delivered, dropped = check_accounting(recs, gen, ("tp_seq",))
    seqs = [r[3]["seq"] for r in recs if r[0] == "tp_seq"]
    check(seqs == list(range(n, n + m)), "the 1 s window kept %d events (seq %s..%s), wanted "
          "the last %d" % (len(seqs), seqs[:1], seqs[-1:], m))
    check(dropped == n, "%d counted as dropped, wanted the first %d" % (dropped, n))
    _, _, over = snapshot_info(log)
    check(over == n, "pvtrace_snapshot says %d overwritten, wanted %d" % (over, n))
    print("ring_window: 1 s window: the %d events before the pause overwritten, the %d after "
          "kept" % (n, m))


def busy_ring(log, **env):
    proc = subprocess.Popen([emitter(), "busy", "2"],
                            env=trace_env(log, PVOMP_TRACE_MODE="ring", PVOMP_TRACE_RING="2M",
                                          **env),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(proc.stdout.readline().strip() == "started", "busy emitter did not start")
    return proc


def wait_file(path, proc):
    for _ in range(3000):
        if os.path.exists(path):
            return
        check(proc.poll() is None, "the process ended before %s appeared" % path)
        time.sleep(0.02)
    fail("%s did not appear within a minute" % path)


def check_live_snapshot(path, number):
    recs, _ = dump(path)  # exit 0: complete
    check_sequences(recs)
    check(sum(1 for r in recs if r[0] == "tp_seq") > 1000, "%s: few records" % path)
    reason, n, _ = snapshot_info(path)
    check(reason == "signal" and n == number, "%s: snapshot %r %d" % (path, reason, n))
    run_reader("stats", path)
    return recs


def test_ring_signal():
    """SIGUSR2 while running: NAME.1, then NAME.2, each complete; numbering
    goes on after the NAME.N already there."""
    log = os.path.join(TMP, "sig.log")
    with open(log + ".7", "w") as f:
        f.write("an earlier run's")
    proc = busy_ring(log)
    try:
        time.sleep(0.3)
        for n in (8, 9):
            os.kill(proc.pid, signal.SIGUSR2)
            wait_file("%s.%d" % (log, n), proc)
            recs = check_live_snapshot("%s.%d" % (log, n), n)
        check(open(log + ".7").read() == "an earlier run's", "snapshot 7 was overwritten")
        check(proc.poll() is None, "SIGUSR2 ended the process")
    finally:
        proc.kill()
        proc.wait()
    print("ring_signal: two snapshots while running, %d records in the second" % len(recs))


def test_ring_snapshot_cmd():
    """pvomp-trace snapshot PID sends the signal and names the file; a
    process not in ring mode gets a clear message."""
    log = os.path.join(TMP, "cmd.log")
    proc = busy_ring(log)
    try:
        time.sleep(0.3)
        p = run_reader("snapshot", proc.pid)
        out = p.stdout.decode()
        m = re.match(r"snapshot 1 of process %d written to (\S+)\n$" % proc.pid, out)
        check(m and os.path.realpath(m.group(1)) == os.path.realpath(log + ".1"),
              "pvomp-trace snapshot said %r" % out)
        check_live_snapshot(log + ".1", 1)
    finally:
        proc.kill()
        proc.wait()
    plain = subprocess.Popen([emitter(), "busy", "1"], env=trace_env(os.path.join(TMP, "f.log")),
                             stdout=subprocess.PIPE, text=True)
    try:
        check(plain.stdout.readline().strip() == "started", "busy emitter did not start")
        p = run_reader("snapshot", plain.pid, ok=(1,))
        check("not trace in ring mode" in p.stderr.decode(), p.stderr.decode())
        check(plain.poll() is None, "the refused snapshot signalled the process")
    finally:
        plain.kill()
        plain.wait()
    run_reader("snapshot", "banana", ok=(1,))
    print("ring_snapshot_cmd: " + out.strip())


def test_ring_crash():
    """A program that crashes after some events (SIGSEGV, SIGABRT, SIGBUS,
    SIGFPE): the crash snapshot exists, reads back complete with every
    event (the main thread's last ones were still in its ring), and the
    process still died of its signal.  Then with a ring far smaller than
    the run: the tail, and delivered + dropped = generated."""
    for how, sig in (("segv", signal.SIGSEGV), ("abort", signal.SIGABRT),
                     ("bus", signal.SIGBUS), ("fpe", signal.SIGFPE)):
        log = os.path.join(TMP, "crash-%s.log" % how)
        gen, _ = emit(log, "crash", 2, 5000, how, expect_rc=-sig, PVOMP_TRACE_MODE="ring",
                      PVOMP_TRACE_PERIOD_MS=0, PVOMP_TRACE_EVENTS="tp_*")
        recs, _ = dump(log)
        delivered, dropped = check_accounting(recs, gen, ("tp_seq",))
        check(dropped == 0 and delivered == 15000, "%s: %d delivered, %d dropped"
              % (how, delivered, dropped))
        check_sequences(recs)
        reason, _, _ = snapshot_info(log)
        check(reason == "crash " + sig.name, "%s: reason %r" % (how, reason))
    log = os.path.join(TMP, "crash-tail.log")
    # Small thread buffers: what the crash snapshot keeps is the 1M ring plus
    # what the threads' buffers still hold, and a writer slowed by a busy
    # machine leaves them full (with the default size it kept 2 of 3 once).
    gen, _ = emit(log, "crash", 2, 100000, "segv", expect_rc=-signal.SIGSEGV,
                  PVOMP_TRACE_MODE="ring", PVOMP_TRACE_RING="1M", PVOMP_TRACE_EVENTS="tp_*",
                  PVOMP_TRACE_BUFSIZE="64K")
    recs, _ = dump(log)
    delivered, dropped = check_accounting(recs, gen, ("tp_seq",))
    check(dropped > delivered, "1M ring: %d kept, %d overwritten" % (delivered, dropped))
    check_sequences(recs)
    check_tail(recs, 100000)
    print("ring_crash: four signals, every event in the snapshot; 1M ring: %d kept, %d "
          "overwritten" % (delivered, dropped))


def test_ring_exitrace():
    """exitrace in ring mode (a 1M recorder, overwritten many times over):
    every record begun or refused before the log closed is in the exit
    snapshot or in its dropped counts (overwritten ones included), to one
    per thread as in exitrace."""
    threads = 3
    for rnd in range(3):
        log = os.path.join(TMP, "ringexit%d.log" % rnd)
        counts = os.path.join(TMP, "ringexit%d.counts" % rnd)
        emit(log, "exitrace", threads, 100 + 50 * rnd, counts, PVOMP_TRACE_BUFSIZE="256K",
             PVOMP_TRACE_MODE="ring", PVOMP_TRACE_RING="1M", PVOMP_TRACE_PERIOD_MS=5)
        with open(counts, "rb") as f:
            c = struct.unpack("<%dQ" % (2 * threads), f.read())
        generated = sum(c)
        recs, _ = dump(log)
        delivered = sum(1 for r in recs if r[0] == "tp_seq")
        dropped = sum(r[3]["count"] for r in recs if r[0] == "dropped")
        check(generated <= delivered + dropped <= generated + 2 * threads,
              "round %d: %d in the snapshot + %d dropped, %d generated by the program"
              % (rnd, delivered, dropped, generated))
        check(snapshot_info(log)[2] > 0, "round %d: the 1M recorder overwrote nothing" % rnd)
    print("ring_exitrace: delivered + dropped = generated through exit in ring mode (3 rounds)")


def main():
    global A
    ap = argparse.ArgumentParser()
    ap.add_argument("test")
    ap.add_argument("--bin", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--fuzz-runs", type=int, default=6000)
    A = ap.parse_args()
    testrun.run_test(globals(), A.test, "pvomp-trace")

if __name__ == "__main__":
    main()
