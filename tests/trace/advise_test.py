#!/usr/bin/env python3
"""pvomp-trace advise on pathology programs (tests/trace/advise/patho.c,
compiled here with -g):

    advise_test.py TEST --bin BUILD/bin --lib BUILD/lib --src SOURCEDIR --cc CC

CASE (imbalance, serial, scheduling, critical, task_overhead,
oversubscription, phantom, fork_join, task_starvation, serial_between):
the plain kernel, traced on pvomp
with 2 threads: `advise --json`'s top finding has the case's cause and
names patho.c at the marked construct's line; the fixed kernel's largest
finding of that cause gains less than half of what the plain one's does.
The co-runner case (a team bound to every CPU, another process burning CPU
0) must come out as phantom, not imbalance: the member sharing CPU 0 works
longer on equal shares, and its run delay (the run_delay records, no
pvomp-phantomd) shows it was off its CPU meanwhile.  The workloads make the
pathology several times larger than anything else in the run, so no time
threshold decides the result.  Phantom findings (members that lost their
CPU: the test machine is shared) are left out when looking for the top
finding, except in the phantom case.  critical's finding names the
critical construct's line (critical_enter's codeptr_ra), its region the
region's.  serial_between's finding names both
regions ("between R1 and R2"), the first at the marked line.
A case that fails while one of its threads lost a tenth of a run or more
to other processes (its run_delay readings) runs again, three times at
most (the co-runner case too: where its slices fall varies).
robust:   a program without -g (the symbol), a truncated log (exit 2, the
          findings of what was read), a log that dropped records (no
          fork_join from the episodes they left open), two logs as two ranks (each finding
          names its log), a clang-compiled program (libomp's entry points):
          clear output, no crash, the region named by its line in patho.c.
text:     the text table: a header, the serial case's finding first (phantoms
          aside), its advice under it; --top 1."""
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testrun  # noqa: E402
from testrun import check, fail, parse_dump, run  # noqa: E402,F401

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "advise"))
from cases import CASES  # noqa: E402

A = None
TMP = None
SRC = None

EXPECT = CASES  # the cause the advisor must put first, per case


def build(name, cc=None, debug=True):
    out = os.path.join(TMP, name)
    cmd = [cc or A.cc, "-fopenmp", "-O1", "-Wl,--build-id", "-I", os.path.join(A.src, "tests", "common")]
    if debug:
        cmd.append("-g")
    run(cmd + ["-o", out, SRC, "-ldl"])
    return out


def traced(log, *cmd, **extra):
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("PVOMP_TRACE") or k.startswith("OMP_"):
            del env[k]
    env.update(PVOMP_TRACE=log, OMP_NUM_THREADS="2",
               LD_LIBRARY_PATH=A.lib + ":" + env.get("LD_LIBRARY_PATH", ""))
    env.update({k: str(v) for k, v in extra.items()})
    return run(cmd, env=env)


def advise(*logs, ok=(0,)):
    p = run([os.path.join(A.bin, "pvomp-trace"), "advise", "--json"] + list(logs), ok=ok)
    try:
        return json.loads(p.stdout)["findings"]
    except (ValueError, KeyError) as e:
        fail("advise --json gave no findings object (%s):\n%s" % (e, p.stdout))


def marker(case):
    """The line of PLAIN-case's marker, and the lines the name may give:
    the pragma's, or the first line of the construct's body."""
    with open(SRC) as f:
        for n, line in enumerate(f, 1):
            if "/* PLAIN-%s */" % case in line:
                return n
    fail("no marker PLAIN-%s in %s" % (case, SRC))


def own_top(findings, case=None):
    """The first finding, phantoms aside: members that lost their CPU are
    what a shared test machine adds to any run (except the phantom case)."""
    own = [f for f in findings if case == "phantom" or f["cause"] != "phantom"]
    check(own, "no findings (phantoms aside):\n%s" % findings)
    return own[0]


def run_case(case, variant, prog):
    log = os.path.join(TMP, "%s.%s.pvtrace" % (case, variant))
    extra = {}
    if case == "phantom":
        extra = dict(OMP_PROC_BIND="close", OMP_PLACES="cores")
    traced(log, prog, case, variant, **extra)
    return advise(log)


