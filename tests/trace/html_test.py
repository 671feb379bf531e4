#!/usr/bin/env python3
"""The HTML report (pvomp-trace timeline --html) in a real browser:

    html_test.py TEST --bin BUILD/bin --lib BUILD/lib --src SOURCEDIR --cc CC

report: tests/trace/html/regions.c on pvomp, traced; its report is one
        self-contained file whose embedded data agrees with the log; in
        headless chromium the page draws every row, names the region
        main:LINE (regions.c) at its pragma's line, and its controls work:
        the test appends a script to a copy of the page that sends the
        canvas real DOM events (wheel, drag, mouse move, click) and the
        region table clicks, and checks the view, the tooltip and the
        drill-down they produce; the URL hash (view=, hover=, region=)
        opens the same view, tooltip and drill-down; screenshots show the
        colours of the kinds, and a zoom into one critical section fills the
        width with it.
tasks:  tests/trace/names/tasks.c (tasks from two constructs): the page names
        both by their pragma's function:line; hovering and clicking a task
        interval show its name, and the Tasks table lists each site's
        instances, one of which opens its breakdown; so does the hash
        link task=FN,INSTANCE.
merged: two runs as ranks 0 and 1 (PVOMP_TRACE=run.%r.pvtrace): one page
        with a row per log's thread, labelled by log, on one time base (the
        second run's regions after the first's), both runs' regions under the
        one function name; the browser draws every row.  --time-base realtime
        agrees with the monotonic base; --clock-offset LOG=NS moves LOG by NS.
large:  a tight barrier loop writes a log of more than 1M records; its
        report opens (the page's script finishes and draws) and the
        screenshot shows the barrier and spin lanes.  The time it took is
        printed, not judged (bench/trace/html.sh measures it)."""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402
import testrun  # noqa: E402
from testrun import check, fail, marker_line, run  # noqa: E402,F401

A = None
TMP = None
ROW_H, GAP = 22, 2
COLORS = {"parallel": (0xb9, 0xe4, 0xb4), "barrier": (0xf4, 0xa3, 0x00),
          "spin": (0xe0, 0x30, 0x1e), "critical": (0x8e, 0x44, 0xad), "region": (0x1b, 0x5e, 0x20)}



def build(name, src=("html", "regions.c")):
    out = os.path.join(TMP, name)
    run([A.cc, "-fopenmp", "-g", "-O1", "-o", out, os.path.join(A.src, "tests", "trace", *src)])
    return out


