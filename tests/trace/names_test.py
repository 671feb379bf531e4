#!/usr/bin/env python3
"""The flight log names code (tests/trace/names/*.c, compiled here):

    names_test.py TEST --bin BUILD/bin --lib BUILD/lib --src SOURCEDIR --cc CC

objects: every loaded object is in the log (pvtrace_object) with its path,
         address range and GNU build-id, a library dlopened later too.
debug:    built with -g: stats, dump, timeline --json and --html name the
          region, the task body and the dlopened library's region as
          function:line (file); dump and --json the task's construct
          (task_create's codeptr_ra) by its pragma's line.
tasks:    tasks.c's tasks from two constructs (main, spawn_b): stats' task
          table, timeline --json's task intervals and --html's intervals,
          drill-down and table name each by its pragma's function:line
          with the number the program creates.
nodebug:  without -g: the symbol (main._omp_fn.0); tasks by their bodies'.
demo:     examples/demo.c as scripts/demo.sh builds it: every region of the
          summary is main:LINE (demo.c) within its construct.
stripped: strip --strip-all: object+offset [no symbols]; with --debuginfo DIR
          holding DIR/.build-id/xx/yyyy.debug: function:line again.
rebuilt:  the program rebuilt after the run: object+offset [build-id
          differs], not the new build's names; removed: [object missing].
merge:    two processes as ranks 0 and 1 (PVOMP_TRACE=run.%r.pvtrace,
          OMPI_COMM_WORLD_RANK), one after the other: stats gives each log
          and one region table and one task table over both by name; timeline --json puts both
          on one time base (each log's CLOCK_MONOTONIC), process by process,
          with the gap between them that the launches bound.
mpi:      an MPI+OpenMP program under Open MPI (mpirun -np 2): one log per
          rank, one merged summary and one timeline in which each rank's
          region lies between the other rank's first and last records (the
          barriers around the regions order them so)."""
import os
import re
import shutil
import subprocess
import sys
import json
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testrun  # noqa: E402
from testrun import check, fail, marker_line, run  # noqa: E402,F401

A = None
TMP = None
NAMES = None



def build(name, *flags, src="prog.c", shared=False):
    out = os.path.join(TMP, name)
    cmd = [A.cc, "-fopenmp", "-O1", "-Wl,--build-id", *flags]
    if shared:
        cmd += ["-shared", "-fPIC"]
    run(cmd + ["-o", out, os.path.join(NAMES, src), "-ldl"])
    return out


def traced(log, *cmd, **extra):
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("PVOMP_TRACE"):
            del env[k]
    env.update(PVOMP_TRACE=log, OMP_NUM_THREADS="2",
               LD_LIBRARY_PATH=A.lib + ":" + env.get("LD_LIBRARY_PATH", ""))
    env.update({k: str(v) for k, v in extra.items()})
    return run(cmd, env=env)


def reader(*args, ok=(0,)):
    return run([os.path.join(A.bin, "pvomp-trace")] + list(args), ok=ok)


def build_id(path):
    out = run(["readelf", "-n", path]).stdout
    m = re.search(r"Build ID: ([0-9a-f]+)", out)
    check(m is not None, "%s has no build-id (readelf -n)" % path)
    return m.group(1)


REC = re.compile(r'^(\w+) \S+ pid=\d+(.*)$')
ARG = re.compile(r' (\w+)=("(?:[^"\\]|\\.)*"|0x[0-9a-f]+)')


def records(log):
    out = []
    for line in reader("dump", "--all", log).stdout.splitlines():
        m = REC.match(line)
        check(m is not None, "unparsable dump line %r" % line)
        args = {k: (int(v, 16) if v.startswith("0x") else v.strip('"'))
                for k, v in ARG.findall(m.group(2))}
        out.append((m.group(1), args))
    return out


