"""Write test/unit/scoring/data/pca-oracle.json: what the reference's numerics produce for PCA frames.

The reference scorer ran on numpy 1.24.4 and scipy 1.10.1 (the PyPI wheels, bundling OpenBLAS 0.3.21 and
0.3.18) on x86-64. Its PCA frame (scoring.md §5.2) is `scipy.linalg.eigh(X̃ᵀX̃, driver="evd")` followed by numpy
projector arithmetic; conformance 07_pca cases 4–6 are only reproducible bit for bit from those exact operation
orders. This script records, from that environment, (1) eigen-decompositions of assorted symmetric 3×3
matrices and (2) complete PCA frames of assorted clouds, so our emulation is tested against the real thing.

Run (x86-64 with AVX2/FMA, numpy 1.24.4 + scipy 1.10.1):
    python3 -m venv /tmp/ref && /tmp/ref/bin/pip install numpy==1.24.4 scipy==1.10.1
    /tmp/ref/bin/python scripts/oracle/pca_oracle.py > test/unit/scoring/data/pca-oracle.json
"""
import json
import sys
from fractions import Fraction

import numpy as np
import scipy
import scipy.linalg as sl

assert np.__version__ == "1.24.4" and scipy.__version__ == "1.10.1", (np.__version__, scipy.__version__)


def reference_pca_frame(V):
    """§5.2 as the reference computes it (the operation order matters at the last bit)."""
    c = V.mean(axis=0)
    X = V - c
    w, U = sl.eigh(X.T @ X, driver="evd")
    order = np.argsort(w)[::-1]
    w, U = w[order], U[:, order]
    groups, i = [], 0
    while i < 3:
        j = i + 1
        while j < 3 and w[j - 1] - w[j] <= 1e-10 * w[0]:
            j += 1
        groups.append((i, j))
        i = j
    Xs = X / np.linalg.norm(X, axis=1).max()
    axes = []
    for i, j in groups:
        Vg = U[:, i:j]
        P = Vg @ Vg.T
        chosen = []
        for x in Xs:
            r = P @ x
            for a in chosen:
                r = r - (r @ a) * a
            n = np.linalg.norm(r)
            if n > 1e-8:
                a = r / n
                chosen.append(a)
                axes.append(a)
                if len(chosen) == j - i or len(axes) == 2:
                    break
        if len(axes) >= 2:
            break
    a1 = axes[0] / np.linalg.norm(axes[0])
    a2 = axes[1] - (axes[1] @ a1) * a1
    a2 = a2 / np.linalg.norm(a2)
    return c, np.stack([a1, a2, np.cross(a1, a2)], axis=1)


def random_rotation(rng):
    q = rng.standard_normal(4)
    q /= np.linalg.norm(q)
    w, x, y, z = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def symmetric_matrices(rng):
    out = []
    for _ in range(150):  # scatter matrices of anisotropic clouds
        n = int(rng.integers(4, 60))
        X = rng.standard_normal((n, 3)) * rng.uniform(0.01, 3, 3) @ random_rotation(rng).T
        X = X - X.mean(axis=0)
        out.append(X.T @ X)
    for _ in range(100):  # dense random symmetric
        A = rng.standard_normal((3, 3)) * np.exp(rng.uniform(-3, 3))
        out.append(A + A.T)
    for _ in range(50):  # nearly repeated eigenvalues
        R = random_rotation(rng)
        lam = np.array([1.0, 1.0 + rng.uniform(-1e-9, 1e-9), rng.uniform(0.1, 2)]) * np.exp(rng.uniform(-2, 2))
        out.append((R * lam) @ R.T)
    for _ in range(50):  # with exact zeros (already tridiagonal / diagonal / split blocks)
        A = rng.standard_normal((3, 3))
        A = A + A.T
        mask = rng.integers(0, 2, (3, 3))
        mask = np.triu(mask, 1)
        mask = mask + mask.T + np.eye(3, dtype=int)
        out.append(A * mask)
    out.append(np.zeros((3, 3)))
    out.append(np.eye(3))
    out.append(np.diag([3.0, 1.0, 2.0]))
    return out


