"""Reading DejaGnu directives ("{ dg-... }") out of libgomp test sources and
deciding what they mean on this machine (x86_64 Linux, host only, no offload
compiler) for the language a test is compiled as (c, c++ or fortran).  Our own
small reader of the subset the libgomp C, C++ and Fortran tests use; the
directives sit in comments of any syntax ("/* { dg-do run } */",
"// { dg-do run }", "! { dg-do run }")."""

import fnmatch
import os
import re
import shlex
from dataclasses import dataclass, field

TRIPLET = "x86_64-pc-linux-gnu"


# --- A reader for the Tcl word lists inside "{ dg-... }" -------------------

def _tcl_unescape(s):
    """Tcl backslash substitution inside a quoted or bare word."""
    out, i = [], 0
    simple = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            n = s[i + 1]
            out.append(simple.get(n, n))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _braced_end(s, i):
    """s[i] == '{'; index just past the matching '}' (backslashes escape)."""
    depth = 0
    while i < len(s):
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unbalanced braces")


class Braced(str):
    """A word that was written in braces (a nested list, not substituted)."""


def tcl_words(s):
    words, i = [], 0
    while True:
        while i < len(s) and s[i].isspace():
            i += 1
        if i >= len(s):
            return words
        if s[i] == "{":
            j = _braced_end(s, i)
            words.append(Braced(s[i + 1:j - 1]))
            i = j
        elif s[i] == '"':
            j = i + 1
            while j < len(s) and s[j] != '"':
                j += 2 if s[j] == "\\" else 1
            words.append(_tcl_unescape(s[i + 1:j]))
            i = j + 1
        else:
            j = i
            while j < len(s) and not s[j].isspace():
                j += 2 if s[j] == "\\" else 1
            words.append(_tcl_unescape(s[i:j]))
            i = j


def directives(text):
    """[(name, [args...]), ...] for every "{ dg-NAME args }" in a source."""
    found = []
    for m in re.finditer(r"\{\s*dg-", text):
        try:
            end = _braced_end(text, m.start())
            words = tcl_words(text[m.start() + 1:end - 1])
        except ValueError:
            continue
        if words:
            found.append((words[0], words[1:]))
    return found


# --- Effective targets and target selectors --------------------------------

def _cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


_CPU = _cpu_flags()
# The languages a test can be compiled as; the keywords "c" and "c++" are met
# only by the language the test is compiled as (Fortran meets neither).
LANGS = {"c": "C", "c++": "C++", "fortran": "Fortran"}
# keyword -> (met?, reason when not met)
EFFECTIVE = {
    "lp64": (True, ""),
    "ia32": (False, "64-bit target"),
    "lto": (True, ""),
    "tls": (True, ""),
    "tls_runtime": (True, ""),
    "size32plus": (True, ""),
    "sync_int_long": (True, ""),
    "shared": (True, ""),
    "fpic": (True, ""),
    "large_long_double": (True, ""),
    "__float128": (True, ""),
    "vect_simd_clones": (True, ""),
    "pthread": (True, ""),
    "fd_truncate": (True, ""),
    "sse2_runtime": ("sse2" in _CPU, "CPU lacks SSE2"),
    "avx_runtime": ("avx" in _CPU, "CPU lacks AVX"),
    "run_expensive_tests": (os.environ.get("GCC_TEST_RUN_EXPENSIVE", "") not in ("", "0"),
                            "expensive tests not requested (GCC_TEST_RUN_EXPENSIVE)"),
    "offload_target_nvptx": (False, "no nvptx offload compiler installed"),
    "offload_target_amdgcn": (False, "no amdgcn offload compiler installed"),
    # pvomp's device 0 runs on the host and by default shares its memory;
    # set_device_memory() switches these for PVOMP_DEVICE_MEMORY=separate (src/target)
    "offload_device": (True, ""),
    "offload_device_nonshared_as": (False, "device 0 shares the host's memory (PVOMP_DEVICE_MEMORY)"),
    "offload_device_shared_as": (True, ""),
    "offload_device_nvptx": (False, "needs an nvptx device"),
    "offload_device_intel_mic": (False, "needs an Intel MIC device"),
    "offload_device_any_intel_mic": (False, "needs an Intel MIC device"),
}


