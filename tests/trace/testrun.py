"""Running one test of a tests/trace script: a scratch directory, kept
(and named) when the test fails, removed when it passes."""
import shutil
import sys
import tempfile


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
