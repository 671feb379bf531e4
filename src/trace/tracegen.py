#!/usr/bin/env python3
"""pvomp-tracegen: turn a trace-events file into C.

A trace-events file has one event per line, in QEMU's syntax:

    [disable] name(type arg, ...) "format"

with `#` comments and blank lines.  Argument types are C integer types,
bool, size_t, pointers (recorded as their address) and `const char *`
strings; at most 10 arguments; `(void)` for none.

Two modes:

  tracegen.py --group NAME EVENTS OUT.h OUT.c
      For a program's own events.  OUT.h defines the trace point
      <prefix><name>(args) for every event (prefix "trace_" unless --prefix
      says otherwise): a macro that tests the event's flag and only then
      evaluates its arguments and calls the record writer (whose prototype
      checks their types); OUT.c holds the catalog, the enabled flags and
      the record writers, and registers the catalog with pvomp from a
      constructor.  Only <pvomp/trace.h> is needed to compile them.

  tracegen.py --runtime EVENTS OUT.h OUT.c
      For pvomp itself (used by src/trace/trace.cmake).

  tracegen.py --check EVENTS      only validate.
"""
import argparse
import re
import sys

ALLOWED = {
    "int", "long", "short", "char", "bool", "unsigned", "signed", "int8_t",
    "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t",
    "uint64_t", "void", "size_t", "ssize_t", "uintptr_t", "ptrdiff_t", "const",
}
MAX_ARGS = 10
LINE_RE = re.compile(r'^\s*((?P<props>[\w\s]+?)\s+)?(?P<name>[A-Za-z_]\w*)'
                     r'\((?P<args>[^)]*)\)\s*(?P<fmt>".*?)?\s*$')
# Meta events that the writer emits itself; the runtime catalog must start
# with exactly these, in this order (readers and pvomp/trace.h rely on it).
META = ["pvtrace_event", "pvtrace_process", "pvtrace_clock", "pvtrace_chunk",
        "pvtrace_cut", "pvtrace_end", "pvtrace_object", "pvtrace_snapshot"]


class Error(Exception):
    pass


def is_string(ctype):
    t = ctype.replace(" ", "")
    return t.startswith("constchar*") or t.startswith("char*")


class Event:
    def __init__(self, name, props, args, fmt, args_text, lineno):
        self.name = name
        self.props = props
        self.args = args          # list of (type, name)
        self.fmt = fmt
        self.args_text = args_text
        self.lineno = lineno

    @property
    def disabled(self):
        return "disable" in self.props

    def strmask(self):
        return sum(1 << i for i, (t, _) in enumerate(self.args) if is_string(t))


def parse_args(text):
    text = text.strip()
    if text == "void":
        return []
    if not text:
        raise Error("empty argument list (write 'void')")
    out = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            raise Error("empty argument")
        if "*" in part:
            ctype, ident = part.rsplit("*", 1)
            ctype = ctype.strip() + " *"
        else:
            bits = part.rsplit(None, 1)
            if len(bits) != 2:
                raise Error("argument '%s' needs a type and a name" % part)
            ctype, ident = bits
        ident = ident.strip()
        if not re.match(r"^[A-Za-z_]\w*$", ident):
            raise Error("bad argument name '%s'" % ident)
        for word in ctype.replace("*", " ").split():
            if word not in ALLOWED:
                raise Error("argument type '%s' is not allowed (C integer types, bool, "
                            "size_t, pointers and 'const char *' only)" % ctype.strip())
        out.append((ctype.strip(), ident))
    if len(out) > MAX_ARGS:
        raise Error("more than %d arguments" % MAX_ARGS)
    names = [n for _, n in out]
    if len(set(names)) != len(names):
        raise Error("two arguments have the same name")
    return out


