"""Real programs from Debian on pvomp: their results must be libgomp's.

Installs python3-numpy with libopenblas0-openmp, python3-xgboost and
graphicsmagick (apt-get), then runs each workload twice on the system
libgomp and once on pvomp (no variable set: pvomp's default), 2 threads,
and compares:

  numpy-matmul, numpy-solve  a 600x600 product and a solve (OpenBLAS's OpenMP
                             variant), fixed data
  xgboost-predict            predictions of a hist model trained on 20 000
                             fixed rows, nthread=2, fixed seed
  gm-blur-resize             the raw RGB pixels of `gm convert -blur -resize`
                             of a generated 1500x1000 image

Bit-identical where libgomp's two runs are; else within libgomp's own spread
(the largest difference between its two runs).  Each run proves its
runtime: the Python workloads name the libgomp.so.1 they mapped
(/proc/self/maps); gm's loader records it (LD_DEBUG=libs).  No timing.
Usage: /usr/bin/python3 tests/real/real_programs.py BUILD_DIR [--no-install]"""

import glob
import os
import re
import subprocess
import sys
import tempfile

np = None  # numpy, imported once main() has installed python3-numpy

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORKLOADS = os.path.join(ROOT, "bench", "contention", "workloads")
PYTHON = "/usr/bin/python3"
OPENBLAS_OPENMP = "/usr/lib/x86_64-linux-gnu/openblas-openmp"
SYSTEM_LIBGOMP = "/usr/lib/x86_64-linux-gnu/libgomp.so.1"
PACKAGES = ["python3-numpy", "libopenblas0-openmp", "python3-xgboost", "graphicsmagick"]


def install():
    cmd = ["apt-get", "install", "-y", "-q", "--no-install-recommends"] + PACKAGES
    if subprocess.run(cmd, stdout=subprocess.DEVNULL).returncode != 0:
        subprocess.run(["apt-get", "update", "-q"], stdout=subprocess.DEVNULL)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def env_for(libdir):
    """2 threads, libgomp.so.1 from libdir (None: the system's), OpenBLAS's
    OpenMP variant; no OpenMP or pvomp variable from the caller."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("OMP_", "GOMP_", "KMP_", "LD_", "PVOMP_"))}
    env["OMP_NUM_THREADS"] = "2"
    env["LD_LIBRARY_PATH"] = ":".join(([libdir] if libdir else []) + [OPENBLAS_OPENMP])
    return env


def expected(libdir):
    return os.path.realpath(os.path.join(libdir, "libgomp.so.1") if libdir else SYSTEM_LIBGOMP)


def python_workload(script, args, libdir, out):
    r = subprocess.run([PYTHON, os.path.join(WORKLOADS, script)] + args + [out],
                       env=env_for(libdir), capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("%s failed (exit %d): %s" % (script, r.returncode, r.stderr[-2000:]))
    m = re.search(r"RUNTIME (\S+)", r.stdout)
    if not m or os.path.realpath(m.group(1)) != expected(libdir):
        raise RuntimeError("%s mapped %s, not %s" % (script, m and m.group(1), expected(libdir)))
    if script == "numpy_work.py" and "openblas-openmp" not in r.stdout:
        raise RuntimeError("numpy did not map OpenBLAS's OpenMP variant: " + r.stdout)
    with np.load(out) as z:
        return {k: z[k].copy() for k in z.files}


def gm_workload(libdir, tmp, image):
    out = os.path.join(tmp, "out-%d.rgb" % len(os.listdir(tmp)))
    ld = tempfile.mkdtemp(dir=tmp)
    env = env_for(libdir)
    env["LD_DEBUG"] = "libs"
    env["LD_DEBUG_OUTPUT"] = os.path.join(ld, "ld")
    subprocess.run(["gm", "convert", image, "-blur", "0x2", "-resize", "150%", "rgb:" + out],
                   env=env, check=True)
    inits = set()
    for f in glob.glob(os.path.join(ld, "ld.*")):
        with open(f, errors="replace") as fh:
            inits |= set(re.findall(r"calling init: (\S*libgomp\.so\.1\S*)", fh.read()))
    if {os.path.realpath(p) for p in inits} != {expected(libdir)}:
        raise RuntimeError("gm initialised %s, not %s" % (sorted(inits) or "no libgomp.so.1",
                                                         expected(libdir)))
    return {"blur-resize": np.fromfile(out, dtype=np.uint8).astype(np.int16)}


def compare(name, ref1, ref2, got):
    """None if `got` is libgomp's result, else why not."""
    if ref1.shape != got.shape:
        return "shape %s, libgomp's %s" % (got.shape, ref1.shape)
    if np.array_equal(ref1, ref2):
        if np.array_equal(ref1, got):
            return None
        return "differs from libgomp's (which is run-to-run identical): max |diff| %g" % \
            np.max(np.abs(got.astype(np.float64) - ref1))
    spread = np.max(np.abs(ref2.astype(np.float64) - ref1))
    diff = np.max(np.abs(got.astype(np.float64) - ref1))
    print("  %s: libgomp's runs differ by up to %g; pvomp's by %g" % (name, spread, diff))
    return None if diff <= spread else "differs by %g, beyond libgomp's spread %g" % (diff, spread)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.split("\n\n")[-1])
    build = os.path.abspath(sys.argv[1])
    pvomp = os.path.join(build, "lib")
    if not os.path.exists(os.path.join(pvomp, "libgomp.so.1")):
        sys.exit("real-programs: %s/libgomp.so.1 not built" % pvomp)
    if "--no-install" not in sys.argv:
        install()
    global np
    import numpy
    np = numpy
    # The library in BUILD/lib is pvomp (its own export), and each run below
    # proves that it is the file its process loaded.
    syms = subprocess.run(["nm", "-D", "--defined-only", os.path.join(pvomp, "libgomp.so.1")],
                          capture_output=True, text=True).stdout
    if not re.search(r" T pvomp_version(@@\S+)?$", syms, re.M):
        sys.exit("real-programs: %s/libgomp.so.1 is not pvomp (no pvomp_version)\n"
                 "real-programs: 0 passed, 1 failed" % pvomp)
    passed, failed = 0, 0
    with tempfile.TemporaryDirectory(prefix="real-programs-") as tmp:
        image = os.path.join(tmp, "in.miff")
        subprocess.run(["gm", "convert", "-size", "1500x1000", "gradient:red-blue", "+noise",
                        "Gaussian", image], check=True)
        workloads = [
            ("numpy", lambda lib, i: python_workload(
                "numpy_work.py", ["600", "2"], lib, os.path.join(tmp, "np%d.npz" % i))),
            ("xgboost", lambda lib, i: python_workload(
                "xgb_work.py", ["20000", "10", "2"], lib, os.path.join(tmp, "xgb%d.npz" % i))),
            ("gm", lambda lib, i: gm_workload(lib, tmp, image)),
        ]
        for prog, run in workloads:
            try:
                ref1, ref2, got = run(None, 1), run(None, 2), run(pvomp, 3)
            except (RuntimeError, subprocess.CalledProcessError) as e:
                print("FAIL %s: %s" % (prog, e))
                failed += 1
                continue
            for key in sorted(ref1):
                name = "%s-%s" % (prog, key)
                why = compare(name, ref1[key], ref2[key], got[key])
                print("%s %s%s" % ("PASS" if why is None else "FAIL", name,
                                   "" if why is None else ": " + why))
                passed, failed = passed + (why is None), failed + (why is not None)
    print("real-programs: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed or not passed else 0)


if __name__ == "__main__":
    main()
