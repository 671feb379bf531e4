"""Running one test of a tests/trace script: a scratch directory, kept
(and named) when the test fails, removed when it passes."""
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


def marker_line(src, marker):
    """The number of the line of src holding the comment /* marker */."""
    with open(src) as f:
        for n, line in enumerate(f, 1):
            if "/* %s */" % marker in line:
                return n
    fail("no marker %s in %s" % (marker, src))


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