def test_objects():
    prog = build("prog", "-g")
    plugin = build("libplugin.so", "-g", src="plugin.c", shared=True)
    log = os.path.join(TMP, "run.pvtrace")
    traced(log, prog, plugin)
    recs = records(log)
    objs = [a for n, a in recs if n == "pvtrace_object"]
    by_path = {o["path"]: o for o in objs}
    check(len(by_path) == len(objs), "an object recorded twice: %s" % [o["path"] for o in objs])
    for path in (prog, plugin, os.path.join(A.lib, "libgomp.so.1")):
        real = os.path.realpath(path)
        hit = [o for p, o in by_path.items() if os.path.realpath(p) == real]
        check(len(hit) == 1, "no pvtrace_object for %s in %s" % (path, sorted(by_path)))
        o = hit[0]
        check(o["build_id"] == build_id(real), "%s: build_id %s, readelf says %s"
              % (path, o["build_id"], build_id(real)))
        check(o["start"] < o["end"], "%s: empty range" % path)
    check(any("libc.so" in p for p in by_path), "libc not recorded: %s" % sorted(by_path))
    # Each region's outlined function lies in the object it came from.
    fns = [a["fn"] for n, a in recs if n == "parallel_begin"]
    check(len(fns) == 2, "2 parallel regions expected, got %d" % len(fns))
    for fn, path in zip(fns, (prog, plugin)):
        o = by_path[[p for p in by_path if os.path.realpath(p) == os.path.realpath(path)][0]]
        check(o["start"] <= fn < o["end"], "fn %#x is not in %s [%#x, %#x)"
              % (fn, path, o["start"], o["end"]))


def run_prog(prog, *args):
    log = os.path.join(TMP, os.path.basename(prog) + ".pvtrace")
    traced(log, prog, *args)
    return log


def region_names(log, *opts):
    """The region column of stats' parallel-region table."""
    out = reader("stats", *opts, log).stdout
    check("parallel regions" in out, "stats has no region table:\n" + out)
    rows = out.split("parallel regions", 1)[1].splitlines()[2:]
    names = []
    for row in rows:
        m = re.match(r"^  (.+?)\s+\d+\s+\d+\s+[\d.]+\s+[\d.]+\s+[\d.]+%\s+[\d.]+%$", row)
        if not m:
            break
        names.append(m.group(1))
    return names


def dump_names(log, *opts):
    """{event: [names of its fn arguments], event.codeptr_ra: [...]} from dump."""
    got = {}
    for line in reader("dump", *opts, log).stdout.splitlines():
        for m in re.finditer(r" (fn|codeptr_ra)=0x[0-9a-f]+ <([^>]*)>", line):
            key = line.split(" ", 1)[0] + ("" if m.group(1) == "fn" else "." + m.group(1))
            got.setdefault(key, []).append(m.group(2))
    return got


def src(name):
    return os.path.join(NAMES, name)


def test_debug():
    prog = build("prog", "-g")
    plugin = build("libplugin.so", "-g", src="plugin.c", shared=True)
    log = run_prog(prog, plugin)
    region = "main:%d (prog.c)" % marker_line(src("prog.c"), "REGION")
    task = "main:%d (prog.c)" % marker_line(src("prog.c"), "TASK_BODY")
    site = "main:%d (prog.c)" % marker_line(src("prog.c"), "TASK")
    plug = "plugin_work:%d (plugin.c)" % marker_line(src("plugin.c"), "PLUGIN_BODY")
    names = region_names(log)
    check(sorted(names) == sorted([region, plug]), "stats regions %s, wanted %s and %s"
          % (names, region, plug))
    d = dump_names(log)
    check(d.get("parallel_begin") == [region, plug], "dump parallel_begin: %s" % d)
    check(d.get("task_create") == [task], "dump task_create: %s, wanted %s" % (d, task))
    # The task is named by its construct: codeptr_ra, the program's call of
    # GOMP_task, is on the pragma's line.
    check(d.get("task_create.codeptr_ra") == [site], "dump task_create codeptr_ra: %s, wanted %s"
          % (d, site))
    js = os.path.join(TMP, "t.json")
    reader("timeline", "--json", js, log)
    text = open(js).read()
    for n in (region, task, plug):
        check('"fn_name":"%s"' % n in text, "timeline --json lacks fn_name %s" % n)
    check('"codeptr_ra_name":"%s"' % site in text, "timeline --json lacks codeptr_ra_name %s" % site)
    html = os.path.join(TMP, "t.html")
    reader("timeline", "--html", html, log)
    text = open(html).read()
    for n in (region, plug):
        check(">%s</td>" % n in text, "timeline --html lacks region %s" % n)


