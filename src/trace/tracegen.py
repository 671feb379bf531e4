#!/usr/bin/env python3
"""pvomp-tracegen: turn a trace-events file into C.

A trace-events file has one event per line, in QEMU's syntax:

    [disable] name(type arg, ...) "format"

with `#` comments and blank lines.  Argument types are C integer types,
bool, size_t, pointers (recorded as their address) and `const char *`
strings; at most 10 arguments; `(void)` for none.

pvomp's own catalog also names the values of enumerated arguments, in a
directive that QEMU's tools read as a comment:

    #enum barrier_kind { explicit = 0, workshare = 1 } for barrier_enter.kind

(values: non-negative decimal numbers; `for` lists the event.argument pairs,
integer arguments, that take the enumeration's values).

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

  tracegen.py --reader EVENTS OUT.h OUT.c
      For the reader (tools/pvomp-trace): the catalog as C tables (event
      names, argument names and types, the enumerations) and the catalog's
      text for `pvomp-trace events`.

  tracegen.py --check EVENTS      only validate.
"""
import argparse
import os
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
        "pvtrace_cut", "pvtrace_end", "pvtrace_object", "pvtrace_snapshot",
        "pvtrace_enum"]
ENUM_RE = re.compile(r'^#enum\s+(?P<name>[a-z_]\w*)\s*\{(?P<body>[^}]*)\}\s*for\s+'
                     r'(?P<uses>.*?)\s*$')
IDENT_RE = re.compile(r"^[A-Za-z_]\w*$")


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
        self.enums = [None] * len(args)

    @property
    def disabled(self):
        return "disable" in self.props

    def strmask(self):
        return sum(1 << i for i, (t, _) in enumerate(self.args) if is_string(t))


class Enum:
    """#enum NAME { value = N, ... } for event.arg, ..."""
    def __init__(self, name, values, uses, lineno):
        self.name = name
        self.values = values      # list of (name, number)
        self.uses = uses          # list of (event name, argument name)
        self.lineno = lineno

    def values_text(self):
        """The values as the log's pvtrace_enum record carries them."""
        return ",".join("%s=%d" % v for v in self.values)

    def c_name(self, value):
        return "PVTRACE_%s_%s" % (self.name.upper(), value.upper())


def parse_enum(line, lineno):
    m = ENUM_RE.match(line.strip())
    if not m:
        raise Error("not an enumeration: write '#enum name { value = 0, ... } for event.arg'")
    values, names, numbers = [], set(), set()
    for item in m.group("body").split(","):
        bits = [b.strip() for b in item.split("=")]
        if len(bits) != 2 or not IDENT_RE.match(bits[0]) or not bits[1].isdigit():
            raise Error("enumeration '%s': '%s' is not 'name = number'"
                        % (m.group("name"), item.strip()))
        if bits[0] in names or int(bits[1]) in numbers:
            raise Error("enumeration '%s': '%s' repeats a name or a number"
                        % (m.group("name"), item.strip()))
        names.add(bits[0])
        numbers.add(int(bits[1]))
        values.append((bits[0], int(bits[1])))
    uses = []
    for use in m.group("uses").split(","):
        bits = use.strip().split(".")
        if len(bits) != 2 or not all(IDENT_RE.match(b) for b in bits):
            raise Error("enumeration '%s': '%s' is not event.argument"
                        % (m.group("name"), use.strip()))
        uses.append((bits[0], bits[1]))
    return Enum(m.group("name"), values, uses, lineno)


def bind_enums(events, enums, path):
    """Check every event.arg that an enumeration names; ev.enums[i]: the
    enumeration of argument i, or None."""
    by_name = {e.name: e for e in events}
    seen = set()
    for en in enums:
        if en.name in seen:
            raise Error("%s:%d: enumeration '%s' declared twice" % (path, en.lineno, en.name))
        seen.add(en.name)
        for evname, arg in en.uses:
            ev = by_name.get(evname)
            where = "%s:%d: enumeration '%s': " % (path, en.lineno, en.name)
            if not ev:
                raise Error(where + "no event '%s'" % evname)
            ix = [n for _, n in ev.args].index(arg) if arg in [n for _, n in ev.args] else -1
            if ix < 0:
                raise Error(where + "event '%s' has no argument '%s'" % (evname, arg))
            if ev.args[ix][0].endswith("*"):
                raise Error(where + "argument '%s.%s' is not an integer" % (evname, arg))
            if ev.enums[ix]:
                raise Error(where + "argument '%s.%s' already takes enumeration '%s'"
                            % (evname, arg, ev.enums[ix].name))
            ev.enums[ix] = en


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


