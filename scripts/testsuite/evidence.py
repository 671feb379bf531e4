"""What a pass with a tool or the flight log on must prove, test by test.

The runner sets, for each run on pvomp, per-test paths in the test's work
directory, and after a run that passed asks check() whether the evidence is
there: for the OMPT pass, that the recording tool (tests/ompt/tt_tool.c)
initialised and checked its whole event log with no violation; for the traced
pass, that the run left at least one flight log and every one reads back to
its end record.  A pass without its evidence is a FAIL naming what is
missing.  See docs/testsuite.md."""

import glob
import os
import re
import subprocess


class Evidence:
    def __init__(self, ompt_tool="", trace_reader=""):
        self.tool = os.path.abspath(ompt_tool) if ompt_tool else ""
        self.reader = os.path.abspath(trace_reader) if trace_reader else ""
        for path in (self.tool, self.reader):
            if path and not os.path.isfile(path):
                raise SystemExit("testsuite: FATAL: %s does not exist (build pvomp first)" % path)

    def _paths(self, work, tag):
        return os.path.join(work, "tt%s.evidence" % tag), os.path.join(work, "trace" + tag)

    def env(self, work, tag):
        """The variables for one run on pvomp; clears the last run's evidence."""
        tt, trace = self._paths(work, tag)
        env = {}
        if self.tool:
            if os.path.exists(tt):
                os.unlink(tt)
            env.update(OMP_TOOL_LIBRARIES=self.tool, TT_QUIET="1", TT_CHECK="1", TT_EVIDENCE=tt)
        if self.reader:
            os.makedirs(trace, exist_ok=True)
            for f in os.listdir(trace):
                os.unlink(os.path.join(trace, f))
            env.update(PVOMP_TRACE=os.path.join(trace, "%p.pvtrace"), PVOMP_TRACE_EVENTS="*")
        return env

    def check(self, work, tag, shouldfail):
        """'' if a passing run left what its pass requires, else what is missing.
        A test that must fail (dg-shouldfail) ends without exit handlers: it
        need only show that the tool initialised, and may leave a log open."""
        tt, trace = self._paths(work, tag)
        if self.tool:
            try:
                with open(tt) as f:
                    lines = f.read()
            except OSError:
                lines = ""
            if not re.search(r"^\d+ initialized -> 1$", lines, re.M):
                return "the OMPT tool %s did not initialise (no evidence in %s)" % (
                    os.path.basename(self.tool), os.path.basename(tt))
            if not shouldfail and not re.search(r"^\d+ checked \d+ events, 0 violation", lines, re.M):
                return "the OMPT tool initialised but never checked the event log"
        if self.reader:
            logs = sorted(glob.glob(os.path.join(trace, "*.pvtrace")))
            if not logs:
                return "no flight log written with PVOMP_TRACE on"
            for log in logs:
                r = subprocess.run([self.reader, "dump", log], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, text=True, errors="replace")
                err = r.stderr.strip()
                if r.returncode == 0 and not err:
                    continue
                if shouldfail and r.returncode == 2 and "no end record" in err:
                    continue
                return "flight log %s does not read back whole (exit %d: %s)" % (
                    os.path.basename(log), r.returncode, err.splitlines()[0][:120] if err else "")
        return ""
