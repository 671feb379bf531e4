"""Which optional runtime features a test needs: 'tasks' (explicit tasks,
dependences, taskloop, task reductions, detach, cancellation) and 'target'
(target constructs and the device memory API).  Looks at the test, its
additional sources and the local files they include, without comments: C and
C++ files as they are, Fortran files (by their suffix) lower-cased with only
their "!$omp" directive lines kept of their comments, so that the same
patterns find "#pragma omp task" and "!$OMP TASK"."""

import os
import re

_COMMENTS = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def _strip_comments(text):
    # Keep string literals (they may be _Pragma arguments), drop comments.
    return _COMMENTS.sub(lambda m: m.group(0) if m.group(0)[0] in "\"'" else " ", text)


# Patterns are matched against the comment-free code; "omp X" finds X both in
# "#pragma omp X" and in _Pragma ("omp X") / helper macros.
FEATURES = {
    "tasks": [
        ("task", r"\bomp\s+(?:parallel\s+)?(?:master\s+|masked\s+)?(?:task|taskloop)\b"),
        ("taskloop", r"\btaskloop\b"),
        ("taskwait", r"\bomp\s+taskwait\b"),
        ("taskgroup", r"\bomp\s+taskgroup\b"),
        ("taskyield", r"\bomp\s+taskyield\b"),
        ("depobj", r"\bomp\s+depobj\b"),
        ("task reduction", r"\b(?:in_reduction|task_reduction)\s*\(|\breduction\s*\(\s*task\s*,"),
        ("detach", r"\bdetach\s*\(|\bomp_fulfill_event\b|\bomp_event_handle_(?:t|kind)\b"),
        ("omp_in_final", r"\bomp_in_final\b"),
        ("cancellation", r"\bomp\s+cancel\b|\bomp\s+cancellation\s+point\b"),
        ("GOMP task entry", r"\bGOMP_(?:task|taskwait|taskgroup|taskloop|cancel)\w*\s*\("),
    ],
    "target": [
        ("target construct", r"\bomp\s+(?:\w+\s+)?target\b"),
        ("declare target", r"\bomp\s+(?:begin\s+|end\s+)?declare\s+target\b"),
        ("requires", r"\bomp\s+requires\b"),
        ("device memory API", r"\bomp_target_\w+\s*\(|\bomp_get_mapped_ptr\b"),
        ("GOMP target entry", r"\bGOMP_target\w*\s*\("),
    ],
}
_COMPILED = {cat: [(n, re.compile(p)) for n, p in pats] for cat, pats in FEATURES.items()}
_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
# Fortran: INCLUDE lines, and directive lines: "!$omp" in free form, "!$omp",
# "c$omp" or "*$omp" from column 1 in fixed form (.f, .F), where any line
# starting with c, * or ! is a comment.
FORTRAN = re.compile(r"\.[fF](?:|90|95|03|08)$")
_FIXED = re.compile(r"\.[fF]$")
_F_INCLUDE = re.compile(r"""^\s*(?:#\s*)?include\s*['"]([^'"]+)['"]""", re.M | re.I)
_F_SENTINEL = {False: re.compile(r"^\s*!\$omp"), True: re.compile(r"^[c*!]\$omp")}


def _fortran_code(text, fixed):
    """Fortran source, lower-cased, with comments removed except directive
    lines, whose sentinel becomes "omp " (so "!$omp task" reads "omp  task");
    fixed-form continuations (column 6) are left as separate lines."""
    lines = []
    for line in text.lower().splitlines():
        m = _F_SENTINEL[fixed].match(line)
        if m:
            prefix, rest = "omp ", line[m.end():]
        elif fixed and line[:1] in ("c", "*", "!"):
            prefix, rest = "", ""
        else:
            prefix, rest = "", line
        quote = None                  # cut a "!" comment outside strings
        for i, c in enumerate(rest):
            if quote:
                quote = None if c == quote else quote
            elif c in "'\"":
                quote = c
            elif c == "!":
                rest = rest[:i]
                break
        lines.append(prefix + rest)
    # join continuation lines ("... &" / "!$omp& ..." or "&...")
    return re.sub(r"&\s*\n\s*(?:omp\s)?\s*&?", " ", "\n".join(lines))


def _code_of(path, seen):
    if path in seen or not os.path.isfile(path):
        return ""
    seen.add(path)
    with open(path, errors="replace") as f:
        text = f.read()
    fortran = FORTRAN.search(path) is not None
    parts = [_fortran_code(text, _FIXED.search(path) is not None) if fortran
             else _strip_comments(text)]
    # Follow the test's own local includes (e.g. "../libgomp.c-c++-common/x.c"),
    # not libgomp_g.h and friends, which only declare the whole ABI.
    for inc in (_F_INCLUDE if fortran else _INCLUDE).findall(text):
        p = os.path.normpath(os.path.join(os.path.dirname(path), inc))
        if os.path.isfile(p):
            parts.append(_code_of(p, seen))
    return "\n".join(parts)


def needs(paths):
    """{category: [feature names found]} for the given source files."""
    seen = set()
    code = "\n".join(_code_of(p, seen) for p in paths)
    code = re.sub(r"\\\n", " ", code)            # join continued pragma lines
    found = {}
    for cat, pats in _COMPILED.items():
        names = [n for n, rx in pats if rx.search(code)]
        if names:
            found[cat] = names
    return found