def traced(log, *cmd, **extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PVOMP_", "OMP_", "GOMP_"))}
    env.update(PVOMP_TRACE=log, OMP_NUM_THREADS="2",
               LD_LIBRARY_PATH=A.lib + ":" + env.get("LD_LIBRARY_PATH", ""), **extra)
    run(cmd, env=env)
    if "%r" in log:
        log = log.replace("%r", extra["OMPI_COMM_WORLD_RANK"])
    # Only pvomp writes this log: it names itself in pvtrace_process.
    dump = reader("dump", "--all", log).stdout
    check(re.search(r'^pvtrace_process .*runtime="pvomp', dump, re.M) is not None,
          "the log does not say pvomp wrote it:\n" + dump[:2000])


def reader(*args):
    return run([os.path.join(A.bin, "pvomp-trace")] + list(args))


def page_data(text):
    """The report's embedded data, decoded independently of report.js."""
    m = re.search(r'<script id="pvdata" type="application/json">(.*?)</script>', text, re.S)
    check(m is not None, "no embedded data in the report")
    d = json.loads(m.group(1))
    rows = []
    for r in d["rows"]:
        lanes = {}
        for k, a in r["iv"].items():
            check(len(a) % 5 == 0, "a row's interval list is not 5-tuples")
            t, ivs = 0, []
            for i in range(0, len(a), 5):
                t += a[i]
                ivs.append({"s": t, "e": t + a[i + 1], "n": a[i + 2], "busy": a[i + 3],
                            "fn": a[i + 4]})
            lanes[d["kinds"][int(k)]] = ivs
        rows.append({"label": r["label"], "lanes": lanes})
    return d, rows


def fmt(ns):
    """report.js's fmt()."""
    a = abs(ns)
    if a >= 1e9:
        return "%.3f s" % (ns / 1e9)
    if a >= 1e6:
        return "%.3f ms" % (ns / 1e6)
    if a >= 1e3:
        return "%.3f µs" % (ns / 1e3)
    return "%.0f ns" % ns


def body_attrs(dom):
    m = re.search(r"<body([^>]*)>", dom)
    check(m is not None, "no <body> in the DOM")
    return dict(re.findall(r'data-([\w-]+)="([^"]*)"', m.group(1)))


def element(dom, ident):
    """The inner HTML of the element with id `ident` (no nesting of its tag)."""
    m = re.search(r'<(\w+)[^>]*\bid="%s"[^>]*>(.*?)</\1>' % ident, dom, re.S)
    check(m is not None, "no #%s in the DOM" % ident)
    return m.group(2)


def text_of(html):
    return re.sub(r"<[^>]+>", " ", html).replace("&amp;", "&")


def url(path, frag=""):
    return "file://" + path + ("#" + frag if frag else "")


# What the appended script does, in order; each step writes what it saw into
# <pre id="probe"> as JSON.  Real DOM events on the real elements: the
# report's own handlers run.
PROBE = r"""
  const out = {}, cv = document.getElementById("tl"), b = document.body;
  const box = () => cv.getBoundingClientRect();
  const at = (type, x, y, extra) => {
    const r = box(), init = Object.assign({ bubbles: true, cancelable: true,
      clientX: r.left + x, clientY: r.top + y, detail: 1 }, extra || {});
    cv.dispatchEvent(type === "wheel" ? new WheelEvent(type, init) : new MouseEvent(type, init));
    if (type === "mouseup") window.dispatchEvent(new MouseEvent(type, init));
  };
  const view = () => b.dataset.view.split(",").map(Number);
  out.width = cv.width;
  out.start = view();
  // Wheel up at a quarter of the width: zooms in around that time.
  at("wheel", cv.width / 4, 5, { deltaY: -100 });
  out.wheel = view();
  // Drag left by 100 px: the view moves later in time by 100 px' worth.
  at("mousedown", 600, 5); at("mousemove", 550, 5); at("mousemove", 500, 5);
  cv.dispatchEvent(new MouseEvent("mouseup", { bubbles: true }));
  window.dispatchEvent(new MouseEvent("mouseup", { clientX: box().left + 500, clientY: box().top + 5 }));
  out.drag = view();
  // The whole log again (the button), then hover and click the probe point.
  document.getElementById("zreset").click();
  out.reset = view();
  const P = __POINT__;
  at("mousemove", P.x, P.y);
  out.tip = document.getElementById("tip").textContent;
  out.tipShown = document.getElementById("tip").style.display;
  at("mousedown", P.x, P.y); at("mouseup", P.x, P.y);
  out.detail = document.getElementById("detail").textContent;
  // The region table: the first region, then its third instance.
  document.querySelector("#regions tr.pick").click();
  out.instances = document.querySelectorAll("#instances tr.pick").length;
  document.querySelectorAll("#instances tr.pick")[2].click();
  out.region = view();
  out.regionDetail = document.getElementById("detail").textContent;
"""


# The task probe: hover and click a task interval (at time P.t, y P.y of
# the canvas, in the view the page opened with), then the task table's row
# named P.name and its first instance.
TASK_PROBE = r"""
  const out = {}, cv = document.getElementById("tl"), P = __POINT__;
  const v = document.body.dataset.view.split(",").map(Number);
  const r = cv.getBoundingClientRect(), y = r.top + P.y;
  const x = r.left + (P.t - v[0]) * cv.width / (v[1] - v[0]);
  const ev = (type) => new MouseEvent(type, { bubbles: true, clientX: x, clientY: y });
  cv.dispatchEvent(ev("mousemove"));
  out.tip = document.getElementById("tip").textContent;
  cv.dispatchEvent(ev("mousedown")); window.dispatchEvent(ev("mouseup"));
  out.detail = document.getElementById("detail").textContent;
  const row = Array.from(document.querySelectorAll("#tasks tr.pick"))
    .find((tr) => tr.firstChild.textContent === P.name);
  out.found = !!row;
  if (row) {
    row.click();
    out.instances = document.querySelectorAll("#instances tr.pick").length;
    out.heading = document.querySelector("#instances h3").textContent;
    document.querySelector("#instances tr.pick").click();
    out.instanceDetail = document.getElementById("detail").textContent;
  }
"""


def probe(chromium, html, point, script=PROBE, frag=""):
    """Run `script` (statements filling `out`, with __POINT__ for `point`)
    in a copy of the page; what it put in `out`."""
    text = open(html, encoding="utf-8").read()
    page = os.path.join(TMP, "probe.html")
    js = ("<script>\n(function () {" + script.replace("__POINT__", json.dumps(point)) +
          "  const pre = document.createElement(\"pre\");\n  pre.id = \"probe\";\n"
          "  pre.textContent = JSON.stringify(out);\n  document.body.appendChild(pre);\n"
          "})();\n</script>\n")
    with open(page, "w", encoding="utf-8") as f:
        f.write(text.replace("</body>", js + "</body>"))
    dom, _ = browser.dom(chromium, TMP, url(page, frag))
    m = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    check(m is not None, "the probe script did not finish: " + dom[-3000:])
    return json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&")
                      .replace("&lt;", "<").replace("&gt;", ">"))