def read_events(path):
    events = []
    seen = {}
    with open(path, encoding="utf-8") as f:
        data = f.read()
    if data and not data.endswith("\n"):
        raise Error("%s: the last line does not end with a newline" % path)
    for lineno, line in enumerate(data.split("\n")[:-1] if data else [], 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            m = LINE_RE.match(line)
            if not m:
                raise Error("not an event declaration: %s" % line.strip())
            props = (m.group("props") or "").split()
            for p in props:
                if p not in ("disable", "vcpu"):
                    raise Error("unknown property '%s'" % p)
            fmt = m.group("fmt") or '""'
            if "%m" in fmt:
                raise Error("'%m' is not allowed in a format")
            if fmt.endswith('\\n"'):
                raise Error("a format must not end with a newline")
            name = m.group("name")
            if name in seen:
                raise Error("event '%s' already declared on line %d" % (name, seen[name]))
            seen[name] = lineno
            args = parse_args(m.group("args"))
            args_text = ", ".join("%s%s%s" % (t, "" if t.endswith("*") else " ", n)
                                  for t, n in args) or "void"
            events.append(Event(name, props, args, fmt, args_text, lineno))
        except Error as e:
            raise Error("%s:%d: %s" % (path, lineno, e))
    return events


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def value_expr(ctype, name):
    if ctype.endswith("*"):
        return "(uint64_t)(uintptr_t)(%s)" % name
    return "(uint64_t)(%s)" % name


def emit_body(ev, id_expr, begin, commit):
    """C statements that write one record of `ev` (event id id_expr)."""
    lines = []
    size = ["PVOMP_TRACE_EVENT_HDR"]
    strs = [(i, n) for i, (t, n) in enumerate(ev.args) if is_string(t)]
    for i, n in strs:
        lines.append("    size_t full_%s = 0;" % n)
        lines.append("    uint32_t len_%s = pvomp_trace_strlen(%s, &full_%s);" % (n, n, n))
    for t, n in ev.args:
        size.append("4u + len_%s" % n if is_string(t) else "8u")
    extra = " + ".join("(full_%s ? PVOMP_TRACE_CUT_REC : 0u)" % n for _, n in strs) or "0u"
    lines.append("    uint8_t *rec = %s(%s, %s, %s);" % (begin, id_expr, " + ".join(size), extra))
    lines.append("    if (!rec)")
    lines.append("        return;")
    if ev.args:
        lines.append("    uint8_t *p = rec + PVOMP_TRACE_EVENT_HDR;")
    for t, n in ev.args:
        if is_string(t):
            lines.append("    p = pvomp_trace_put_str(p, %s, len_%s);" % (n, n))
        else:
            lines.append("    p = pvomp_trace_put_u64(p, %s);" % value_expr(t, n))
    for i, n in strs:
        lines.append("    if (full_%s)" % n)
        lines.append("        p = pvomp_trace_put_cut(p, rec, PVOMP_TRACE_CUT_ID, %d, full_%s);"
                     % (i, n))
    if ev.args:
        lines.append("    (void)p;")
    lines.append("    %s();" % commit)
    return lines


def params(ev):
    if not ev.args:
        return "void"
    return ", ".join("%s%s%s" % (t, "" if t.endswith("*") else " ", n) for t, n in ev.args)


def macro(ev, prefix, flag, emit, suffix="", lead=None):
    """The trace point: a macro, so that its arguments are evaluated only when
    the event is enabled (a disabled one costs the load of its flag and one
    branch); the emit function's prototype type-checks them.  `lead`: a first
    (macro parameter, emit argument) pair, for the _after points."""
    params = [n for _, n in ev.args]
    args = ["(%s)" % n for n in params]
    if lead:
        params.insert(0, lead[0])
        args.insert(0, lead[1])
    if ev.disabled:
        flag = "0"  # compiled out; the arguments are still type-checked
    return ("#define %s%s%s(%s) \\\n"
            "    do { \\\n"
            "        if (__builtin_expect(%s, 0)) \\\n"
            "            %s(%s); \\\n"
            "    } while (0)" % (prefix, ev.name, suffix, ", ".join(params), flag, emit,
                                 ", ".join(args)))


def after_params(ev):
    return "uint64_t prev" + (", " + params(ev) if ev.args else "")


def desc_table(events, name, static):
    out = ["%sconst struct pvomp_trace_event_desc %s[%d] = {" % (static, name, len(events))]
    for ev in events:
        out.append("    { %s, %s, %s, %d, 0x%xu }," % (
            c_string(ev.name), c_string(ev.args_text), c_string(ev.fmt), len(ev.args),
            ev.strmask()))
    out.append("};")
    return out


def gen_runtime(events, src_name):
    names = [e.name for e in events[:len(META)]]
    if names != META:
        raise Error("the runtime catalog must start with %s" % ", ".join(META))
    h = ["/* Generated from %s by tracegen.py - do not edit. */" % src_name,
         "#ifndef PV_TRACE_EVENTS_GEN_H",
         "#define PV_TRACE_EVENTS_GEN_H",
         "",
         "#include <stdint.h>",
         "",
         '#include "pvomp/trace.h"',
         "",
         "enum {"]
    for i, ev in enumerate(events):
        h.append("    PV_TRACE_EV_%s = %d," % (ev.name, i))
    h += ["    PV_TRACE_NEVENTS = %d" % len(events), "};", "",
          "/* Enabled flags, one per event (src/trace/control.c sets them). */",
          'extern uint8_t pv_trace_state[PV_TRACE_NEVENTS] __attribute__((visibility("hidden")));',
          'extern const struct pvomp_trace_event_desc pv_trace_catalog[PV_TRACE_NEVENTS] '
          '__attribute__((visibility("hidden")));',
          ""]
    # The pvtrace_* records are written by the writer itself: no trace points.
    points = events[len(META):]
    # trace_X(...), and trace_X_after(prev, ...): X emitted right after event
    # `prev` shares its clock read when prev is the thread's newest record.
    variants = [("", params, "", None),
                ("after_", after_params, "_after", ("prev", "PV_TRACE_EV_##prev"))]
    for emit, proto_params, suffix, lead in variants:
        for ev in points:
            h.append('void pv_trace_emit_%s%s(%s) __attribute__((visibility("hidden")));'
                     % (emit, ev.name, proto_params(ev)))
        h.append("")
        for ev in points:
            h.append(macro(ev, "trace_", "pv_trace_state[PV_TRACE_EV_%s]" % ev.name,
                           "pv_trace_emit_%s%s" % (emit, ev.name), suffix, lead))
        h.append("")
    h.append("#endif")

    c = ["/* Generated from %s by tracegen.py - do not edit. */" % src_name,
         '#include "trace/trace.h"',
         "",
         "_Static_assert(PV_TRACE_EV_pvtrace_cut == PVOMP_TRACE_CUT_ID, \"pvtrace_cut id\");",
         "",
         "uint8_t pv_trace_state[PV_TRACE_NEVENTS];",
         ""]
    c += desc_table(events, "pv_trace_catalog", "")
    c.append("")
    for ev in points:
        c.append("void pv_trace_emit_%s(%s)" % (ev.name, params(ev)))
        c.append("{")
        c += emit_body(ev, "PV_TRACE_EV_%s" % ev.name, "pv_trace_begin", "pv_trace_commit")
        c.append("}")
        c.append("")
        c.append("void pv_trace_emit_after_%s(%s)" % (ev.name, after_params(ev)))
        c.append("{")
        c += emit_body(ev, "prev, PV_TRACE_EV_%s" % ev.name, "pv_trace_begin_after",
                       "pv_trace_commit")
        c.append("}")
        c.append("")
    return "\n".join(h) + "\n", "\n".join(c) + "\n"


def gen_user(events, group, prefix, src_name):
    if not re.match(r"^[A-Za-z_]\w*$", group):
        raise Error("bad group name '%s'" % group)
    g = "pvt_%s" % group
    guard = "PVT_%s_TRACE_H" % group.upper()
    h = ["/* Generated from %s by pvomp-tracegen - do not edit. */" % src_name,
         "#ifndef %s" % guard,
         "#define %s" % guard,
         "",
         "#include <stdbool.h>",
         "#include <pvomp/trace.h>",
         "",
         "#ifdef __cplusplus",
         'extern "C" {',
         "#endif",
         "",
         "extern uint8_t %s_state[%d];" % (g, len(events)),
         "extern struct pvomp_trace_catalog %s_catalog;" % g,
         ""]
    for ev in events:
        h.append("void %s_emit_%s(%s);" % (g, ev.name, params(ev)))
    h.append("")
    for i, ev in enumerate(events):
        h.append(macro(ev, prefix, "%s_state[%d]" % (g, i), "%s_emit_%s" % (g, ev.name)))
    h.append("")
    h += ["#ifdef __cplusplus", "}", "#endif", "", "#endif"]

    c = ["/* Generated from %s by pvomp-tracegen - do not edit. */" % src_name,
         '#include "%s"' % "@HEADER@",
         "",
         "uint8_t %s_state[%d];" % (g, len(events)),
         ""]
    c += desc_table(events, "%s_desc" % g, "static ")
    c += ["",
          "struct pvomp_trace_catalog %s_catalog = {" % g,
          "    PVOMP_TRACE_CATALOG_ABI, %d, %s, %s_desc, %s_state, 0" % (
              len(events), c_string(group), g, g),
          "};",
          "",
          "__attribute__((constructor)) static void %s_register(void)" % g,
          "{",
          "    if (pvomp_trace_register)",
          "        pvomp_trace_register(&%s_catalog);" % g,
          "}",
          ""]
    for i, ev in enumerate(events):
        c.append("void %s_emit_%s(%s)" % (g, ev.name, params(ev)))
        c.append("{")
        c += emit_body(ev, "%s_catalog.base_id + %d" % (g, i), "pvomp_trace_begin",
                       "pvomp_trace_commit")
        c.append("}")
        c.append("")
    return "\n".join(h) + "\n", "\n".join(c) + "\n"


def write_if_changed(path, text):
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main(argv):
    ap = argparse.ArgumentParser(description="Generate C trace points from a trace-events file.")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--group", help="name of a program's event group (user mode)")
    mode.add_argument("--runtime", action="store_true", help="generate pvomp's own catalog")
    mode.add_argument("--check", action="store_true", help="only validate the file")
    ap.add_argument("--prefix", default="trace_", help="prefix of the trace functions")
    ap.add_argument("events")
    ap.add_argument("header", nargs="?")
    ap.add_argument("source", nargs="?")
    a = ap.parse_args(argv)
    try:
        events = read_events(a.events)
        if a.check:
            return 0
        if not a.header or not a.source:
            raise Error("give the output header and source file names")
        src_name = a.events.rsplit("/", 1)[-1]
        if a.runtime:
            h, c = gen_runtime(events, src_name)
        else:
            if any(e.name.startswith("pvtrace_") for e in events):
                raise Error("the names pvtrace_* are reserved")
            h, c = gen_user(events, a.group, a.prefix, src_name)
            c = c.replace("@HEADER@", a.header.rsplit("/", 1)[-1])
        write_if_changed(a.header, h)
        write_if_changed(a.source, c)
    except (Error, OSError) as e:
        sys.stderr.write("pvomp-tracegen: %s\n" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