def clouds(rng):
    out = []
    for n in (8, 12, 50, 200, 384, 385, 500, 769, 1000):
        R = random_rotation(rng)
        out.append(rng.standard_normal((n, 3)) * rng.uniform(0.05, 2, 3) @ R.T + rng.standard_normal(3))
    for _ in range(40):  # the 07_pca precision construction at random orientations and offsets o
        o = float(rng.choice([2e-8, 3.1e-8, 4.1e-8, 1e-7, 1e-6]))
        base = np.array([[o, 1, 0], [-o, 1, 0], [o, -1, 0], [-o, -1, 0], [3, 0, 0], [-3, 0, 0], [0, 0, 0.5], [0, 0, -0.5]])
        out.append(base @ random_rotation(rng).T)
    for _ in range(20):  # boxes with tied extents (2-D and 3-D eigenspaces), rotated
        dims = rng.choice([[1, 1, 1], [2, 2, 0.01], [1, 1, 0.5], [3, 1, 1]])
        corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=float) * dims
        out.append(corners @ random_rotation(rng).T if rng.integers(0, 2) else corners)
    for _ in range(30):  # small anisotropic clouds
        n = int(rng.integers(5, 40))
        out.append(rng.standard_normal((n, 3)) * rng.uniform(0.01, 2, 3) @ random_rotation(rng).T)
    return out


def fma_cases(rng):
    """round(a·b + c) computed exactly (Fraction → float rounds correctly): an oracle independent of ours."""
    out = []
    def scaled():
        return float(rng.uniform(-1, 1)) * 2.0 ** int(rng.integers(-40, 40))
    for k in range(400):
        a, b = scaled(), scaled()
        kind = k % 5
        if kind == 0:
            c = scaled()
        elif kind == 1:
            c = -(a * b)  # exact cancellation of the rounded product: the result is the product's rounding error
        elif kind == 2:
            c = -(a * b) * (1 + float(rng.uniform(-1, 1)) * 2.0 ** -45)
        elif kind == 3:
            c = (a * b) * 2.0 ** int(rng.integers(-70, 70))
        else:
            c = float(np.nextafter(-(a * b), np.inf))
        out.append([a, b, c])
    # range edges: huge and tiny operands, subnormal results, overflow
    out += [[2.0 ** 600, 2.0 ** 400, -(2.0 ** 1000)], [2.0 ** -600, 2.0 ** -500, 2.0 ** -1074], [3.0 ** 300, 3.0 ** 300, 1.0],
            [2.0 ** -537, 2.0 ** -537 + 2.0 ** -589, -(2.0 ** -1074)], [1e300, 1e10, -1e308], [0.1, 10.0, -1.0],
            [1.0 + 2.0 ** -52, 1.0 - 2.0 ** -53, -1.0], [5e-324, 0.5, 0.0], [-0.0, 1.0, 0.0], [1e-200, 1e-200, -0.0]]
    rows = []
    for a, b, c in out:
        exact = Fraction(a) * Fraction(b) + Fraction(c)
        try:
            want = float(exact)
        except OverflowError:
            want = float("inf") if exact > 0 else float("-inf")
        if want == 0 and exact == 0:
            want = (a * b) + c  # IEEE sign of an exact zero sum
        rows.append([a, b, c, want if abs(want) != float("inf") else ("Infinity" if want > 0 else "-Infinity")])
    return rows


def main():
    rng = np.random.default_rng(20261202)
    eigen = []
    for S in symmetric_matrices(rng):
        S = (np.tril(S) + np.tril(S, -1).T).astype(float)
        w, U = sl.eigh(S, driver="evd")
        eigen.append({"matrix": S.ravel().tolist(), "values": w.tolist(), "vectors": U.ravel().tolist()})
    frames = []
    for V in clouds(rng):
        c, B = reference_pca_frame(V)
        frames.append({"points": V.ravel().tolist(), "center": c.tolist(), "basis": B.ravel().tolist()})
    fma = fma_cases(np.random.default_rng(7))
    json.dump({
        "note": "Generated by scripts/oracle/pca_oracle.py with numpy 1.24.4 / scipy 1.10.1 wheels on x86-64; "
                "eigen: scipy.linalg.eigh(matrix, driver='evd') (row-major, vectors as columns); "
                "frames: the reference PCA frame (basis row-major, axes as columns); "
                "fma: [a, b, c, round(a*b + c)] computed exactly.",
        "fma": fma,
        "eigen": eigen,
        "frames": frames,
    }, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
