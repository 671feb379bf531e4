"""Running one test of a tests/trace script: a scratch directory, kept
(and named) when the test fails, removed when it passes."""
import argparse
import re
import shutil
import subprocess
import sys
import tempfile


def fail(msg):
    raise AssertionError(msg)


def check(cond, msg):
    if not cond:
        fail(msg)


def run(cmd, env=None, ok=(0,)):
    """Run cmd (any items, made strings); check its exit status is in ok."""
    p = subprocess.run([str(c) for c in cmd], env=env, capture_output=True, text=True)
    check(p.returncode in ok, "%s: exit %d\nstdout:\n%s\nstderr:\n%s"
          % (" ".join(map(str, cmd)), p.returncode, p.stdout, p.stderr))
    return p


# pvomp-trace dump's lines: NAME TIME pid=TID ARG=VALUE...; a value: a
# string, a number, or the name of an enumerated value (kind=join).
LINE = re.compile(r"^(\w+) (-?\d+\.\d{3}) pid=(\d+)(.*)$")
ARG = re.compile(r' (\w+)=("(?:[^"\\]|\\.)*"(?:\[cut from \d+ bytes\])?|0x[0-9a-f]+|[A-Za-z_]\w*)')


def parse_dump(text):
    """dump output -> list of (name, time, tid, {arg: value})."""
    recs = []
    for line in text.splitlines():
        m = LINE.match(line)
        check(m is not None, "unparsable dump line: %r" % line)
        args = {}
        for k, v in ARG.findall(m.group(4)):
            args[k] = int(v, 16) if v.startswith("0x") else v
        recs.append((m.group(1), float(m.group(2)), int(m.group(3)), args))
    return recs


def marker_line(src, marker):
    """The number of the line of src holding the comment /* marker */."""
    with open(src) as f:
        for n, line in enumerate(f, 1):
            if "/* %s */" % marker in line:
                return n
    fail("no marker %s in %s" % (marker, src))


def program_test_args():
    """The command line of a test that builds programs and reads their logs:
    the test's name, --bin (pvomp-trace's directory), --lib (pvomp's),
    --src (the source tree) and --cc (the compiler, gcc by default)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("test")
    ap.add_argument("--bin", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--cc", default="gcc")
    return ap.parse_args()


def run_test(module_globals, name, prefix):
    """Call module_globals["test_" + name]() with module_globals["TMP"] set
    to a new scratch directory; exit 1 on an AssertionError."""
    fn = module_globals.get("test_" + name)
    if not fn:
        sys.exit("no test %s" % name)
    tmp = tempfile.mkdtemp(prefix="%s-%s-" % (prefix, name))
    module_globals["TMP"] = tmp
    try:
        fn()
    except AssertionError as e:
        print("FAIL (%s): %s" % (name, e), file=sys.stderr)
        print("files kept in " + tmp, file=sys.stderr)
        sys.exit(1)
    shutil.rmtree(tmp, ignore_errors=True)