def traced_report(prog, name, *args):
    """Run prog traced, make its report NAME.html: (path, text, data, rows);
    the page is self-contained."""
    log = os.path.join(TMP, name + ".pvtrace")
    traced(log, prog, *args)
    html = os.path.join(TMP, name + ".html")
    reader("timeline", "--html", html, log)
    text = open(html, encoding="utf-8").read()
    check("://" not in text and "<link" not in text and " src=" not in text,
          "the report must be self-contained (no external resources)")
    d, rows = page_data(text)
    return html, text, d, rows


def test_report():
    chromium = browser.chromium_or_skip("report")
    rounds = 12
    html, text, d, rows = traced_report(build("regions"), "report", rounds)
    src = os.path.join(A.src, "tests", "trace", "html", "regions.c")
    line = marker_line(src, "region")
    name = "main:%d (regions.c)" % line
    check(d["fns"] == [name], "the page's functions: %r, wanted [%r]" % (d["fns"], name))
    check(len(d["regions"]) == rounds, "%d region instances in the page, wanted %d"
          % (len(d["regions"]), rounds))
    threads = [r for r in rows if r["label"].startswith("thread ")]
    check(len(threads) == 2, "rows: %r" % [r["label"] for r in rows])
    total = sum(len(v) for r in rows for v in r["lanes"].values())
    for r in threads:
        check(len(r["lanes"].get("parallel", [])) == rounds and len(r["lanes"].get("critical", [])) == rounds,
              "%s: %d parallel, %d critical intervals, wanted %d each" % (
                  r["label"], len(r["lanes"].get("parallel", [])),
                  len(r["lanes"].get("critical", [])), rounds))
        for kind, ivs in r["lanes"].items():
            check(all(a["s"] <= b["s"] for a, b in zip(ivs, ivs[1:])), "%s %s: not sorted" % (r["label"], kind))
            check(all(0 <= v["s"] <= v["e"] <= d["t1"] for v in ivs), "%s %s: out of range" % (r["label"], kind))

    # The whole log as the page opens.
    dom, secs = browser.dom(chromium, TMP, url(html))
    attrs = body_attrs(dom)
    check(attrs.get("ready") == "1", "the page's script did not finish: %r" % attrs)
    check(int(attrs["intervals"]) == total, "the page decoded %s intervals, the data has %d"
          % (attrs["intervals"], total))
    check(attrs["view"] == "0,%d" % d["t1"], "initial view %s, wanted 0,%d" % (attrs["view"], d["t1"]))
    box = dom[dom.index('id="labels"'):dom.index('id="plot"')]
    labels = re.findall(r'<div class="lbl">([^<]*)</div>', box)
    check(labels[1:] == [r["label"] for r in rows], "labels %r" % labels)
    print("report: %d intervals, %d regions; opened in %.1f s (script %s ms)"
          % (total, len(d["regions"]), secs, attrs["draw-ms"]))

    # Hash links: a view, a hover, a region.
    primary = next(r for r in threads if r["lanes"].get("region"))
    pi = rows.index(primary)
    par = max(primary["lanes"]["parallel"], key=lambda v: v["e"] - v["s"])
    mid = (par["s"] + par["e"]) // 2
    dom, _ = browser.dom(chromium, TMP, url(html, "hover=%d,%d" % (pi, mid)))
    tip = text_of(element(dom, "tip"))
    want = "%s: parallel · %s · %s from %s" % (primary["label"], name, fmt(par["e"] - par["s"]), fmt(par["s"]))
    check(want in tip, "hover tooltip %r, wanted %r" % (tip, want))
    v0, v1 = d["regions"][3][1], d["regions"][3][1] + d["regions"][3][2]
    dom, _ = browser.dom(chromium, TMP, url(html, "view=%d,%d" % (v0, v1)))
    check(body_attrs(dom)["view"] == "%d,%d" % (v0, v1), "view= gave %s" % body_attrs(dom)["view"])
    dom, _ = browser.dom(chromium, TMP, url(html, "region=0,3"))
    inst = re.findall(r'<tr class="pick" data-r="\d+">', dom[dom.index('id="instances"'):])
    check(len(inst) == rounds, "region=0,3: %d instances listed, wanted %d" % (len(inst), rounds))
    detail = text_of(dom[dom.index('id="detail"'):dom.index("<h2>Regions")])
    check(name in detail and all(r["label"] in detail for r in threads),
          "region=0,3: the breakdown %r lacks the region or a thread" % detail)
    rv = [int(x) for x in body_attrs(dom)["view"].split(",")]
    check(rv[0] <= v0 and rv[1] >= v1 and rv[1] - rv[0] < 1.2 * (v1 - v0) + 10,
          "region=0,3: view %r around [%d, %d]" % (rv, v0, v1))

    # The controls, with real events (the probe script).
    y = pi * (ROW_H + GAP) + ROW_H // 2
    p = probe(chromium, html, {"x": 0, "y": y})   # x set below, once the width is known
    x = round(mid * p["width"] / d["t1"])
    p = probe(chromium, html, {"x": x, "y": y})
    t1 = d["t1"]
    check(p["start"] == [0, t1], "probe: start view %r" % p["start"])
    w0, w1 = p["wheel"]
    pivot = t1 / 4
    check(abs((w1 - w0) - 0.8 * t1) < 0.01 * t1 and abs(pivot - (w0 + (w1 - w0) / 4)) < 0.01 * t1,
          "wheel at a quarter width: view %r, wanted 80%% of %d around %d" % (p["wheel"], t1, pivot))
    shift = 100 * (w1 - w0) / p["width"]
    check(abs((p["drag"][0] - w0) - shift) < 0.02 * (w1 - w0) and abs((p["drag"][1] - p["drag"][0]) - (w1 - w0)) < 2,
          "drag by -100 px: view %r from %r, wanted +%.0f ns" % (p["drag"], p["wheel"], shift))
    check(p["reset"] == [0, t1], "whole-log button: view %r" % p["reset"])
    check(p["tipShown"] == "block" and want in p["tip"], "mouse over: tooltip %r, wanted %r" % (p["tip"], want))
    check(name in p["detail"] and all(r["label"] in p["detail"] for r in threads),
          "click: breakdown %r" % p["detail"])
    check(p["instances"] == rounds, "region row click: %d instances" % p["instances"])
    g = d["regions"][2]
    check(p["region"][0] <= g[1] and p["region"][1] >= g[1] + g[2], "instance click: view %r, region %r" % (p["region"], g))
    print("report: wheel %r, drag %r, tooltip %r" % (p["wheel"], p["drag"], p["tip"]))

    # Pixels: the whole log, then a zoom into one critical section.
    shot = browser.screenshot(chromium, TMP, url(html), os.path.join(TMP, "whole.png"))
    whole = browser.count_colors(shot, COLORS)
    for k in ("parallel", "barrier", "spin", "region"):
        check(whole[k] >= 300, "whole log: %d pixels of %s (%r)" % (whole[k], k, whole))
    crit = max((v for r in threads for v in r["lanes"]["critical"]), key=lambda v: v["e"] - v["s"])
    pad = (crit["e"] - crit["s"]) // 10 + 1
    zoomed = browser.count_colors(browser.screenshot(
        chromium, TMP, url(html, "view=%d,%d" % (crit["s"] - pad, crit["e"] + pad)),
        os.path.join(TMP, "zoom.png")), COLORS)
    # The critical lane is 8 pixels high; at whole view the section is a pixel or two wide.
    check(zoomed["critical"] >= 8 * 0.7 * p["width"] and zoomed["critical"] > 10 * whole["critical"],
          "zoom into a critical section: %d pixels of critical (whole view %d, width %d)"
          % (zoomed["critical"], whole["critical"], p["width"]))
    print("report: pixels whole %r; zoomed critical %d" % (whole, zoomed["critical"]))