def check_case(case):
    prog = build("patho")
    plain = run_case(case, "plain", prog)
    top = own_top(plain, case)
    summary = "\n".join("  %s %s %d %.3f" % (f["cause"], f["where"], f["gain_ns"], f["share"])
                        for f in plain[:8])
    check(top["cause"] in EXPECT[case],
          "%s: the top finding is %s, not %s:\n%s" % (case, top["cause"], EXPECT[case], summary))
    # the place: the case's region (or task construct) by its pragma's line
    # (the region's outlined function starts there or on the next line)
    # critical: the construct's own line (its call site), its region in "region"
    want = {"oversubscription": "balanced", "phantom": "balanced",
            "critical": "critical_construct"}.get(case, case)
    line = marker(want)
    where = top["where"]
    check("(patho.c)" in where, "%s: top finding's place %r is not in patho.c" % (case, where))
    got = int(where.split("(")[0].split(":")[-1])
    check(line <= got <= line + 2,
          "%s: top finding at line %d, the construct is at %d:\n%s" % (case, got, line, summary))
    if case == "critical":
        got = int(top["region"].split("(")[0].split(":")[-1])
        check(marker("critical") <= got <= marker("critical") + 2,
              "critical: region %r is not the marked one" % top["region"])
    if case == "serial_between":  # "between R1 and R2": both regions named
        nxt = marker("serial_between_next")
        after = where.split(" and ")[-1]
        got = int(after.split("(")[0].split(":")[-1]) if " and " in where else 0
        check(where.startswith("between ") and nxt <= got <= nxt + 2,
              "%s: %r does not name the next region (line %d)" % (case, where, nxt))
    # its share of the run, the time lost to phantoms aside
    run_ns = top["gain_ns"] / top["share"]
    lost = sum(f["gain_ns"] for f in plain if f["cause"] == "phantom" and f is not top)
    share = top["gain_ns"] / max(run_ns - lost, 1)
    check(share > 0.02, "%s: the pathology's share is only %.3f (phantoms aside)" % (case, share))
    check(top["advice"], "%s: no advice" % case)
    if case in ("phantom", "imbalance"):  # what the fixed variants do
        check("schedule(dynamic" in top["advice"] or "dynamic schedule" in top["advice"],
              "%s: the advice does not say schedule(dynamic): %s" % (case, top["advice"]))
    if case == "fork_join":  # the late starts of regions this short are their fork/join cost
        check(top["share"] > 0.5, "fork_join: only %.3f of the run:\n%s" % (top["share"], summary))
    if case == "oversubscription":
        # a team of as many threads as CPUs still does the members' work
        # over the CPUs: the gain is at most the regions' wall time less that
        log = os.path.join(TMP, "%s.plain.pvtrace" % case)
        stats = run([os.path.join(A.bin, "pvomp-trace"), "stats", log]).stdout
        row = [ln.split() for ln in stats.splitlines() if ln.strip().startswith(top["where"])]
        check(row, "oversubscription: no stats row for %s:\n%s" % (top["where"], stats))
        wall, work = float(row[0][-4]) * 1e6, float(row[0][-3]) * 1e6
        bound = wall - work / max(top["cpus"], 1)
        check(top["gain_ns"] <= 1.02 * bound,
              "oversubscription: gain %d ns, more than the wall time %d less the work %d over "
              "%d CPUs" % (top["gain_ns"], wall, work, top["cpus"]))
    fixed = run_case(case, "fixed", prog)
    if case == "phantom":
        # the fix, schedule(dynamic), gives the slowed member's static share
        # to the others: no imbalance is left; members that still lose their
        # CPU while they hold a chunk are what a shared machine adds
        lost = sum(f["gain_ns"] for f in plain
                   if f["cause"] in EXPECT[case] and f["region"] == top["region"])
        left = max([f["gain_ns"] for f in fixed if f["cause"] == "imbalance"] or [0])
        check(left < lost / 2, "phantom: the fixed kernel still has imbalance gaining %d ns "
              "(plain: %d lost to phantom and imbalance)" % (left, lost))
        return
    left = max([f["gain_ns"] for f in fixed if f["cause"] == top["cause"]] or [0])
    check(left < top["gain_ns"] / 2,
          "%s: the fixed kernel still has %s gaining %d ns (plain: %d)"
          % (case, top["cause"], left, top["gain_ns"]))
    if case == "task_overhead":  # the pool's creation, once a process, is no task's
        left = max([f["share"] for f in fixed if f["cause"] == "task_overhead"] or [0])
        check(left < 0.25, "task_overhead: the fixed kernel's finding is %.3f of its run" % left)


def cpu_lost_share(log):
    """The largest share of the log's time that one thread spent runnable
    without a CPU: its last run_delay reading (the count starts with the
    thread, the initial thread's with the process) over the log's span;
    0 without readings."""
    if not os.path.exists(log):
        return 0.0
    out = run([os.path.join(A.bin, "pvomp-trace"), "dump", "--abs", log], ok=(0, 2)).stdout
    recs = parse_dump(out)
    last = {tid: args["delay_ns"] for name, _, tid, args in recs if name == "run_delay"}
    if not last:
        return 0.0
    span = max(r[1] for r in recs) - min(r[1] for r in recs)
    return max(last.values()) / 1000.0 / span if span > 0 else 0.0


