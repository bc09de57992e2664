"""scikit-learn side of bench/compare_sklearn.sh: times Nystroem, RBFSampler and rbf_kernel on the
data of the Go benchmarks (n = 100000 points uniform on [0, 1)^54, 500 components, gamma = 1/(2*9))
and numpy's DGEMM rate at the size of the Nystroem feature map. Each measure gets one untimed
warm-up call (first touches of fresh memory are slow), then `calls` timed calls whose mean is
printed as

    <name> <value> <unit>

Usage: python3 compare_sklearn.py [calls]   (default 4; bench/compare_sklearn.sh runs it once per
round, between runs of the Go side, so that both see the same load on a shared machine)
"""

import sys
import time

import numpy as np
from sklearn.kernel_approximation import Nystroem, RBFSampler
from sklearn.metrics.pairwise import rbf_kernel

N, D, S = 100000, 54, 500
GAMMA = 1.0 / (2 * 9.0)  # sigma = 3: the mean squared distance of uniform [0, 1)^54 is 54/6 = 9


def measure(name, calls, f, unit="s", convert=lambda seconds: seconds):
    """Calls f once untimed, then calls times, and prints the converted mean wall-clock time."""
    f(0)
    t0 = time.perf_counter()
    for r in range(1, calls + 1):
        f(r)
    print(f"{name} {convert((time.perf_counter() - t0) / calls):.6g} {unit}", flush=True)


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    rng = np.random.default_rng(2024)
    X = rng.random((N, D))
    landmarks = X[rng.choice(N, S, replace=False)]

    measure("sklearn_nystroem_fit_transform", runs,
            lambda r: Nystroem(gamma=GAMMA, n_components=S, random_state=r).fit_transform(X))
    measure("sklearn_rbfsampler_fit_transform", runs,
            lambda r: RBFSampler(gamma=GAMMA, n_components=S, random_state=r).fit_transform(X))
    measure("sklearn_rbf_kernel", runs, lambda r: rbf_kernel(X, landmarks, gamma=GAMMA))

    # DGEMM at the size of the Nystroem map, (n x s)(s x s), into a buffer allocated beforehand.
    a, b = rng.random((N, S)), rng.random((S, S))
    c = np.empty((N, S))
    measure("numpy_dgemm", runs, lambda r: np.dot(a, b, out=c), "GFLOP/s",
            lambda seconds: 2.0 * N * S * S / seconds / 1e9)


if __name__ == "__main__":
    main()