def read_events(path, enums=None):
    """The events of a trace-events file; its enumerations are appended to
    `enums` (a file that has some and no list to take them is an error)."""
    events = []
    found = []
    seen = {}
    with open(path, encoding="utf-8") as f:
        data = f.read()
    if data and not data.endswith("\n"):
        raise Error("%s: the last line does not end with a newline" % path)
    for lineno, line in enumerate(data.split("\n")[:-1] if data else [], 1):
        try:
            if re.match(r"#enum\s", line.lstrip()):
                found.append(parse_enum(line, lineno))
                continue
            if not line.strip() or line.lstrip().startswith("#"):
                continue
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
    bind_enums(events, found, path)
    if found and enums is None:
        raise Error("%s:%d: enumerations are only supported in pvomp's own catalog"
                    % (path, found[0].lineno))
    if enums is not None:
        enums.extend(found)
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


def c_enums(enums):
    """enum pvtrace_<name> { PVTRACE_<NAME>_<VALUE> = N, ... } for C code."""
    out = []
    for en in enums:
        out.append("enum pvtrace_%s {" % en.name)
        for v, n in en.values:
            out.append("    %s = %d," % (en.c_name(v), n))
        out.append("};")
    return out


def enum_uses(events):
    """(event index, argument index, enumeration) for every enumerated argument."""
    return [(i, a, en) for i, ev in enumerate(events) for a, en in enumerate(ev.enums) if en]


def header_start(src_name, guard):
    return ["/* Generated from %s by tracegen.py - do not edit. */" % src_name,
            "#ifndef %s" % guard, "#define %s" % guard, ""]


def check_meta(events):
    if [e.name for e in events[:len(META)]] != META:
        raise Error("the runtime catalog must start with %s" % ", ".join(META))