def set_device_memory(separate):
    """The effective targets of device 0's memory mode (PVOMP_DEVICE_MEMORY
    of the runs on pvomp): its own memory with separate=True, else shared."""
    EFFECTIVE["offload_device_nonshared_as"] = (
        (True, "") if separate else (False, "device 0 shares the host's memory (PVOMP_DEVICE_MEMORY)"))
    EFFECTIVE["offload_device_shared_as"] = (
        (False, "device 0 has its own memory (PVOMP_DEVICE_MEMORY=separate)") if separate else (True, ""))


def _atom(word, lang):
    """(met, reason) for one selector word: a target triplet glob or a keyword."""
    if "-" in word and ("*" in word or word.count("-") >= 2):
        ok = fnmatch.fnmatchcase(TRIPLET, word)
        return ok, "" if ok else "target %s only" % word
    if word in ("c", "c++"):
        return word == lang, "" if word == lang else "compiled as %s" % LANGS[lang]
    if word in EFFECTIVE:
        return EFFECTIVE[word]
    return False, "unknown effective target %s" % word


def _expr(words, lang):
    """Evaluate a selector expression: atoms, {groups}, !, &&, || (left to right,
    && binding tighter than ||).  A list without operators is an OR of atoms."""
    if not any(w in ("!", "&&", "||") for w in words if not isinstance(w, Braced)):
        results = [_group(w, lang) for w in words]
        for ok, why in results:
            if ok:
                return True, ""
        return False, "; ".join(why for _, why in results)
    terms, i = [], 0      # terms of the || chain, each an && chain
    cur = []
    while i < len(words):
        w = words[i]
        if w == "||" and not isinstance(w, Braced):
            terms.append(cur)
            cur = []
            i += 1
            continue
        if w == "&&" and not isinstance(w, Braced):
            i += 1
            continue
        neg = False
        while words[i] == "!" and not isinstance(words[i], Braced):
            neg = not neg
            i += 1
        ok, why = _group(words[i], lang)
        if neg:
            ok, why = not ok, "" if ok is False else "not for %s" % words[i].strip()
        cur.append((ok, why))
        i += 1
    terms.append(cur)
    reasons = []
    for term in terms:
        if all(ok for ok, _ in term):
            return True, ""
        reasons += [why for ok, why in term if not ok]
    return False, "; ".join(r for r in reasons if r)


def _group(w, lang):
    if isinstance(w, Braced):
        return _expr(tcl_words(w), lang)
    return _atom(w, lang)


def selector(sel, lang="c"):
    """A dg selector ("target X", "{ target { ! X } }", "xfail X") for a test
    compiled as lang.  Returns (kind, met, reason); kind is 'target' or 'xfail'."""
    words = tcl_words(sel) if isinstance(sel, Braced) else [sel]
    if not words:
        return "target", True, ""
    kind, rest = words[0], words[1:]
    if kind not in ("target", "xfail"):
        # A bare list of triplets/keywords (dg-skip-if's second argument).
        ok, why = _expr(words, lang)
        return "target", ok, why
    ok, why = _expr(rest, lang)
    return kind, ok, why


def _applies(args, idx, lang):
    """Does an optional selector at args[idx] hold (absent = yes)?"""
    if len(args) <= idx:
        return True
    kind, ok, _ = selector(args[idx], lang)
    return ok if kind == "target" else True


# --- What a test asks for ---------------------------------------------------

