"""scikit-learn side of bench/compare_forest.sh (chapter 6, issue 13).

Two modes, on the data folder that lab/forest's TestWriteForestCompareData fills (raw
little-endian float64, row major; the environment variable KERNELLAB_COMPARE_DATA names it for
the Go side):

    python3 compare_forest.py prepare DIR   check the data, run scikit-learn's OMP path on the
                                            prediction matrix and write the order in which it picks
                                            the trees (sklearn_omp_order.f64) and their weights at
                                            the largest size on the raw columns
                                            (sklearn_omp_weights.f64) for the Go test
                                            TestPruneOMPAgreesWithSklearn
    python3 compare_forest.py time DIR [CALLS]
                                            time each route CALLS times (default 1, no warm-up
                                            call: each takes seconds to minutes, far above the
                                            first-touch costs a warm-up absorbs) and print the
                                            mean as "<name> <seconds> s", plus the validation
                                            scores of the forests (untimed) as "<name> <value> -"

The routes timed:
- RandomForestRegressor(n_estimators=1000, max_features=1.0, bootstrap=True, n_jobs=2) on
  California's training part (12,384 x 8), fully grown (scikit-learn's defaults otherwise);
- RandomForestClassifier(n_estimators=1000, max_features="sqrt", bootstrap=True, n_jobs=2) on
  Spambase's training part (2,761 x 57, labels +-1);
- OMP pruning of the 16,512 x 1000 per-tree prediction matrix at every size from 1 to 300 (30%
  of the forest), as the thesis's code does it: the columns normalised to unit norm once, then a
  fresh OrthogonalMatchingPursuit(n_nonzero_coefs=size, fit_intercept=False).fit per size (its
  default precompute="auto" forms the 1000 x 1000 Gram matrix in each fit, since n > T), the
  weights rescaled back to the raw columns;
- the same path in one call: orthogonal_mp(return_path=True, n_nonzero_coefs=300) on the
  unit-norm columns (its default precompute=False: X^T r from X at every step), the same with
  precompute=True (scikit-learn's Gram route, orthogonal_mp_gram: the peer's best route for the
  whole path), and OrthogonalMatchingPursuit fitted once at size 300 (the Gram route, the weights
  of the largest size only). Each call normalises the columns, as the per-size route does.
"""

import os
import sys
import time

import numpy as np
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
from sklearn.linear_model import OrthogonalMatchingPursuit, orthogonal_mp

TREES = 1000
PRUNE_MAX = 300  # 30% of the forest
JOBS = 2


def read(folder, name, columns=1):
    """Reads a raw float64 file as a matrix of the given number of columns (a vector for 1)."""
    data = np.fromfile(os.path.join(folder, name), dtype="<f8")
    if data.size == 0 or data.size % columns != 0:
        raise SystemExit(f"compare_forest.py: {name} holds {data.size} values, want a positive multiple of {columns}")
    return data if columns == 1 else data.reshape(-1, columns)


def write(folder, name, array):
    """Writes array as raw little-endian float64 (row-major), through a temporary file."""
    path = os.path.join(folder, name)
    np.ascontiguousarray(array, dtype="<f8").tofile(path + ".tmp")
    os.replace(path + ".tmp", path)


def split(folder, prefix, columns):
    """The training and validation parts of one data set."""
    parts = [read(folder, f"{prefix}_{part}_x.f64", columns) for part in ("train", "val")]
    targets = [read(folder, f"{prefix}_{part}_y.f64") for part in ("train", "val")]
    for x, y in zip(parts, targets):
        if x.shape[0] != y.size or not np.all(np.isfinite(x)) or not np.all(np.isfinite(y)):
            raise SystemExit(f"compare_forest.py: {prefix}: {x.shape} features, {y.size} targets, or non-finite values")
    return parts[0], targets[0], parts[1], targets[1]


def unit_columns(p):
    """The columns of p scaled to unit norm, and their norms."""
    norms = np.linalg.norm(p, axis=0)
    if np.any(norms == 0):
        raise SystemExit("compare_forest.py: a tree predicts 0 on every row")
    return p / norms, norms


def omp_per_size(p, y):
    """The thesis's route: unit-norm columns, one OrthogonalMatchingPursuit fit per size;
    returns the weights of every size on the raw columns (PRUNE_MAX x T)."""
    unit, norms = unit_columns(p)
    weights = np.empty((PRUNE_MAX, p.shape[1]))
    for size in range(1, PRUNE_MAX + 1):
        model = OrthogonalMatchingPursuit(n_nonzero_coefs=size, fit_intercept=False).fit(unit, y)
        weights[size - 1] = model.coef_ / norms
    return weights