def test_tasks():
    chromium = browser.chromium_or_skip("tasks")
    html, text, d, rows = traced_report(build("tasks", src=("names", "tasks.c")), "tasks")
    src = os.path.join(A.src, "tests", "trace", "names", "tasks.c")
    counts = {s: int(re.search(r"#define %s_TASKS (\d+)" % s[-1], open(src).read()).group(1))
              for s in ("SITE_A", "SITE_B")}
    want = {"main:%d (tasks.c)" % marker_line(src, "SITE_A"): counts["SITE_A"],
            "spawn_b:%d (tasks.c)" % marker_line(src, "SITE_B"): counts["SITE_B"]}
    for n in want:
        check(n in d["fns"], "the page's names %r lack the task %r" % (d["fns"], n))
    # The longest task run, zoomed to (its neighbours are a pixel away in
    # the whole log): hover it (its lane: y 3..11 of the row), click it,
    # then open its site in the task table.
    ri, iv = max(((i, v) for i, r in enumerate(rows) for v in r["lanes"].get("task", [])),
                 key=lambda p: p[1]["e"] - p[1]["s"])
    name = d["fns"][iv["fn"]]
    check(name in want, "the longest task is named %r, not one of %r" % (name, sorted(want)))
    pad = (iv["e"] - iv["s"]) // 4 + 1
    p = probe(chromium, html, {"t": (iv["s"] + iv["e"]) / 2, "y": ri * (ROW_H + GAP) + 7,
                               "name": name}, TASK_PROBE,
              frag="view=%d,%d" % (iv["s"] - pad, iv["e"] + pad))
    tip = "%s: task · %s · " % (rows[ri]["label"], name)
    check(tip in p["tip"], "hover on a task: tooltip %r, wanted %r..." % (p["tip"], tip))
    check(tip in p["detail"], "click on a task: breakdown %r, wanted %r..." % (p["detail"], tip))
    check(p["found"], "the task table has no row %r" % name)
    check(p["instances"] == want[name] and p["heading"] == "task %s: %d instance(s)"
          % (name, want[name]), "task row click: %d instances, heading %r; wanted %d"
          % (p["instances"], p["heading"], want[name]))
    check(("task %s at " % name) in p["instanceDetail"],
          "task instance click: breakdown %r" % p["instanceDetail"])
    # The hash link to a task's run opens the same list and breakdown.
    dom, _ = browser.dom(chromium, TMP, url(html, "task=%d,1" % iv["fn"]))
    inst = re.findall(r'<tr class="pick" data-r="\d+">', dom[dom.index('id="instances"'):])
    check(len(inst) == want[name], "task=%d,1: %d runs listed, wanted %d"
          % (iv["fn"], len(inst), want[name]))
    detail = text_of(dom[dom.index('id="detail"'):dom.index("<h2>Regions")])
    check(("task %s at " % name) in detail, "task=%d,1: the breakdown %r" % (iv["fn"], detail))
    print("tasks: tooltip %r; %s: %d instances" % (p["tip"], name, p["instances"]))