def task_table(log, *opts):
    """{name: (instances, threads)} from stats' task table."""
    out = reader("stats", *opts, log).stdout
    check("\ntasks (" in out, "stats has no task table:\n" + out)
    rows = out.split("\ntasks (", 1)[1].splitlines()[2:]
    got = {}
    for row in rows:
        m = re.match(r"^  (.+?)\s+(\d+)\s+(\d+)\s+[\d.]+\s+[\d.]+\s+[\d.]+$", row)
        if not m:
            break
        got[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    check(got, "stats' task table has no rows:\n" + out)
    return got


def tasks_per_site():
    """{marker: tasks it creates} from tasks.c's #defines."""
    text = open(src("tasks.c")).read()
    return {site: int(re.search(r"#define %s_TASKS (\d+)" % site[-1], text).group(1))
            for site in ("SITE_A", "SITE_B")}


def check_task_names(log, want):
    """stats, timeline --json and --html name each task by `want`
    ({name: instances})."""
    got = task_table(log)
    check({n: c for n, (c, _) in got.items()} == want,
          "stats' task table %s, wanted %s" % (got, want))
    for n, (_, threads) in got.items():
        check(1 <= threads <= 2, "%s ran on %d threads of 2" % (n, threads))
    js = os.path.join(TMP, "tasks.json")
    reader("timeline", "--json", js, log)
    ev = json.load(open(js))["traceEvents"]
    runs = {}
    for e in ev:
        if e.get("ph") == "X" and e["name"] == "task":
            runs[e["args"]["task"]] = runs.get(e["args"]["task"], 0) + 1
    check(runs == want, "timeline --json: task intervals by name %s, wanted %s" % (runs, want))
    html = os.path.join(TMP, "tasks.html")
    reader("timeline", "--html", html, log)
    text = open(html).read()
    m = re.search(r'<script id="pvdata" type="application/json">(.*?)</script>', text, re.S)
    check(m is not None, "the report has no pvdata")
    d = json.loads(m.group(1))
    runs = {}
    for t in d["tasks"]:
        runs[d["fns"][t[0]]] = runs.get(d["fns"][t[0]], 0) + 1
    check(runs == want, "timeline --html: the drill-down's tasks by name %s, wanted %s"
          % (runs, want))
    task_kind = d["kinds"].index("task")
    drawn = {}
    for row in d["rows"]:
        iv = row["iv"].get(str(task_kind), [])
        for k in range(0, len(iv), 5):   # [start delta, duration, merged, busy, name]
            name = d["fns"][iv[k + 4]] if iv[k + 4] >= 0 else None
            drawn[name] = drawn.get(name, 0) + iv[k + 2]
    check(drawn == want, "timeline --html: task intervals by name %s, wanted %s" % (drawn, want))
    for n in want:
        check("<tr><td>%s</td><td>%d</td>" % (n, want[n]) in text,
              "the report's task table lacks %s with %d instances" % (n, want[n]))
    check('id="tasks"' in text, "the report has no task drill-down table")


def test_tasks():
    """Tasks from two constructs: named by their pragma's function:line."""
    prog = build("tasks", "-g", src="tasks.c")
    log = run_prog(prog)
    check("pvomp " in reader("stats", log).stdout, "the log is not pvomp's")
    per = tasks_per_site()
    want = {"main:%d (tasks.c)" % marker_line(src("tasks.c"), "SITE_A"): per["SITE_A"],
            "spawn_b:%d (tasks.c)" % marker_line(src("tasks.c"), "SITE_B"): per["SITE_B"]}
    check_task_names(log, want)


def test_nodebug():
    prog = build("prog")
    names = region_names(run_prog(prog))
    check(names == ["main._omp_fn.0"], "stats regions %s, wanted the symbol" % names)
    d = dump_names(run_prog(prog))
    check(d.get("task_create") == ["main._omp_fn.1"], "task body not named by its symbol")
    check(len(d.get("task_create.codeptr_ra", [])) == 1 and
          re.fullmatch(r"main\._omp_fn\.0\+0x[0-9a-f]+", d["task_create.codeptr_ra"][0]),
          "task's site (in the region's body) not named main._omp_fn.0+offset: %s" % d)
    # No line: the task table names tasks by their bodies' symbols.
    got = task_table(run_prog(build("tasks", src="tasks.c")))
    per = tasks_per_site()
    bodies = sorted((c, n) for n, (c, _) in got.items())
    check(len(bodies) == 2 and bodies[0][0] == per["SITE_B"] and bodies[1][0] == per["SITE_A"]
          and re.fullmatch(r"spawn_b\._omp_fn\.\d+", bodies[0][1])
          and re.fullmatch(r"main\._omp_fn\.\d+", bodies[1][1]),
          "without -g: task table %s, wanted spawn_b._omp_fn.N x%d and main._omp_fn.N x%d"
          % (got, per["SITE_B"], per["SITE_A"]))


def test_demo():
    """scripts/demo.sh's program, built as it builds it: the summary names
    every parallel region main:LINE (demo.c), LINE in that region's
    construct (from its pragma to the next region's)."""
    demo = os.path.join(A.src, "examples", "demo.c")
    prog = os.path.join(TMP, "demo")
    run([A.cc, "-fopenmp", "-O2", "-g", demo, "-o", prog, "-ldl"])
    log = run_prog(prog)
    check("pvomp " in reader("stats", log).stdout, "the demo's log is not pvomp's")
    lines = [n for n, l in enumerate(open(demo), 1) if re.match(r"\s*#pragma omp parallel\b", l)]
    names = region_names(log)
    check(len(names) == len(lines), "the demo's summary names %d regions %s; demo.c has %d"
          % (len(names), names, len(lines)))
    got = []
    for n in names:
        m = re.fullmatch(r"main:(\d+) \(demo\.c\)", n)
        check(m is not None, "the demo's region %r is not named main:LINE (demo.c)" % n)
        got.append(int(m.group(1)))
    bounds = lines + [10 ** 9]
    for i, start in enumerate(lines):
        check(sum(start <= g < bounds[i + 1] for g in got) == 1,
              "no region named inside the construct at demo.c:%d: %s" % (start, names))


def test_stripped():
    prog = build("prog", "-g")
    bid = build_id(prog)
    dbg = os.path.join(TMP, "debug", ".build-id", bid[:2])
    os.makedirs(dbg)
    run(["objcopy", "--only-keep-debug", prog, os.path.join(dbg, bid[2:] + ".debug")])
    run(["strip", "--strip-all", prog])
    log = run_prog(prog)
    names = region_names(log)
    check(len(names) == 1 and re.fullmatch(r"prog\+0x[0-9a-f]+ \[no symbols\]", names[0]),
          "stripped: stats regions %s, wanted prog+offset [no symbols]" % names)
    names = region_names(log, "--debuginfo", os.path.join(TMP, "debug"))
    region = "main:%d (prog.c)" % marker_line(src("prog.c"), "REGION")
    check(names == [region], "with --debuginfo: %s, wanted %s" % (names, region))
    # The program gone: its debug file (same build-id) still names it.
    os.unlink(prog)
    names = region_names(log, "--debuginfo", os.path.join(TMP, "debug"))
    check(names == [region], "program removed, --debuginfo: %s, wanted %s" % (names, region))


def test_rebuilt():
    prog = build("prog", "-g")
    log = run_prog(prog)
    region = "main:%d (prog.c)" % marker_line(src("prog.c"), "REGION")
    check(region_names(log) == [region], "before the rebuild: %s" % region_names(log))
    old = build_id(prog)
    build("prog", "-g", "-DREBUILT")
    check(build_id(prog) != old, "the rebuild kept the build-id")
    names = region_names(log)
    check(len(names) == 1 and re.fullmatch(r"prog\+0x[0-9a-f]+ \[build-id differs\]", names[0]),
          "rebuilt: stats regions %s, wanted prog+offset [build-id differs]" % names)
    os.unlink(prog)
    names = region_names(log)
    check(len(names) == 1 and re.fullmatch(r"prog\+0x[0-9a-f]+ \[object missing\]", names[0]),
          "removed: stats regions %s, wanted prog+offset [object missing]" % names)


def test_merge():
    prog = build("prog", "-g")
    pattern = os.path.join(TMP, "run.%r.pvtrace")
    span = []
    for rank in (0, 1):
        t0 = time.monotonic_ns()
        traced(pattern, prog, OMPI_COMM_WORLD_RANK=rank)
        span.append((t0, time.monotonic_ns()))
        time.sleep(0.3)
    logs = [os.path.join(TMP, "run.%d.pvtrace" % r) for r in (0, 1)]
    for log in logs:
        check(os.path.exists(log), "%s not written (%%r)" % log)
    st = reader("stats", *logs).stdout
    for log in logs:
        check("== %s\n" % os.path.basename(log) in st, "stats lacks %s:\n%s" % (log, st))
    region = "main:%d (prog.c)" % marker_line(src("prog.c"), "REGION")
    m = re.search(r"== all 2 logs: parallel regions.*\n.*\n  %s\s+2\s+2\s+2\s" % re.escape(region),
                  st)
    check(m is not None, "no merged row for %s over 2 logs, 2 instances:\n%s" % (region, st))
    site = "main:%d (prog.c)" % marker_line(src("prog.c"), "TASK")
    m = re.search(r"== all 2 logs: tasks by name.*\n.*\n  %s\s+2\s+2\s+[12]\s" % re.escape(site), st)
    check(m is not None, "no merged task row for %s over 2 logs, 2 instances:\n%s" % (site, st))
    js = os.path.join(TMP, "merged.json")
    reader("timeline", "--json", js, *logs)
    doc = json.load(open(js))
    check(doc["otherData"].get("logs") == logs, "otherData.logs: %r" % doc["otherData"])
    procs = {e["pid"]: e["args"]["name"] for e in doc["traceEvents"]
             if e.get("ph") == "M" and e["name"] == "process_name"}
    check(len(procs) == 2, "2 processes wanted: %r" % procs)
    by_log = {}
    for pid, name in procs.items():
        k = [i for i, l in enumerate(logs) if name.startswith(os.path.basename(l) + ":")]
        check(len(k) == 1, "process %r names no log" % name)
        ts = [e["ts"] for e in doc["traceEvents"] if e.get("pid") == pid and "ts" in e]
        ends = [e["ts"] + e.get("dur", 0) for e in doc["traceEvents"]
                if e.get("pid") == pid and "ts" in e]
        check(ts, "no events of %r" % name)
        by_log[k[0]] = (min(ts), max(ends))
    # Rank 0 ran wholly before rank 1 was started: on one clock its last record
    # is before rank 1's first, by at least the pause between the runs and at
    # most the time from rank 0's launch to rank 1's exit (microseconds).
    gap = by_log[1][0] - by_log[0][1]
    lo = (span[1][0] - span[0][1]) / 1000
    hi = (span[1][1] - span[0][0]) / 1000
    check(lo <= gap <= hi, "gap between the ranks %.1f us, not within [%.1f, %.1f]"
          % (gap, lo, hi))
    check(by_log[0][0] >= 0, "the time base is not the earliest record")


def test_mpi():
    mpicc, mpirun = shutil.which("mpicc"), shutil.which("mpirun")
    check(mpicc and mpirun, "Open MPI is not installed (scripts/setup.sh installs "
                            "openmpi-bin and libopenmpi-dev)")
    prog = os.path.join(TMP, "mpi_prog")
    run([mpicc, "-fopenmp", "-g", "-O1", "-o", prog, src("mpi_prog.c")])
    pattern = os.path.join(TMP, "run.%r.pvtrace")
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("PVOMP_TRACE"):
            del env[k]
    lib = A.lib + ":" + env.get("LD_LIBRARY_PATH", "")
    run([mpirun, "--allow-run-as-root", "--oversubscribe", "-np", "2",
         "-x", "LD_LIBRARY_PATH=" + lib, "-x", "PVOMP_TRACE=" + pattern,
         "-x", "OMP_NUM_THREADS=2", prog], env=env)
    logs = [os.path.join(TMP, "run.%d.pvtrace" % r) for r in (0, 1)]
    for log in logs:
        check(os.path.exists(log), "rank log %s not written: %s" % (log, os.listdir(TMP)))
    st = reader("stats", *logs).stdout
    check(st.count("[%s]" % prog) == 2 and st.count("pvomp ") >= 2,
          "both logs must be pvomp's, of the MPI program:\n" + st)
    region = "main:%d (mpi_prog.c)" % marker_line(src("mpi_prog.c"), "MPI_BODY")
    check(re.search(r"\n  %s\s+2\s+2\s+2\s" % re.escape(region), st),
          "no merged row for %s over 2 logs:\n%s" % (region, st))
    js = os.path.join(TMP, "mpi.json")
    reader("timeline", "--json", js, *logs)
    ev = json.load(open(js))["traceEvents"]
    pids = sorted({e["pid"] for e in ev if e.get("ph") == "M" and e["name"] == "process_name"})
    check(len(pids) == 2, "2 processes wanted, got %s" % pids)
    span = {p: (min(e["ts"] for e in ev if e.get("pid") == p and "ts" in e),
                max(e["ts"] + e.get("dur", 0) for e in ev if e.get("pid") == p and "ts" in e))
            for p in pids}
    regions = {p: [e["ts"] for e in ev if e.get("pid") == p and e.get("ph") == "X"
                   and e.get("args", {}).get("fn_name") == region] for p in pids}
    for a, b in ((pids[0], pids[1]), (pids[1], pids[0])):
        check(len(regions[a]) >= 1, "rank pid %d: no region named %s" % (a, region))
        for t in regions[a]:
            check(span[b][0] < t < span[b][1], "pid %d's region at %.1f us is outside pid %d's "
                  "records [%.1f, %.1f]: not one time base" % (a, t, b, span[b][0], span[b][1]))


def main():
    global A, NAMES
    A = testrun.program_test_args()
    NAMES = os.path.join(A.src, "tests", "trace", "names")
    testrun.run_test(globals(), A.test, "pvomp-names")

if __name__ == "__main__":
    main()