@dataclass
class Test:
    name: str                      # e.g. libgomp.c/for-1.c, libgomp.c-c++-common/x.c@c++
    path: str
    lang: str = "c"                # compiled as: c, c++ or fortran
    action: str = "run"
    skip: str = ""                 # non-empty: skip with this reason
    torture: list = field(default_factory=list)   # the runner's option set (Fortran), first
    options: list = field(default_factory=lambda: ["-O2"])
    extra_options: list = field(default_factory=list)
    sources: list = field(default_factory=list)   # additional sources (paths)
    env: dict = field(default_factory=dict)
    shouldfail: bool = False
    output: str = ""               # concatenated dg-output regexps ("" = none)
    timeout: float = 0.0           # dg-timeout (0 = runner default)
    timeout_factor: float = 1.0    # dg-timeout-factor
    run_tag: str = ""              # "@N": an OMP_NUM_THREADS=N run (its own run files)
    ignored: list = field(default_factory=list)   # directives we do not check


ADD_OPTIONS = {"__float128": []}   # dg-add-options feature -> flags on x86_64
COMPILE_ONLY = {"dg-final", "dg-warning", "dg-error", "dg-message", "dg-bogus",
                "dg-excess-errors", "dg-prune-output", "dg-xfail-if", "dg-note"}


def read_test(name, path, lang="c", options=("-O2",)):
    """The test's directives as a Test; options are the defaults that
    dg-options replaces (-O2 for C and C++, none for Fortran, whose option
    sets are the runner's torture list)."""
    with open(path, errors="replace") as f:
        text = f.read()
    t = Test(name=name, path=path, lang=lang, options=list(options))

    def skip(reason):
        if not t.skip:
            t.skip = reason

    for d, args in directives(text):
        if d == "dg-do":
            t.action = args[0] if args else "run"
            if len(args) > 1:
                kind, ok, why = selector(args[1], lang)
                if kind == "target" and not ok:
                    skip("dg-do %s: %s" % (t.action, why))
        elif d == "dg-require-effective-target":
            if args and _applies(args, 1, lang):
                ok, why = _atom(args[0], lang)
                if not ok:
                    skip(why)
        elif d == "dg-skip-if":
            if len(args) >= 2 and selector(args[1], lang)[1]:
                skip("dg-skip-if %s" % (args[0] or "(always: auxiliary file)"))
        elif d == "dg-require-alias":
            pass                           # ELF aliases: supported
        elif d == "dg-options":
            if args and _applies(args, 1, lang):
                t.options = shlex.split(args[0])
        elif d == "dg-additional-options":
            if args and _applies(args, 1, lang):
                t.extra_options += shlex.split(args[0])
        elif d == "dg-add-options":
            for feat in args:
                if feat in ADD_OPTIONS:
                    t.extra_options += ADD_OPTIONS[feat]
                else:
                    skip("dg-add-options %s not known to the runner" % feat)
        elif d == "dg-additional-sources":
            if args and _applies(args, 1, lang):
                base = os.path.dirname(path)
                t.sources += [os.path.join(base, s) for s in args[0].split()]
        elif d == "dg-set-target-env-var":
            if len(args) >= 2:
                t.env[args[0]] = args[1]
        elif d == "dg-shouldfail":
            if _applies(args, 1, lang):
                t.shouldfail = True
        elif d == "dg-output":
            if args and _applies(args, 1, lang):
                t.output += args[0]
        elif d == "dg-timeout":
            if args and _applies(args, 1, lang):
                t.timeout = float(args[0])
        elif d == "dg-timeout-factor":
            if args and _applies(args, 1, lang):
                t.timeout_factor = float(args[0])
        elif d == "dg-xfail-run-if":
            if len(args) >= 2 and selector(args[1], lang)[1]:
                skip("expected to fail here (dg-xfail-run-if %s)" % args[0])
        elif d in COMPILE_ONLY:
            t.ignored.append(d)
        else:
            t.ignored.append(d)
    if t.action not in ("run",):
        skip("dg-do %s: not a run test" % t.action)
    return t