def test_merged():
    chromium = browser.chromium_or_skip("merged")
    prog = build("regions")
    pattern = os.path.join(TMP, "run.%r.pvtrace")
    for rank in (0, 1):
        traced(pattern, prog, 3 + rank, OMPI_COMM_WORLD_RANK=str(rank))
    logs = [os.path.join(TMP, "run.%d.pvtrace" % k) for k in (0, 1)]
    html = os.path.join(TMP, "merged.html")
    reader("timeline", "--html", html, *logs)
    text = open(html, encoding="utf-8").read()
    d, rows = page_data(text)
    labels = [r["label"] for r in rows]
    for k in (0, 1):
        mine = [l for l in labels if l.startswith("run.%d.pvtrace: thread " % k)]
        check(len(mine) == 2, "log %d: rows %r" % (k, labels))
    check(len(d["fns"]) == 1 and d["fns"][0].startswith("main:"), "functions %r" % d["fns"])
    check(len(d["regions"]) == 3 + 4, "%d regions, wanted 7" % len(d["regions"]))
    def span(k):
        ivs = [v for r in rows if r["label"].startswith("run.%d." % k) for v in r["lanes"].get("region", [])]
        return min(v["s"] for v in ivs), max(v["e"] for v in ivs), len(ivs)
    s0, e0, n0 = span(0)
    s1, e1, n1 = span(1)
    check((n0, n1) == (3, 4), "regions per log %r" % ((n0, n1),))
    check(e0 < s1, "the second run's regions [%d, %d] do not follow the first's [%d, %d]" % (s1, e1, s0, e0))
    # Other time bases: CLOCK_REALTIME (several hosts) puts the logs of one
    # host where CLOCK_MONOTONIC does, to within what a clock step between the
    # runs could move (1 ms here); a given offset moves that log by exactly it.
    def second_after_first(*opts):
        out = os.path.join(TMP, "tb.html")
        reader("timeline", "--html", out, *opts, *logs)
        _, rs = page_data(open(out, encoding="utf-8").read())
        first = [v for r in rs if r["label"].startswith("run.0.") for v in r["lanes"].get("region", [])]
        second = [v for r in rs if r["label"].startswith("run.1.") for v in r["lanes"].get("region", [])]
        return min(v["s"] for v in second) - min(v["s"] for v in first)
    mono = second_after_first()
    real = second_after_first("--time-base", "realtime")
    check(abs(real - mono) < 1000000, "realtime base: %d ns between the runs, monotonic %d" % (real, mono))
    moved = second_after_first("--clock-offset", "run.1.pvtrace=1000000000")
    check(abs(moved - mono - 1000000000) <= 1, "--clock-offset 1 s moved the second log by %d ns" % (moved - mono))
    p = subprocess.run([os.path.join(A.bin, "pvomp-trace"), "timeline", "--html", "--clock-offset",
                        "nosuch.pvtrace=5", *logs], capture_output=True, text=True)
    check(p.returncode == 1 and "no such log" in p.stderr and p.stderr.count("\n") == 1,
          "a --clock-offset naming no log: exit %d, %r" % (p.returncode, p.stderr))
    dom, _ = browser.dom(chromium, TMP, url(html))
    attrs = body_attrs(dom)
    check(attrs.get("ready") == "1" and int(attrs["drawn"]) > 0, "merged page: %r" % attrs)
    box = dom[dom.index('id="labels"'):dom.index('id="plot"')]
    check(re.findall(r'<div class="lbl">([^<]*)</div>', box)[1:] == labels, "merged page labels")
    print("merged: rows %r; regions %d and %d, the second run from %s after the first's end"
          % (labels, n0, n1, fmt(s1 - e0)))


