// pvomp-trace timeline --html: the interactive timeline of the report.
// The data is the JSON in <script id="pvdata"> (html.c writes it): per row
// (a thread, or the process-wide phantom row) and interval kind, a flat list
// of 5-tuples [start - previous start, duration, intervals merged, busy ns,
// name index (a region's function, a task's site) or -1], times in ns from
// the first record.
// Zoom: wheel or +/- (at the cursor), pan: drag or the arrow keys, reset:
// double click or 0.  Hover shows an interval's details (a region's or a
// task's name too); clicking a region in "Regions" (a task in "Tasks")
// lists its instances, and an instance zooms to it and shows what each
// thread did meanwhile.  The URL's hash keeps the view: #view=START,END
// (ns) and, for links to one detail, hover=ROW,NS, region=FN,INSTANCE and
// task=FN,INSTANCE.
"use strict";
(function () {
  const T0 = performance.now();
  const D = JSON.parse(document.getElementById("pvdata").textContent);
  const ROW_H = 22, GAP = 2, LABEL_W = 150;
  const canvas = document.getElementById("tl");
  const axis = document.getElementById("axis");
  const tip = document.getElementById("tip");
  const rangeEl = document.getElementById("range");
  const ctx = canvas.getContext("2d", { alpha: false });
  const actx = axis.getContext("2d", { alpha: false });

  // Decode the rows into typed arrays, one set per (row, kind).
  let total = 0;
  const rows = D.rows.map(function (r) {
    const lanes = {};
    for (const k in r.iv) {
      const a = r.iv[k], m = a.length / 5;
      const s = new Float64Array(m), e = new Float64Array(m), n = new Uint32Array(m),
            busy = new Float64Array(m), fn = new Int32Array(m);
      let t = 0, maxEnd = 0;
      const endMax = new Float64Array(m);   // the latest end up to i: nested intervals
      for (let i = 0; i < m; i++) {
        t += a[5 * i];
        s[i] = t; e[i] = t + a[5 * i + 1]; n[i] = a[5 * i + 2];
        busy[i] = a[5 * i + 3]; fn[i] = a[5 * i + 4];
        maxEnd = Math.max(maxEnd, e[i]); endMax[i] = maxEnd;
      }
      total += m;
      lanes[k] = { s: s, e: e, n: n, busy: busy, fn: fn, endMax: endMax };
    }
    return { label: r.label, lanes: lanes };
  });

  let v0 = 0, v1 = Math.max(D.t1, 1);          // the view, ns
  const W = () => canvas.width;
  const xOf = (t) => (t - v0) * W() / (v1 - v0);
  const tOf = (x) => v0 + x * (v1 - v0) / W();

  // First index whose interval may reach into [t, ...): intervals are sorted
  // by start; endMax lets nested (overlapping) ones be found too.
  function firstFrom(l, t) {
    let lo = 0, hi = l.s.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (l.endMax[mid] < t) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  const esc = (x) => String(x).replace(/[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;" })[c]);

  function fmt(ns) {
    const a = Math.abs(ns);
    if (a >= 1e9) return (ns / 1e9).toFixed(3) + " s";
    if (a >= 1e6) return (ns / 1e6).toFixed(3) + " ms";
    if (a >= 1e3) return (ns / 1e3).toFixed(3) + " µs";
    return ns.toFixed(0) + " ns";
  }

  let drawn = 0;
  function draw() {
    const w = W();
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, w, canvas.height);
    drawn = 0;
    rows.forEach(function (r, ri) {
      const y0 = ri * (ROW_H + GAP);
      ctx.fillStyle = "#f7f7f7";
      ctx.fillRect(0, y0, w, ROW_H);
      D.lanes.forEach(function (lane) {
        const l = r.lanes[lane[0]];
        if (!l) return;
        ctx.fillStyle = D.colors[lane[0]];
        let lastX = -1;
        for (let i = firstFrom(l, v0); i < l.s.length && l.s[i] <= v1; i++) {
          if (l.e[i] < v0) continue;
          const x0 = Math.max(0, Math.floor(xOf(l.s[i])));
          const x1 = Math.min(w, Math.max(x0 + 1, Math.ceil(xOf(l.e[i]))));
          if (x1 <= lastX) continue;             // this pixel column is drawn already
          const from = Math.max(x0, lastX);
          ctx.fillRect(from, y0 + lane[1], x1 - from, lane[2]);
          lastX = x1;
          drawn++;
        }
      });
    });
    drawAxis();
    rangeEl.textContent = "view " + fmt(v0) + " – " + fmt(v1) + " (" + fmt(v1 - v0) + " of " +
      fmt(D.t1) + "), " + drawn + " of " + total + " intervals drawn";
    document.body.dataset.view = Math.round(v0) + "," + Math.round(v1);
    document.body.dataset.drawn = drawn;
  }

  function drawAxis() {
    const w = axis.width, span = v1 - v0;
    actx.fillStyle = "#ffffff";
    actx.fillRect(0, 0, w, axis.height);
    let step = Math.pow(10, Math.floor(Math.log10(span / 8 || 1)));
    if (span / step > 40) step *= 5; else if (span / step > 16) step *= 2;
    actx.fillStyle = "#444";
    actx.font = "10px sans-serif";
    for (let t = Math.ceil(v0 / step) * step; t <= v1; t += step) {
      const x = Math.round(xOf(t)) + 0.5;
      actx.fillRect(x, 14, 1, 6);
      actx.fillText(fmt(t), x + 2, 11);
    }
  }

  function setView(a, b) {
    const min = 10;                               // ns: the finest view
    if (b - a < min) { const c = (a + b) / 2; a = c - min / 2; b = c + min / 2; }
    const span = b - a, full = Math.max(D.t1, 1);
    if (span >= full) { a = 0; b = full; }
    else if (a < 0) { b -= a; a = 0; }
    else if (b > full) { a -= b - full; b = full; }
    v0 = a; v1 = b;
    draw();
    const h = new URLSearchParams(location.hash.slice(1));
    h.set("view", Math.round(v0) + "," + Math.round(v1));
    history.replaceState(null, "", "#" + h.toString().replace(/%2C/g, ","));
  }

  function zoom(factor, x) {
    const t = tOf(x);
    setView(t - (t - v0) * factor, t + (v1 - t) * factor);
  }

  // The interval under (x, y) of the canvas, or null.
  function hit(x, y) {
    const ri = Math.floor(y / (ROW_H + GAP)), dy = y - ri * (ROW_H + GAP);
    if (ri < 0 || ri >= rows.length) return null;
    const t = tOf(x), slop = 2 * (v1 - v0) / W();     // two pixels
    for (let li = D.lanes.length - 1; li >= 0; li--) {  // the topmost drawn first
      const lane = D.lanes[li], l = rows[ri].lanes[lane[0]];
      if (!l || dy < lane[1] || dy >= lane[1] + lane[2]) continue;
      let best = -1;
      for (let i = firstFrom(l, t - slop); i < l.s.length && l.s[i] <= t + slop; i++)
        if (l.e[i] >= t - slop && (best < 0 || l.s[i] >= l.s[best])) best = i;  // innermost
      if (best >= 0) return { row: ri, kind: lane[0], l: l, i: best };
    }
    return null;
  }

  function describe(h) {
    const l = h.l, i = h.i, parts = [rows[h.row].label + ": " + D.kinds[h.kind]];
    if (l.fn[i] >= 0) parts.push(D.fns[l.fn[i]]);
    parts.push(fmt(l.e[i] - l.s[i]) + " from " + fmt(l.s[i]));
    if (l.n[i] > 1) parts.push(l.n[i] + " intervals merged, " + fmt(l.busy[i]) + " busy");
    return parts.join(" · ");
  }

  function showTip(h, px, py) {
    if (!h) { tip.style.display = "none"; return; }
    tip.textContent = describe(h);
    tip.style.display = "block";
    tip.style.left = (px + 12) + "px";
    tip.style.top = (py + 12) + "px";
  }

  // Drag to pan; wheel to zoom; double click to reset.
  // A press without a move is a click: the interval's breakdown.
  let drag = null;
  canvas.addEventListener("mousedown", function (ev) {
    drag = { x: ev.clientX, a: v0, b: v1, moved: false };
  });
  window.addEventListener("mouseup", function (ev) {
    const d = drag;
    drag = null;
    if (!d || d.moved) return;
    const r = canvas.getBoundingClientRect(), h = hit(ev.clientX - r.left, ev.clientY - r.top);
    if (h) breakdown(h.l.s[h.i], h.l.e[h.i], describe(h));
  });
  canvas.addEventListener("mousemove", function (ev) {
    const r = canvas.getBoundingClientRect();
    if (drag && (drag.moved || Math.abs(ev.clientX - drag.x) > 3)) {
      drag.moved = true;
      const dt = (ev.clientX - drag.x) * (drag.b - drag.a) / W();
      setView(drag.a - dt, drag.b - dt);
      return;
    }
    showTip(hit(ev.clientX - r.left, ev.clientY - r.top), ev.pageX, ev.pageY);
  });
  canvas.addEventListener("mouseleave", function () { tip.style.display = "none"; });
  canvas.addEventListener("wheel", function (ev) {
    ev.preventDefault();
    const r = canvas.getBoundingClientRect();
    zoom(ev.deltaY < 0 ? 0.8 : 1.25, ev.clientX - r.left);
  }, { passive: false });
  canvas.addEventListener("dblclick", function () { setView(0, D.t1); });
  window.addEventListener("keydown", function (ev) {
    const span = v1 - v0;
    if (ev.key === "+" || ev.key === "=") zoom(0.5, W() / 2);
    else if (ev.key === "-") zoom(2, W() / 2);
    else if (ev.key === "0") setView(0, D.t1);
    else if (ev.key === "ArrowLeft") setView(v0 - span / 4, v1 - span / 4);
    else if (ev.key === "ArrowRight") setView(v0 + span / 4, v1 + span / 4);
  });
  document.getElementById("zin").onclick = function () { zoom(0.5, W() / 2); };
  document.getElementById("zout").onclick = function () { zoom(2, W() / 2); };
  document.getElementById("zreset").onclick = function () { setView(0, D.t1); };

  // What each thread did in [a, b]: time per kind (merged intervals count
  // their busy share of the overlap).
  function breakdown(a, b, title) {
    const out = document.getElementById("detail");
    const kinds = D.lanes.map((l) => l[0]).filter((k) => D.kinds[k] !== "region");
    let html = "<h3></h3><table class=\"num\"><tr><th>row</th>" +
      kinds.map((k) => "<th>" + esc(D.kinds[k]) + " ms</th>").join("") + "</tr>";
    rows.forEach(function (r) {
      const cells = kinds.map(function (k) {
        const l = r.lanes[k];
        let sum = 0;
        if (l) for (let i = firstFrom(l, a); i < l.s.length && l.s[i] <= b; i++) {
          const ov = Math.min(b, l.e[i]) - Math.max(a, l.s[i]);
          if (ov > 0) sum += ov * (l.busy[i] / Math.max(1, l.e[i] - l.s[i]));
        }
        return sum;
      });
      if (cells.some((c) => c > 0))
        html += "<tr><td>" + esc(r.label) + "</td>" +
          cells.map((c) => "<td>" + (c / 1e6).toFixed(3) + "</td>").join("") + "</tr>";
    });
    out.innerHTML = html + "</table>";
    out.querySelector("h3").textContent = title + " — per row, " + fmt(b - a);
  }

  // Regions by function and tasks by site (D.regions, D.tasks: [name index,
  // start, duration]), then instances; an instance zooms and breaks down.
  const pick = {
    region: { list: D.regions, table: "regions", head: "region", time: "wall ms" },
    task: { list: D.tasks || [], table: "tasks", head: "task", time: "total ms" },
  };
  function pickTable(kind) {
    const P = pick[kind], byFn = new Map();
    P.list.forEach(function (r, i) {
      if (!byFn.has(r[0])) byFn.set(r[0], []);
      byFn.get(r[0]).push(i);
    });
    P.byFn = byFn;
    const tbl = document.getElementById(P.table);
    if (!tbl) return;
    let html = "<tr><th>" + P.head + "</th><th>instances</th><th>" + P.time + "</th></tr>";
    byFn.forEach(function (list, fn) {
      const wall = list.reduce((s, i) => s + P.list[i][2], 0);
      html += "<tr class=\"pick\" data-fn=\"" + fn + "\"><td></td><td>" + list.length +
        "</td><td>" + (wall / 1e6).toFixed(3) + "</td></tr>";
    });
    tbl.innerHTML = html;
    tbl.querySelectorAll("tr.pick").forEach(function (tr) {
      tr.firstChild.textContent = D.fns[+tr.dataset.fn];
      tr.onclick = function () { instances(kind, +tr.dataset.fn); };
    });
  }

  function instances(kind, fn) {
    const P = pick[kind], list = P.byFn.get(fn);
    const out = document.getElementById("instances");
    let html = "<h3></h3><table class=\"num\"><tr><th>#</th><th>start</th><th>duration</th></tr>";
    list.slice(0, 2000).forEach(function (ri, n) {
      const r = P.list[ri];
      html += "<tr class=\"pick\" data-r=\"" + ri + "\"><td>" + n + "</td><td>" + fmt(r[1]) +
        "</td><td>" + fmt(r[2]) + "</td></tr>";
    });
    out.innerHTML = html + "</table>" +
      (list.length > 2000 ? "<p>the first 2000 of " + list.length + " instances</p>" : "");
    out.querySelector("h3").textContent = (kind === "task" ? "task " : "") + D.fns[fn] + ": " +
      list.length + " instance(s)";
    out.querySelectorAll("tr.pick").forEach(function (tr) {
      tr.onclick = function () { openInstance(kind, +tr.dataset.r); };
    });
  }

  function openInstance(kind, ri) {
    const P = pick[kind], r = P.list[ri], pad = r[2] * 0.05 + 1;
    setView(r[1] - pad, r[1] + r[2] + pad);
    breakdown(r[1], r[1] + r[2], (kind === "task" ? "task " : "") + D.fns[r[0]] + " at " +
      fmt(r[1]));
    const h = new URLSearchParams(location.hash.slice(1));
    h.set(kind, r[0] + "," + P.list.filter((x, i) => i < ri && x[0] === r[0]).length);
    history.replaceState(null, "", "#" + h.toString().replace(/%2C/g, ","));
  }

  // Layout: the canvas fills the page's width; the labels sit at its left.
  function layout() {
    const w = Math.max(300, document.getElementById("tlbox").clientWidth - LABEL_W - 4);
    canvas.width = w;
    canvas.height = Math.max(1, rows.length * (ROW_H + GAP));
    axis.width = w;
    axis.height = 20;
    draw();
  }
  const labels = document.getElementById("labels");
  rows.forEach(function (r) {
    const d = document.createElement("div");
    d.className = "lbl";
    d.textContent = r.label;
    labels.appendChild(d);
  });
  pickTable("region");
  pickTable("task");
  window.addEventListener("resize", layout);
  layout();

  // The hash: a view, and a detail to open.
  const h = new URLSearchParams(location.hash.slice(1));
  ["region", "task"].forEach(function (kind) {
    if (!h.get(kind)) return;
    const p = h.get(kind).split(",").map(Number), list = pick[kind].byFn.get(p[0]);
    if (list && list[p[1] || 0] !== undefined) {
      instances(kind, p[0]);
      openInstance(kind, list[p[1] || 0]);
    }
  });
  if (h.get("view")) {
    const p = h.get("view").split(",").map(Number);
    if (p.length === 2 && p[1] > p[0]) setView(p[0], p[1]);
  }
  if (h.get("hover")) {
    const p = h.get("hover").split(",").map(Number);
    const x = xOf(p[1]), y = p[0] * (ROW_H + GAP) + ROW_H / 2;
    const r = canvas.getBoundingClientRect();
    let got = hit(x, y);
    if (!got) {   // the row's first lane that has an interval there
      for (const lane of D.lanes) {
        got = hit(x, p[0] * (ROW_H + GAP) + lane[1] + lane[2] / 2);
        if (got) break;
      }
    }
    showTip(got, r.left + window.scrollX + x, r.top + window.scrollY + y);
  }
  document.body.dataset.drawMs = (performance.now() - T0).toFixed(1);
  document.body.dataset.intervals = total;
  document.body.dataset.ready = "1";
})();
