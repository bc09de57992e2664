"""scikit-learn / numpy side of bench/compare_slides.sh (the slides' library, issue 14).

Two modes, on the data folder that lab/factor's TestWriteFactorCompareData and lab/learn's
TestWriteLearnCompareData fill (raw little-endian float64, row major; the bag of words as COO
triplets; the environment variable KERNELLAB_COMPARE_DATA names it for the Go side):

    python3 compare_slides.py prepare DIR   check the data and write, for the Go tests *AgreesWith*,
                                            the 50 singular values of randomized_svd on the dense
                                            matrix and on the bag of words
                                            (sklearn_rsvd_{dense,sparse}_values.f64), scipy's svds
                                            values of the bag of words (svds_sparse_values.f64),
                                            numpy.linalg.svd's leading 50 values of the classic-SVD
                                            matrix (numpy_svd_values.f64) and the predictions of
                                            KNeighborsClassifier on the query faces
                                            (sklearn_knn_pred.f64)
    python3 compare_slides.py time DIR [CALLS]
                                            time each route: one untimed warm-up call, then the
                                            mean of CALLS calls (default 2), printed as
                                            "<name> <seconds> s"

The routes timed:
- randomized_svd(A, 50, n_oversamples=10, n_iter=4, power_iteration_normalizer="QR") (the lab
  re-orthonormalises after every product too), on the 20,000 x 1000 dense matrix and on the
  20 Newsgroups bag of words (scipy CSR); for reference also with power_iteration_normalizer="LU"
  (what "auto" picks for n_iter > 2);
- numpy.linalg.svd(A, full_matrices=False) of the 2000 x 1000 Gaussian matrix;
- KNeighborsClassifier(n_neighbors=5, algorithm="brute").predict on the query faces, the model
  fitted once outside the timing.
"""

import os
import sys
import time

import numpy as np
import scipy.sparse
import scipy.sparse.linalg
from sklearn.neighbors import KNeighborsClassifier
from sklearn.utils.extmath import randomized_svd

ROWS, COLS = 20000, 1000  # the dense randomized-SVD matrix
SVD_ROWS = 2000  # the classic-SVD matrix: SVD_ROWS x COLS
K, OVERSAMPLE, POWER = 50, 10, 4
COMPONENTS = 100  # the faces' projection
NEIGHBOURS = 5
DENSE_TOL, SPARSE_TOL = 1e-6, 5e-2  # as the Go test TestRandomizedSVDAgreesWithSklearn


def read(folder, name, columns=1):
    """Reads a raw float64 file as a matrix of the given number of columns (a vector for 1)."""
    data = np.fromfile(os.path.join(folder, name), dtype="<f8")
    if data.size == 0 or data.size % columns != 0 or not np.all(np.isfinite(data)):
        raise SystemExit(f"compare_slides.py: {name} holds {data.size} values, want a positive multiple of {columns}, all finite")
    return data if columns == 1 else data.reshape(-1, columns)


def write(folder, name, array):
    """Writes array as raw little-endian float64 (row-major), through a temporary file."""
    path = os.path.join(folder, name)
    np.ascontiguousarray(array, dtype="<f8").tofile(path + ".tmp")
    os.replace(path + ".tmp", path)


def bag_of_words(folder):
    """The bag of words written as COO triplets (prefix bow), as a CSR matrix."""
    rows, cols = read(folder, "bow_shape.f64").astype(int)
    i, j, v = (read(folder, f"bow_{part}.f64") for part in ("i", "j", "v"))
    if not (i.size == j.size == v.size):
        raise SystemExit(f"compare_slides.py: bag of words: {i.size}, {j.size} and {v.size} triplet parts")
    return scipy.sparse.coo_matrix((v, (i.astype(int), j.astype(int))), shape=(rows, cols)).tocsr()


def dense(folder):
    a = read(folder, "rsvd_dense.f64", COLS)
    if a.shape[0] != ROWS:
        raise SystemExit(f"compare_slides.py: rsvd_dense.f64 has {a.shape[0]} rows, want {ROWS}")
    return a


def rsvd(a, seed, normalizer="QR"):
    return randomized_svd(a, K, n_oversamples=OVERSAMPLE, n_iter=POWER,
                          power_iteration_normalizer=normalizer, random_state=seed)