def test_large():
    chromium = browser.chromium_or_skip("large")
    prog = build("regions")
    log = os.path.join(TMP, "loop.pvtrace")
    # The record count depends on timing (spin records, and records dropped
    # while the writer is off its CPU): 300000 rounds wrote 954306 once under
    # load.  Up to three runs, each with twice the rounds, until the log
    # holds more than 1M records.
    rounds = 300000
    for attempt in range(3):
        traced(log, prog, rounds, "loop")
        stats = reader("stats", log).stdout
        m = re.search(r"^records: +(\d+)", stats, re.M)
        check(m is not None, "stats without a record count:\n" + stats[:1000])
        records = int(m.group(1))
        if records >= 1000000:
            break
        print("large: %d rounds wrote %d records (< 1M): again with twice the rounds"
              % (rounds, records))
        rounds *= 2
    check(records >= 1000000, "the loop wrote %d records in its third run, wanted >= 1M" % records)
    html = os.path.join(TMP, "large.html")
    reader("timeline", "--html", html, log)
    size = os.path.getsize(html)
    dom, secs = browser.dom(chromium, TMP, url(html))
    attrs = body_attrs(dom)
    check(attrs.get("ready") == "1", "the large page's script did not finish: %r" % attrs)
    check(int(attrs["intervals"]) > 0 and int(attrs["drawn"]) > 0, "nothing drawn: %r" % attrs)
    shot = browser.count_colors(browser.screenshot(chromium, TMP, url(html),
                                                   os.path.join(TMP, "large.png")), COLORS)
    check(shot["barrier"] >= 300 and shot["spin"] >= 100, "large: pixels %r" % shot)
    print("large: %d records, page %.1f MB, %s intervals, opened in %.1f s (script %s ms), pixels %r"
          % (records, size / 1e6, attrs["intervals"], secs, attrs["draw-ms"], shot))


