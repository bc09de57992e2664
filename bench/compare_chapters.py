"""numpy / scipy / scikit-learn side of bench/compare_chapters.sh (issues 4, 5 and 6).

Two modes, both on a data folder shared with the Go benchmarks (raw little-endian float64 files,
row-major, read by lab/leverage, lab/mmd and lab/pursuit's bench_compare_test.go through the
environment variable KERNELLAB_COMPARE_DATA):

    python3 compare_chapters.py prepare DIR   draw the data once, check the Python routes against
                                              independent references, write the values the Go
                                              tests compare with (TestExactAgreesWithScipy, ...)
    python3 compare_chapters.py time DIR [CALLS]
                                              time each route: one untimed warm-up call, then the
                                              mean of CALLS calls (default 4), printed as
                                              "<name> <seconds> s"

The routes timed:
- exact ridge leverage scores at n = 5000, d = 54 (uniform data; thesis rules sigma^2 = mean
  squared distance, lambda = 1 / mean ||x||): Gram matrix (one SYRK, then exp in place), Cholesky
  K + lambda I = U^T U (scipy.linalg.cholesky), U^-1 (LAPACK dtrtri) and
  l_i = 1 - lambda ||row i of U^-1||^2 -- the lab's route, nominal n^2 d + 2n^3/3 flops;
- exact MMD^2 (V-statistic, thesis eq. 4.2) at n = m = 10^4, d = 54, sigma = 3, by rbf_kernel
  block sums over blocks of 2000 rows: "sym" uses only the blocks on and right of the diagonal
  within each sample (2*10^8 kernel values, as the lab), "full" every block (3*10^8);
- OMP with 50 atoms on a 2000 x 4000 unit-norm Gaussian dictionary and a Gaussian signal:
  OrthogonalMatchingPursuit(n_nonzero_coefs=50, fit_intercept=False).fit, which copies the
  dictionary into Fortran order inside the timing, and orthogonal_mp(copy_X=False) on a Fortran
  copy made beforehand (no copy inside the timing; it permutes the columns of that copy in place,
  which leaves the problem the same up to the order of the atoms).
"""

import os
import sys
import time

import numpy as np
import scipy.linalg
from scipy.linalg.lapack import dtrtri
from sklearn.linear_model import OrthogonalMatchingPursuit, orthogonal_mp
from sklearn.metrics.pairwise import rbf_kernel

D = 54
RLS_N, RLS_SMALL_N = 5000, 1000
MMD_N, MMD_SMALL_N, MMD_SIGMA, MMD_BLOCK = 10000, 2000, 3.0, 2000
OMP_D, OMP_N, OMP_ATOMS = 2000, 4000, 50


def write(folder, name, array):
    """Writes array as raw little-endian float64 (row-major), through a temporary file."""
    path = os.path.join(folder, name)
    np.ascontiguousarray(array, dtype="<f8").tofile(path + ".tmp")
    os.replace(path + ".tmp", path)


def read(folder, name, shape):
    """Reads a raw float64 file written by write and checks its size."""
    data = np.fromfile(os.path.join(folder, name), dtype="<f8")
    if data.size != int(np.prod(shape)):
        raise SystemExit(f"compare_chapters.py: {name} holds {data.size} values, want {shape}")
    return data.reshape(shape)


def thesis_rules(x):
    """sigma^2 = mean squared distance over all ordered pairs = 2 * mean ||x - mean||^2, and
    lambda = 1 / mean ||x|| (lab/kernel's MeanSquaredDistance and ThesisRidge)."""
    centred = x - x.mean(axis=0)
    sigma2 = 2.0 * np.einsum("ij,ij->", centred, centred) / x.shape[0]
    return sigma2, 1.0 / np.mean(np.sqrt(np.einsum("ij,ij->i", x, x)))