def gen_runtime(events, enums, src_name):
    check_meta(events)
    h = header_start(src_name, "PV_TRACE_EVENTS_GEN_H") + [
         "#include <stdint.h>",
         "",
         '#include "base/compiler.h"',
         '#include "pvomp/trace.h"',
         "",
         "enum {"]
    for i, ev in enumerate(events):
        h.append("    PV_TRACE_EV_%s = %d," % (ev.name, i))
    uses = enum_uses(events)
    h += ["    PV_TRACE_NEVENTS = %d" % len(events), "};", "",
          "/* The values of enumerated arguments (#enum in the catalog). */"]
    h += c_enums(enums)
    h += ["",
          "/* Argument `arg` of event `id` takes enumeration `name`, whose values"
          " the log's",
          " * pvtrace_enum record lists as `values` (\"name=number,...\"). */",
          "struct pv_trace_enum_use {",
          "    uint64_t id, arg;",
          "    const char *name, *values;",
          "};",
          "#define PV_TRACE_NENUM_USES %d" % len(uses),
          'extern const struct pv_trace_enum_use pv_trace_enum_uses[PV_TRACE_NENUM_USES] PV_HIDDEN;',
          "",
          "/* Flags, one byte per event (src/trace/control.c sets them): bit 0 the",
          " * event is traced; bit 1 a tool observes the runtime site that tests",
          " * this byte (its OMPT event shares the site's one flag test, ompt/observe.c).",
          " * The trace points test bit 0. */",
          "#define PV_TRACE_TRACED 1u",
          "#define PV_TRACE_OBSERVED 2u",
          'extern uint8_t pv_trace_state[PV_TRACE_NEVENTS] PV_HIDDEN;',
          'extern const struct pvomp_trace_event_desc pv_trace_catalog[PV_TRACE_NEVENTS] PV_HIDDEN;',
          ""]
    # The pvtrace_* records are written by the writer itself: no trace points.
    points = events[len(META):]
    # trace_X(...), and trace_X_after(prev, ...): X emitted right after event
    # `prev` shares its clock read when prev is the thread's newest record.
    variants = [("", params, "", None),
                ("after_", after_params, "_after", ("prev", "PV_TRACE_EV_##prev"))]
    for emit, proto_params, suffix, lead in variants:
        for ev in points:
            h.append('void pv_trace_emit_%s%s(%s) PV_HIDDEN;'
                     % (emit, ev.name, proto_params(ev)))
        h.append("")
        for ev in points:
            h.append(macro(ev, "trace_", "pv_trace_state[PV_TRACE_EV_%s] & PV_TRACE_TRACED" % ev.name,
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
    c.append("const struct pv_trace_enum_use pv_trace_enum_uses[PV_TRACE_NENUM_USES] = {")
    for i, a, en in uses:
        c.append("    { PV_TRACE_EV_%s, %d, %s, %s }," % (events[i].name, a, c_string(en.name),
                                                        c_string(en.values_text())))
    c.append("};")
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


def enum_line(en):
    return "#enum %s { %s } for %s" % (en.name, ", ".join("%s = %d" % v for v in en.values),
                                       ", ".join("%s.%s" % u for u in en.uses))


def catalog_text(events, enums, src_name):
    """The catalog as a trace-events file (what `pvomp-trace events` prints
    without a log): the enumerations, then one line per event."""
    out = ["# pvomp's trace-events (from %s), printed by pvomp-trace events." % src_name]
    out += [enum_line(en) for en in enums]
    for ev in events:
        out.append("%s%s(%s) %s" % ("".join(p + " " for p in ev.props), ev.name, ev.args_text,
                                    ev.fmt))
    return "\n".join(out) + "\n"


def gen_reader(events, enums, src_name):
    """C tables for tools/pvomp-trace (desc.h declares their types)."""
    check_meta(events)
    h = header_start(src_name, "TR_CATALOG_H") + [
         "/* Index of each event in tr_cat_events (the line order of the catalog). */",
         "enum {"]
    for i, ev in enumerate(events):
        h.append("    TR_EV_%s = %d," % (ev.name, i))
    h += ["    TR_NEVENTS = %d," % len(events),
          "    TR_NMETA = %d /* the log's own events come first */" % len(META),
          "};",
          "",
          "/* Index of each argument in its event's argument list. */",
          "enum {"]
    for ev in events:
        for i, (_, n) in enumerate(ev.args):
            h.append("    TR_ARG_%s_%s = %d," % (ev.name, n, i))
    h += ["};", "",
          "#define TR_NENUMS %d" % len(enums),
          "",
          "#endif"]
    c = ["/* Generated from %s by tracegen.py - do not edit. */" % src_name,
         '#include "desc.h"',
         ""]
    for en in enums:
        c.append("static const char *const enum_%s_names[] = { %s };"
                 % (en.name, ", ".join(c_string(v) for v, _ in en.values)))
        c.append("static const uint64_t enum_%s_values[] = { %s };"
                 % (en.name, ", ".join("%d" % n for _, n in en.values)))
    c.append("")
    c.append("const struct tr_enum tr_cat_enums[TR_NENUMS] = {")
    for en in enums:
        c.append("    { %s, %d, enum_%s_names, enum_%s_values }," % (
            c_string(en.name), len(en.values), en.name, en.name))
    c += ["};", "", "const struct tr_cat_event tr_cat_events[TR_NEVENTS] = {"]
    index = {en.name: i for i, en in enumerate(enums)}
    for ev in events:
        c.append("    { %s, %s, %s, %d," % (c_string(ev.name), c_string(ev.args_text),
                                            c_string(ev.fmt), len(ev.args)))
        c.append("      { %s }," % (", ".join(c_string(n) for _, n in ev.args) or "0"))
        c.append("      { %s }," % (", ".join(c_string(t) for t, _ in ev.args) or "0"))
        c.append("      { %s }," % (", ".join("true" if is_string(t) else "false"
                                              for t, _ in ev.args) or "0"))
        c.append("      { %s } }," % (", ".join("%d" % (index[en.name] + 1 if en else 0)
                                                for en in ev.enums) or "0"))
    c += ["};", ""]
    c.append("const char tr_builtin_catalog[] =")
    for line in catalog_text(events, enums, src_name).splitlines(True):
        c.append("    %s" % c_string(line).replace("\n", "\\n"))
    c[-1] += ";"
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
    """Write text to path; an unchanged file keeps its content but is
    touched, so that the build sees the output newer than the generator and
    the catalog and does not run this command again at every build."""
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                os.utime(path)
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
    mode.add_argument("--reader", action="store_true", help="generate the reader's tables")
    mode.add_argument("--check", action="store_true", help="only validate the file")
    ap.add_argument("--prefix", default="trace_", help="prefix of the trace functions")
    ap.add_argument("events")
    ap.add_argument("header", nargs="?")
    ap.add_argument("source", nargs="?")
    a = ap.parse_args(argv)
    try:
        enums = [] if (a.runtime or a.reader or a.check) else None
        events = read_events(a.events, enums)
        if a.check:
            return 0
        if not a.header or not a.source:
            raise Error("give the output header and source file names")
        src_name = a.events.rsplit("/", 1)[-1]
        if a.runtime:
            h, c = gen_runtime(events, enums, src_name)
        elif a.reader:
            h, c = gen_reader(events, enums, src_name)
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
