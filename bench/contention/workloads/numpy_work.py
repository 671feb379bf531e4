"""numpy on OpenBLAS's OpenMP variant: a matrix product and a solve on fixed
data.  Usage: numpy_work.py N REPEATS [OUT.npz] (OUT: the last results, for
tests/real).  Prints the compute time, a digest of
the results and the OpenMP runtime this process mapped:
  SECONDS <s> DIGEST <sha256 of the result bytes> RUNTIME <path> BLAS <path>"""
import hashlib
import sys
import time

import numpy as np

from maps import mapped


def main():
    n, repeats = int(sys.argv[1]), int(sys.argv[2])
    rng = np.random.default_rng(42)
    a = rng.standard_normal((n, n))
    b = rng.standard_normal((n, n))
    h = hashlib.sha256()
    t0 = time.perf_counter()
    for _ in range(repeats):
        c = a @ b
        x = np.linalg.solve(a, c[:, :8])
        h.update(c.tobytes())
        h.update(x.tobytes())
    t = time.perf_counter() - t0
    if len(sys.argv) > 3:
        np.savez(sys.argv[3], matmul=c, solve=x)
    print("SECONDS %.6f DIGEST %s RUNTIME %s BLAS %s" %
          (t, h.hexdigest(), mapped("libgomp.so.1"), mapped("openblas")))


if __name__ == "__main__":
    main()