def test_advise():
    """The report's Advice section (pvomp-trace advise's table) on the serial
    pathology of tests/trace/advise/patho.c, as chromium shows the page."""
    chromium = browser.chromium_or_skip("advise")
    src = ("advise", "patho.c")
    prog = os.path.join(TMP, "patho")
    run([A.cc, "-fopenmp", "-g", "-O1", "-I", os.path.join(A.src, "tests", "common"), "-o", prog,
         os.path.join(A.src, "tests", "trace", *src), "-ldl"])
    html, text, d, rows = traced_report(prog, "advise", "serial", "plain")
    dom, _ = browser.dom(chromium, TMP, url(html))
    check('<section id="advise">' in dom, "no advice section in the page")
    sec = dom[dom.index('<section id="advise">'):]
    sec = sec[:sec.index("</section>")]
    cells = [re.findall(r"<td>(.*?)</td>", r) for r in re.findall(r"<tr>(.*?)</tr>", sec, re.S)]
    cells = [c for c in cells if len(c) == 6]
    check(cells, "the advice table has no findings:\n" + sec)
    line = marker_line(os.path.join(A.src, "tests", "trace", *src), "PLAIN-serial")
    serial = [c for c in cells if c[1] == "serial"]
    check(serial and "patho.c" in serial[0][4] and "parallelise" in serial[0][5],
          "no serial finding at patho.c with its advice:\n%s" % cells)
    got = int(serial[0][4].split("(")[0].split(":")[-1])
    check(line <= got <= line + 2, "serial finding at line %d, the region is at %d" % (got, line))
    check([float(c[2]) for c in cells] == sorted((float(c[2]) for c in cells), reverse=True),
          "the advice is not ranked by gain:\n%s" % cells)
    print("advise: %d findings in the page; serial at %s" % (len(cells), serial[0][4]))


def main():
    global A
    ap = argparse.ArgumentParser()
    ap.add_argument("test")
    ap.add_argument("--bin", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--cc", required=True)
    A = ap.parse_args()
    testrun.run_test(globals(), A.test, "pvomp-html")


if __name__ == "__main__":
    main()