def omp_path(p, y, precompute=False):
    """All sizes in one orthogonal_mp call (return_path=True): T x PRUNE_MAX weights; precompute
    selects scikit-learn's Gram route."""
    unit, norms = unit_columns(p)
    return orthogonal_mp(unit, y, n_nonzero_coefs=PRUNE_MAX, return_path=True, precompute=precompute) / norms[:, None]


def omp_largest(p, y):
    """One OrthogonalMatchingPursuit fit at the largest size."""
    unit, norms = unit_columns(p)
    return OrthogonalMatchingPursuit(n_nonzero_coefs=PRUNE_MAX, fit_intercept=False).fit(unit, y).coef_ / norms


def path_order(path):
    """The order in which the path's atoms enter: the new nonzero of each step."""
    order, seen = [], set()
    for step in range(path.shape[1]):
        new = [j for j in np.flatnonzero(path[:, step]) if j not in seen]
        if len(new) != 1:
            raise SystemExit(f"compare_forest.py: step {step + 1} of the OMP path adds {len(new)} atoms")
        seen.add(new[0])
        order.append(new[0])
    return np.array(order, dtype=float)


def prepare(folder):
    for prefix, columns in (("california", 8), ("spambase", 57)):
        x, y, vx, vy = split(folder, prefix, columns)
        print(f"prepare: {prefix}: {x.shape[0]} training x {x.shape[1]} features, {vx.shape[0]} validation rows")
    p, y = read(folder, "prune_p.f64", TREES), read(folder, "prune_y.f64")
    if p.shape[0] != y.size:
        raise SystemExit(f"compare_forest.py: prediction matrix {p.shape}, {y.size} targets")
    path = omp_path(p, y)
    order = path_order(path)
    # Independent check of the path: the last step's weights are least squares on its support.
    support = order.astype(int)
    lstsq = np.linalg.lstsq(p[:, support], y, rcond=None)[0]
    error = np.max(np.abs(path[support, -1] - lstsq)) / np.max(np.abs(lstsq))
    if error > 1e-6:
        raise SystemExit(f"compare_forest.py: OMP path weights off least squares on their support by {error:.3g} (relative)")
    # The per-size estimator picks the same trees as the path at a few sizes.
    unit, _ = unit_columns(p)
    for size in (1, 10, 100, PRUNE_MAX):
        coef = OrthogonalMatchingPursuit(n_nonzero_coefs=size, fit_intercept=False).fit(unit, y).coef_
        if set(np.flatnonzero(coef)) != set(support[:size]):
            print(f"prepare: note: the estimator at size {size} picks other trees than the path")
    write(folder, "sklearn_omp_order.f64", order)
    write(folder, "sklearn_omp_weights.f64", path[support, -1])
    print(f"prepare: prediction matrix {p.shape[0]} x {p.shape[1]}: OMP path to {PRUNE_MAX} trees, "
          f"weights vs least squares on the support {error:.2g} (relative)")


def measure(name, calls, f):
    """Calls f calls times and prints the mean wall-clock time; returns f's last value."""
    t0 = time.perf_counter()
    for r in range(calls):
        value = f(r)
    print(f"{name} {(time.perf_counter() - t0) / calls:.6g} s", flush=True)
    return value


def timings(folder, calls):
    x, y, vx, vy = split(folder, "california", 8)
    model = measure("sklearn_forest_california", calls, lambda r: RandomForestRegressor(
        n_estimators=TREES, max_features=1.0, bootstrap=True, n_jobs=JOBS, random_state=r).fit(x, y))
    print(f"sklearn_forest_california:val-MSE {np.mean((model.predict(vx) - vy) ** 2):.6g} -", flush=True)
    del model

    x, y, vx, vy = split(folder, "spambase", 57)
    model = measure("sklearn_forest_spambase", calls, lambda r: RandomForestClassifier(
        n_estimators=TREES, max_features="sqrt", bootstrap=True, n_jobs=JOBS, random_state=r).fit(x, y))
    print(f"sklearn_forest_spambase:val-accuracy {np.mean(model.predict(vx) == vy):.6g} -", flush=True)
    del model

    p, y = read(folder, "prune_p.f64", TREES), read(folder, "prune_y.f64")
    measure("sklearn_omp_per_size", calls, lambda r: omp_per_size(p, y))
    measure("sklearn_omp_path", calls, lambda r: omp_path(p, y))
    measure("sklearn_omp_gram_path", calls, lambda r: omp_path(p, y, precompute=True))
    measure("sklearn_omp_largest", calls, lambda r: omp_largest(p, y))


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("prepare", "time"):
        raise SystemExit("usage: compare_forest.py prepare DIR | time DIR [CALLS]")
    if sys.argv[1] == "prepare":
        prepare(sys.argv[2])
    else:
        timings(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 1)


if __name__ == "__main__":
    main()