def exact_rls(x, sigma2, lam):
    """l_i = [K(K + lambda I)^-1]_ii by Gram + Cholesky + inverse of the factor."""
    gamma = 1.0 / (2.0 * sigma2)
    sq = np.einsum("ij,ij->i", x, x)
    k = x @ x.T  # numpy runs x x^T as one SYRK
    k *= 2.0 * gamma
    k -= gamma * sq[:, None]
    k -= gamma * sq[None, :]
    np.exp(k, out=k)
    k.flat[:: k.shape[0] + 1] += lam
    u = scipy.linalg.cholesky(k, lower=False, overwrite_a=True, check_finite=False)  # lower triangle zeroed
    u_inv, info = dtrtri(u, lower=0, overwrite_c=1)
    if info != 0:
        raise SystemExit(f"compare_chapters.py: dtrtri info {info}")
    return np.clip(1.0 - lam * np.einsum("ij,ij->i", u_inv, u_inv), 0.0, 1.0)


def within_sum(a, gamma, symmetric):
    """sum_ij k(a_i, a_j) by blocks of MMD_BLOCK rows; symmetric: blocks right of the diagonal
    only, counted twice."""
    total = 0.0
    for i in range(0, a.shape[0], MMD_BLOCK):
        if symmetric:
            block = rbf_kernel(a[i : i + MMD_BLOCK], a[i:], gamma=gamma)
            b = block.shape[0]
            total += block[:, :b].sum() + 2.0 * block[:, b:].sum()
        else:
            total += rbf_kernel(a[i : i + MMD_BLOCK], a, gamma=gamma).sum()
    return total


def exact_mmd2(x, z, sigma, symmetric=True):
    """The V-statistic MMD^2 of thesis eq. (4.2) by rbf_kernel block sums."""
    gamma = 1.0 / (2.0 * sigma * sigma)
    between = sum(rbf_kernel(x[i : i + MMD_BLOCK], z, gamma=gamma).sum() for i in range(0, x.shape[0], MMD_BLOCK))
    n, m = x.shape[0], z.shape[0]
    return within_sum(x, gamma, symmetric) / n**2 + within_sum(z, gamma, symmetric) / m**2 - 2.0 * between / (n * m)


def omp_fit(dictionary, y):
    """scikit-learn's estimator on the d x n dictionary (rows = samples, columns = atoms)."""
    return OrthogonalMatchingPursuit(n_nonzero_coefs=OMP_ATOMS, fit_intercept=False).fit(dictionary, y).coef_