def make_case_test(case):
    """The case, again (at most three times in all) when it fails while a
    thread of its runs lost a tenth of the run or more to other processes
    (run_delay): the pathologies have a fixed size, a loaded machine's lost
    time slices do not.  The co-runner case always has such a thread (its
    pathology); where its slices fall varies from run to run (1 run in 6-10
    failed on the quiet machine: the member lost its CPU while waiting, not
    working), while without run_delay it fails every time (imbalance)."""
    def test():
        for attempt in range(3):
            try:
                return check_case(case)
            except AssertionError:
                logs = [os.path.join(TMP, "%s.%s.pvtrace" % (case, v)) for v in ("plain", "fixed")]
                lost = max(cpu_lost_share(log) for log in logs)
                if lost < 0.10 or attempt == 2:
                    raise
                print("%s: a thread lost %.0f %% of a run to other processes: again" % (case, 100 * lost))
                for log in logs:
                    if os.path.exists(log):
                        os.unlink(log)
    return test


for _c in EXPECT:
    globals()["test_" + _c] = make_case_test(_c)


def test_text():
    prog = build("patho")
    log = os.path.join(TMP, "serial.pvtrace")
    traced(log, prog, "serial", "plain")
    out = run([os.path.join(A.bin, "pvomp-trace"), "advise", log]).stdout
    lines = out.splitlines()
    check(len(lines) >= 4 and "cause" in lines[1] and "gain ms" in lines[1],
          "no table header:\n" + out)
    # rows: "  1  serial  gain  share  where", then the advice, indented
    rows = [i for i in range(2, len(lines), 2) if lines[i].split()[1] != "phantom"]
    check(rows and lines[rows[0]].split()[0] == str(rows[0] // 2) and
          lines[rows[0]].split()[1] == "serial" and "patho.c" in lines[rows[0]],
          "serial is not the first finding (phantoms aside):\n" + out)
    check("parallelise" in lines[rows[0] + 1], "no advice under the finding:\n" + out)
    top = run([os.path.join(A.bin, "pvomp-trace"), "advise", "--top", "1", log]).stdout
    check(top.count("\n") == 4, "--top 1 printed more than one finding:\n" + top)


def test_robust():
    # without -g: the region's symbol, no line
    prog = build("patho-nodebug", debug=False)
    log = os.path.join(TMP, "nodebug.pvtrace")
    traced(log, prog, "serial", "plain")
    f = own_top(advise(log))
    check(f["cause"] == "serial" and "_omp_fn" in f["where"], "without -g: %s" % f)
    # truncated: what was read is advised, exit status 2
    data = open(log, "rb").read()
    cut = os.path.join(TMP, "cut.pvtrace")
    for frac in (0.1, 0.5, 0.9):
        with open(cut, "wb") as w:
            w.write(data[:int(len(data) * frac)])
        p = run([os.path.join(A.bin, "pvomp-trace"), "advise", "--json", cut], ok=(2,))
        json.loads(p.stdout)
        check("ends" in p.stderr or "truncated" in p.stderr or "not closed" in p.stderr,
              "truncated log: stderr says nothing:\n" + p.stderr)
    # records dropped (4 KiB rings, no flusher): the members' lost records
    # leave episodes open; their regions' wall time is no fork/join cost
    prog = build("patho")
    log = os.path.join(TMP, "dropped.pvtrace")
    traced(log, prog, "scheduling", "plain", PVOMP_TRACE_BUFSIZE="4K", PVOMP_TRACE_PERIOD_MS=0)
    f = advise(log)
    fj = max([x["share"] for x in f if x["cause"] == "fork_join"] or [0])
    check(fj < 0.2, "dropped records: fork_join is %.3f of the run: %s" % (fj, f[:3]))
    # two ranks: each finding names its log
    logs = []
    for rank, case in ((0, "serial"), (1, "critical")):
        logs.append(os.path.join(TMP, "run.%d.pvtrace" % rank))
        traced(logs[-1], prog, case, "plain", OMPI_COMM_WORLD_RANK=rank)
    f = advise(*logs)
    causes = {(x["cause"], x["log"]) for x in f if x["cause"] != "phantom"}
    check(("serial", "run.0.pvtrace") in causes and ("critical", "run.1.pvtrace") in causes,
          "two ranks: %s" % sorted(causes))
    # a clang program (libomp's __kmpc entry points, pvomp as libomp.so.5)
    clang = shutil.which("clang") or shutil.which("clang-14")
    if clang:
        prog = build("patho-clang", cc=clang)
        log = os.path.join(TMP, "clang.pvtrace")
        traced(log, prog, "imbalance", "plain")
        f = own_top(advise(log))
        check(f["cause"] == "imbalance", "clang program: %s" % f)
        # named by the program's outlined function (the microtask, not
        # pvomp's trampoline) and its line (libdw without .debug_aranges)
        line = marker("imbalance")
        where = f["where"]
        got = int(where.split("(")[0].split(":")[-1]) if where.endswith("(patho.c)") else 0
        check(line <= got <= line + 2, "clang program: %r is not patho.c:%d" % (where, line))
    else:
        print("no clang: the clang part is not run")


def main():
    global A, SRC
    A = testrun.program_test_args()
    SRC = os.path.join(A.src, "tests", "trace", "advise", "patho.c")
    testrun.run_test(globals(), A.test, "pvomp-advise")


if __name__ == "__main__":
    main()