def faces(folder):
    x, q = read(folder, "knn_train_x.f64", COMPONENTS), read(folder, "knn_query_x.f64", COMPONENTS)
    y, yq = read(folder, "knn_train_y.f64"), read(folder, "knn_query_y.f64")
    if x.shape[0] != y.size or q.shape[0] != yq.size:
        raise SystemExit(f"compare_slides.py: faces {x.shape} with {y.size} labels, {q.shape} with {yq.size}")
    return x, y, q, yq


def knn(x, y):
    return KNeighborsClassifier(n_neighbors=NEIGHBOURS, algorithm="brute").fit(x, y)


def relative_error(got, want):
    return np.max(np.abs(got - want) / want)


def prepare(folder):
    a, exact = dense(folder), read(folder, "rsvd_dense_values.f64")
    values = rsvd(a, 0)[1]
    error = relative_error(values, exact)
    if error > DENSE_TOL:
        raise SystemExit(f"compare_slides.py: randomized_svd on the dense matrix is off the closed form by {error:.3g} (relative)")
    write(folder, "sklearn_rsvd_dense_values.f64", values)
    print(f"prepare: dense {a.shape[0]} x {a.shape[1]}: randomized_svd values within {error:.2g} (relative) of the closed form")
    del a

    bow = bag_of_words(folder)
    reference = np.sort(scipy.sparse.linalg.svds(bow, k=K, return_singular_vectors=False, random_state=0))[::-1]
    values = rsvd(bow, 0)[1]
    error = relative_error(values, reference)
    if error > SPARSE_TOL:
        raise SystemExit(f"compare_slides.py: randomized_svd on the bag of words is off svds by {error:.3g} (relative)")
    write(folder, "svds_sparse_values.f64", reference)
    write(folder, "sklearn_rsvd_sparse_values.f64", values)
    print(f"prepare: bag of words {bow.shape[0]} x {bow.shape[1]}, {bow.nnz} stored counts: randomized_svd values "
          f"within {error:.2g} (relative) of svds")

    b = read(folder, "svd_dense.f64", COLS)
    values = np.linalg.svd(b, full_matrices=False, compute_uv=False)
    # Independent check: the sum of squared singular values is the squared Frobenius norm.
    if abs(np.sum(values**2) - np.sum(b**2)) > 1e-10 * np.sum(b**2):
        raise SystemExit("compare_slides.py: numpy's singular values do not add up to the Frobenius norm")
    write(folder, "numpy_svd_values.f64", values[:K])
    print(f"prepare: classic SVD {b.shape[0]} x {b.shape[1]}: largest value {values[0]:.6g}")

    x, y, q, yq = faces(folder)
    pred = knn(x, y).predict(q)
    write(folder, "sklearn_knn_pred.f64", pred)
    print(f"prepare: faces: {x.shape[0]} training, {q.shape[0]} query, {x.shape[1]} components, "
          f"{np.unique(y).size} people: KNN (K = {NEIGHBOURS}) accuracy {np.mean(pred == yq):.4f}")


def measure(name, calls, f):
    """Calls f once untimed (seed 0), then calls times (seeds 1..calls), and prints the mean
    wall-clock time."""
    f(0)
    t0 = time.perf_counter()
    for r in range(1, calls + 1):
        f(r)
    print(f"{name} {(time.perf_counter() - t0) / calls:.6g} s", flush=True)


def timings(folder, calls):
    a = dense(folder)
    measure("sklearn_rsvd_dense", calls, lambda r: rsvd(a, r))
    measure("sklearn_rsvd_dense_lu", calls, lambda r: rsvd(a, r, "LU"))
    del a
    bow = bag_of_words(folder)
    measure("sklearn_rsvd_sparse", calls, lambda r: rsvd(bow, r))
    measure("sklearn_rsvd_sparse_lu", calls, lambda r: rsvd(bow, r, "LU"))
    b = read(folder, "svd_dense.f64", COLS)
    measure("numpy_svd", calls, lambda r: np.linalg.svd(b, full_matrices=False))
    x, y, q, _ = faces(folder)
    model = knn(x, y)
    measure("sklearn_knn_predict", calls, lambda r: model.predict(q))


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("prepare", "time"):
        raise SystemExit("usage: compare_slides.py prepare DIR | time DIR [CALLS]")
    if sys.argv[1] == "prepare":
        prepare(sys.argv[2])
    else:
        timings(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 2)


if __name__ == "__main__":
    main()