def prepare(folder):
    rng = np.random.default_rng(2024)
    x = rng.random((RLS_N, D))
    write(folder, "rls_x.f64", x)
    small = x[:RLS_SMALL_N]
    sigma2, lam = thesis_rules(small)
    scores = exact_rls(small, sigma2, lam)
    # Independent reference: l_i = 1 - lambda [(K + lambda I)^-1]_ii with a general inverse.
    kernel = rbf_kernel(small, gamma=1.0 / (2.0 * sigma2))
    reference = 1.0 - lam * np.diag(np.linalg.inv(kernel + lam * np.eye(RLS_SMALL_N)))
    error = np.max(np.abs(scores - reference))
    if error > 1e-10:
        raise SystemExit(f"compare_chapters.py: Python RLS route off the inverse formula by {error:.3g}")
    write(folder, "rls_small_params.f64", np.array([sigma2, lam]))
    write(folder, "rls_small_scores.f64", scores)
    print(f"prepare: exact RLS, n = {RLS_SMALL_N}: sigma^2 = {sigma2:.6g}, lambda = {lam:.6g}, d_eff = {scores.sum():.6g}, "
          f"max |Gram+Cholesky - inverse formula| = {error:.2g}")

    x, z = rng.random((MMD_N, D)), rng.random((MMD_N, D))
    write(folder, "mmd_x.f64", x)
    write(folder, "mmd_z.f64", z)
    xs, zs = x[:MMD_SMALL_N], z[:MMD_SMALL_N]
    value = exact_mmd2(xs, zs, MMD_SIGMA)
    gamma = 1.0 / (2.0 * MMD_SIGMA**2)
    reference = (rbf_kernel(xs, gamma=gamma).mean() + rbf_kernel(zs, gamma=gamma).mean()
                 - 2.0 * rbf_kernel(xs, zs, gamma=gamma).mean())
    if abs(value - reference) > 1e-12 or abs(exact_mmd2(xs, zs, MMD_SIGMA, symmetric=False) - reference) > 1e-12:
        raise SystemExit(f"compare_chapters.py: MMD block sums {value!r} off the dense formula {reference!r}")
    write(folder, "mmd_small.f64", np.array([value]))
    print(f"prepare: exact MMD^2, n = m = {MMD_SMALL_N}: {value:.12g} (dense formula {reference:.12g})")

    dictionary = rng.standard_normal((OMP_D, OMP_N))
    dictionary /= np.linalg.norm(dictionary, axis=0)
    y = rng.standard_normal(OMP_D)
    write(folder, "omp_dictionary.f64", dictionary)
    write(folder, "omp_y.f64", y)
    coef = omp_fit(dictionary, y)
    support = np.flatnonzero(coef)
    # Independent reference: the coefficients are least squares on the support found.
    lstsq = np.linalg.lstsq(dictionary[:, support], y, rcond=None)[0]
    if support.size != OMP_ATOMS or np.max(np.abs(coef[support] - lstsq)) > 1e-10:
        raise SystemExit(f"compare_chapters.py: scikit-learn OMP support of {support.size} atoms, or not least squares")
    no_copy = orthogonal_mp(np.asfortranarray(dictionary), y, n_nonzero_coefs=OMP_ATOMS, copy_X=False)
    if not np.array_equal(np.flatnonzero(no_copy), support):
        raise SystemExit("compare_chapters.py: orthogonal_mp(copy_X=False) picks another support than the estimator")
    write(folder, "omp_coef.f64", coef)
    print(f"prepare: OMP, {OMP_D} x {OMP_N} dictionary: {support.size} atoms, residual norm {np.linalg.norm(y - dictionary @ coef):.6g}")


def measure(name, calls, f):
    """Calls f once untimed, then calls times, and prints the mean wall-clock time."""
    f()
    t0 = time.perf_counter()
    for _ in range(calls):
        f()
    print(f"{name} {(time.perf_counter() - t0) / calls:.6g} s", flush=True)


def timings(folder, calls):
    x = read(folder, "rls_x.f64", (RLS_N, D))
    sigma2, lam = thesis_rules(x)
    measure("scipy_exact_rls", calls, lambda: exact_rls(x, sigma2, lam))

    x, z = read(folder, "mmd_x.f64", (MMD_N, D)), read(folder, "mmd_z.f64", (MMD_N, D))
    measure("sklearn_mmd_sym", calls, lambda: exact_mmd2(x, z, MMD_SIGMA, symmetric=True))
    measure("sklearn_mmd_full", calls, lambda: exact_mmd2(x, z, MMD_SIGMA, symmetric=False))

    dictionary, y = read(folder, "omp_dictionary.f64", (OMP_D, OMP_N)), read(folder, "omp_y.f64", (OMP_D,))
    measure("sklearn_omp_fit", calls, lambda: omp_fit(dictionary, y))
    fortran = np.asfortranarray(dictionary)
    measure("sklearn_orthogonal_mp_nocopy", calls,
            lambda: orthogonal_mp(fortran, y, n_nonzero_coefs=OMP_ATOMS, copy_X=False))


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("prepare", "time"):
        raise SystemExit("usage: compare_chapters.py prepare DIR | time DIR [CALLS]")
    if sys.argv[1] == "prepare":
        prepare(sys.argv[2])
    else:
        timings(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 4)


if __name__ == "__main__":
    main()
