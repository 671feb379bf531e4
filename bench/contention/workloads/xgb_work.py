"""xgboost: train a hist-method model on fixed synthetic data.  Usage:
xgb_work.py ROWS ROUNDS NTHREAD [OUT.npz] (OUT: the predictions, for
tests/real).  Prints the training time, a digest of the
predictions and the OpenMP runtime this process mapped:
  SECONDS <s> DIGEST <sha256 of the predictions> RUNTIME <path>"""
import hashlib
import sys
import time

import numpy as np
import xgboost as xgb

from maps import mapped


def main():
    rows, rounds, nthread = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    rng = np.random.default_rng(7)
    x = rng.standard_normal((rows, 20)).astype(np.float32)
    y = (x[:, 0] * x[:, 1] + np.sin(x[:, 2]) + 0.1 * rng.standard_normal(rows) > 0).astype(np.float32)
    d = xgb.DMatrix(x, label=y, nthread=nthread)
    params = {"tree_method": "hist", "objective": "binary:logistic", "max_depth": 6,
              "eta": 0.3, "nthread": nthread, "seed": 1, "verbosity": 0}
    t0 = time.perf_counter()
    model = xgb.train(params, d, num_boost_round=rounds)
    t = time.perf_counter() - t0
    pred = model.predict(d)
    if len(sys.argv) > 4:
        np.savez(sys.argv[4], predict=pred)
    print("SECONDS %.6f DIGEST %s RUNTIME %s" %
          (t, hashlib.sha256(pred.tobytes()).hexdigest(), mapped("libgomp.so.1")))


if __name__ == "__main__":
    main()
