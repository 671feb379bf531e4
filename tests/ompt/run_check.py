#!/usr/bin/env python3
"""Run a program and check what it printed (tests/ompt).

usage: run_check.py [--env VAR=VALUE]... [--expect REGEX]... [--reject REGEX]...
                    [--count REGEX N]... [--file PATH REGEX]... [--status N] -- CMD ARGS...

stdout and stderr are checked together.  --expect: must match some line;
--reject: must match no line; --count: must match exactly N lines; --file:
PATH must exist and REGEX match one of its lines (PATH is removed first);
--status: the exit status (default 0).  Prints the output and every failed
check; exits 1 if a check failed.
"""
import os
import re
import subprocess
import sys


def main(argv):
    if "--" not in argv:
        sys.exit(__doc__)
    split = argv.index("--")
    opts, cmd = argv[:split], argv[split + 1:]
    env = dict(os.environ)
    expects, rejects, counts, files = [], [], [], []
    status = 0
    i = 0
    while i < len(opts):
        o = opts[i]
        if o == "--env":
            k, v = opts[i + 1].split("=", 1)
            env[k] = v
            i += 2
        elif o == "--expect":
            expects.append(opts[i + 1])
            i += 2
        elif o == "--reject":
            rejects.append(opts[i + 1])
            i += 2
        elif o == "--count":
            counts.append((opts[i + 1], int(opts[i + 2])))
            i += 3
        elif o == "--file":
            files.append((opts[i + 1], opts[i + 2]))
            i += 3
        elif o == "--status":
            status = int(opts[i + 1])
            i += 2
        else:
            sys.exit("unknown option %s\n%s" % (o, __doc__))
    for path, _ in files:
        if os.path.exists(path):
            os.remove(path)
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.decode(errors="replace")
    lines = out.splitlines()
    sys.stdout.write(out)
    failed = []
    if p.returncode != status:
        failed.append("exit status %d, expected %d" % (p.returncode, status))
    for rx in expects:
        if not any(re.search(rx, l) for l in lines):
            failed.append("no line matches: %s" % rx)
    for rx in rejects:
        bad = [l for l in lines if re.search(rx, l)]
        if bad:
            failed.append("line matches rejected pattern %s: %s" % (rx, bad[0]))
    for rx, n in counts:
        got = sum(1 for l in lines if re.search(rx, l))
        if got != n:
            failed.append("%d lines match %s, expected %d" % (got, rx, n))
    for path, rx in files:
        try:
            with open(path, errors="replace") as f:
                content = f.read().splitlines()
        except OSError as e:
            failed.append("cannot read %s: %s" % (path, e))
            continue
        if not any(re.search(rx, l) for l in content):
            failed.append("no line of %s matches: %s" % (path, rx))
    for f in failed:
        print("CHECK FAILED: " + f)
    if not failed:
        print("all checks passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
