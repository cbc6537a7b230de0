"""Ordered real Schur coordinates of a recurrent matrix (paper §2, eqs. 3–5).

``W = Q T Q^T`` with ``Q`` orthogonal and ``T`` real quasi-upper-triangular, its 1×1 and 2×2
diagonal blocks ordered by eigenvalue modulus, non-increasing. ``T = B + N``: ``B`` the block
diagonal, ``N`` the strictly block-upper couplings. A threshold ``alpha`` splits the blocks into
the dominant sector ``R = {i : |λ_i| >= alpha ρ(W)}`` and its complement ``C``, and ``N`` into
``T_RR``, ``T_C→R`` (here ``T_CR``) and ``T_CC`` (eq. 5).

For a leaky network (leak a < 1, :mod:`rnnschur.network.dynamics`) the blocks are ordered and split
by the moduli |1 − a + a λ| of its one-step propagator P = (1 − a) I + a W, which has W's Schur
vectors (QᵀPQ = (1 − a) I + a T): the coupling blocks are those of W, the order and the split are
P's. At a = 1 this is the paper's split.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rnnschur.network.dynamics import propagator_eigenvalues

COUPLING_BLOCKS = ("T_RR", "T_CR", "T_CC")
"""The three coupling blocks of N (eq. 5), in the paper's order; ``T_CR`` is T_{C→R}."""

# Tolerances of the checks made on every decomposition (relative to ‖W‖_F, resp. ρ(W)).
RECONSTRUCTION_TOL = 1e-10
ORTHOGONALITY_TOL = 1e-10
ORDERING_TOL = 1e-8


class SchurCheckError(ValueError):
    """An ordered Schur decomposition fails its numerical checks."""


@dataclass(frozen=True)
class OrderedSchur:
    """``W = Q T Q^T`` with ordered diagonal blocks.

    Attributes
    ----------
    Q : (n, n) orthogonal matrix.
    T : (n, n) real quasi-upper-triangular matrix.
    block_starts : (k,) first row of each diagonal block, increasing.
    eigenvalues : (n,) complex eigenvalues of W in the order of the diagonal of T (a 2×2 block
        contributes its conjugate pair, positive imaginary part first).
    leak : the a of the propagator P = (1 − a) I + a W whose eigenvalue moduli order and split
        the blocks (1: W's own, the paper's).
    """

    Q: np.ndarray
    T: np.ndarray
    block_starts: np.ndarray
    eigenvalues: np.ndarray
    leak: float = 1.0

    @property
    def block_sizes(self) -> np.ndarray:
        """The size (1 or 2) of each diagonal block of T = B + N (eq. 4).

        Returns
        -------
        (k,) ndarray of int
            Rows of each block, in diagonal order.
        """
        return np.diff(np.append(self.block_starts, self.T.shape[0]))

    @property
    def ordering_eigenvalues(self) -> np.ndarray:
        """The eigenvalues that order and split the blocks: those of the propagator
        P = (1 − a) I + a W, 1 − a + a λ (λ itself at a = 1, eq. 3).

        Returns
        -------
        (n,) ndarray of complex
            In the order of T's diagonal.
        """
        return propagator_eigenvalues(self.eigenvalues, self.leak)

    @property
    def block_moduli(self) -> np.ndarray:
        """|1 − a + a λ| of each diagonal block, the key of the order (|λ| at a = 1, eq. 3; a 2×2
        block's pair shares it).

        Returns
        -------
        (k,) ndarray of float
            Non-increasing along the diagonal.
        """
        return np.abs(self.ordering_eigenvalues[self.block_starts])

    @property
    def spectral_radius(self) -> float:
        """ρ of the ordering operator: ρ(W) at a = 1, ρ(P) for a leaky split (the scale of
        R = {i : |λ_i| ≥ α ρ}, eq. 5).

        Returns
        -------
        float
        """
        return float(np.max(np.abs(self.ordering_eigenvalues)))


def block_structure(T: np.ndarray, tol: float = 0.0) -> np.ndarray:
    """First rows of the diagonal blocks of a quasi-upper-triangular ``T`` (the blocks of B in
    T = B + N, eq. 4): a 2×2 block starts at ``i`` where ``|T[i+1, i]| > tol``.

    Parameters
    ----------
    T : (n, n) ndarray
        Real quasi-upper-triangular.
    tol : float
        Sub-diagonal entries at most this large count as zero.

    Returns
    -------
    (k,) ndarray of int64
        Increasing.
    """
    n = T.shape[0]
    starts, i = [], 0
    while i < n:
        starts.append(i)
        i += 2 if i + 1 < n and abs(T[i + 1, i]) > tol else 1
    return np.array(starts, dtype=np.int64)


def block_eigenvalues(T: np.ndarray, block_starts: np.ndarray) -> np.ndarray:
    """Eigenvalues of each diagonal block of T (eq. 3): a 1×1 block's entry, a 2×2 block's
    conjugate pair (a + d)/2 ± i √(ad − bc − ((a + d)/2)²).

    Parameters
    ----------
    T : (n, n) ndarray
        Real quasi-upper-triangular.
    block_starts : (k,) ndarray of int
        First row of each block (:func:`block_structure`).

    Returns
    -------
    (n,) ndarray of complex128
        In diagonal order, a pair's positive imaginary part first.
    """
    n = T.shape[0]
    out = np.empty(n, dtype=np.complex128)
    for start, size in zip(block_starts, np.diff(np.append(block_starts, n)), strict=True):
        if size == 1:
            out[start] = T[start, start]
        else:
            a, b = T[start, start], T[start, start + 1]
            c, d = T[start + 1, start], T[start + 1, start + 1]
            mean, det = 0.5 * (a + d), a * d - b * c
            imag = np.sqrt(max(det - mean**2, 0.0))
            out[start], out[start + 1] = complex(mean, imag), complex(mean, -imag)
    return out


def ordered_real_schur(W: np.ndarray, check: bool = True, leak: float = 1.0) -> OrderedSchur:
    """W = Q T Qᵀ with T's diagonal blocks ordered by non-increasing |λ| (eq. 3), or by
    |1 − a + a λ| for ``leak`` a < 1 (the propagator of a leaky network).

    ``scipy.linalg.schur`` gives an unordered real Schur form; a stable selection sort then
    moves, for each position in turn, the remaining block of largest modulus there with LAPACK
    ``dtrexc`` (an orthogonal similarity that keeps 2×2 blocks whole). The block structure is
    re-read after every move because LAPACK may re-standardise a 2×2 block.

    Parameters
    ----------
    W : (n, n) ndarray
        Real and finite (the recurrent weights W_hh).
    check : bool
        Assert reconstruction, orthogonality and ordering (:func:`check_schur`).
    leak : float
        a ∈ (0, 1] of the propagator P = (1 − a) I + a W whose moduli order the blocks.

    Returns
    -------
    OrderedSchur

    Raises
    ------
    ValueError
        ``W`` is not square or not finite, or ``leak`` lies outside (0, 1].
    SchurCheckError
        If ``check`` and a check fails, or ``dtrexc`` cannot reorder.
    """
    W = np.asarray(W, dtype=np.float64)
    if W.ndim != 2 or W.shape[0] != W.shape[1]:
        raise ValueError(f"W must be a square matrix, got shape {W.shape}")
    if not np.all(np.isfinite(W)):
        raise ValueError("W contains NaN or inf")
    if not 0.0 < leak <= 1.0:
        raise ValueError(f"leak must lie in (0, 1], got {leak}")
    # scipy.linalg here, not at the top: the jobs that only read a Schur form (ablation, the
    # subspace control, tables) are spared its import (≈ 0.4 s of start-up each).
    import scipy.linalg
    from scipy.linalg.lapack import dtrexc

    T, Q = scipy.linalg.schur(W, output="real")
    T, Q = np.asfortranarray(T), np.asfortranarray(Q)
    n = W.shape[0]
    position = 0  # first row not yet in its final place
    while position < n:
        starts = block_structure(T)
        remaining = starts[starts >= position]
        moduli = np.abs(propagator_eigenvalues(block_eigenvalues(T, starts), leak))[remaining]
        best = remaining[int(np.argmax(moduli))]  # argmax takes the first of ties: stable
        if best != position:
            T, Q, info = dtrexc(T, Q, best + 1, position + 1, wantq=1)
            if info != 0:
                raise SchurCheckError(f"LAPACK dtrexc failed to reorder (info={info})")
        position += 2 if position + 1 < n and T[position + 1, position] != 0.0 else 1
    schur = schur_of(T, Q, leak)
    if check:
        check_schur(W, schur)
    return schur


def schur_of(T: np.ndarray, Q: np.ndarray, leak: float = 1.0) -> OrderedSchur:
    """The :class:`OrderedSchur` of a real Schur form W = Q T Qᵀ (eq. 3) as LAPACK leaves it:
    its blocks read from T's sub-diagonal, exact zeros below them, their eigenvalues.

    Parameters
    ----------
    T : (n, n) ndarray
        Real quasi-upper-triangular.
    Q : (n, n) ndarray
        Orthogonal.
    leak : float
        The a of the ordering propagator.

    Returns
    -------
    OrderedSchur
    """
    n = T.shape[0]
    starts = block_structure(T)
    blocks = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, n)))
    T = np.where(blocks[:, None] > blocks[None, :], 0.0, T)  # exact zeros below the blocks
    return OrderedSchur(
        Q=np.ascontiguousarray(Q),
        T=np.ascontiguousarray(T),
        block_starts=starts,
        eigenvalues=block_eigenvalues(T, starts),
        leak=float(leak),
    )


def check_schur(W: np.ndarray, schur: OrderedSchur, ordered: bool = True) -> None:
    """Check W = Q T Qᵀ (eq. 3): ‖W − QTQᵀ‖_F/‖W‖_F, ‖QᵀQ − I‖_F, the quasi-triangular
    structure and, where ``ordered``, the non-increasing block moduli (up to what rounding can
    move them, :func:`modulus_resolution`).

    Parameters
    ----------
    W : (n, n) ndarray
    schur : OrderedSchur
    ordered : bool
        Also check the order.

    Raises
    ------
    SchurCheckError
        Naming the check that fails.
    """
    Q, T = schur.Q, schur.T
    n = W.shape[0]
    scale = max(np.linalg.norm(W), np.finfo(float).tiny)
    reconstruction = np.linalg.norm(W - Q @ T @ Q.T) / scale
    if not reconstruction <= RECONSTRUCTION_TOL:
        raise SchurCheckError(f"‖W − QTQᵀ‖/‖W‖ = {reconstruction:.3e} > {RECONSTRUCTION_TOL:g}")
    orthogonality = np.linalg.norm(Q.T @ Q - np.eye(n))
    if not orthogonality <= ORTHOGONALITY_TOL * max(n, 1):
        raise SchurCheckError(f"‖QᵀQ − I‖ = {orthogonality:.3e}: Q is not orthogonal")
    starts = schur.block_starts
    if not np.array_equal(starts, block_structure(T)):
        raise SchurCheckError("block_starts do not match the sub-diagonal of T")
    below = np.tril(T, -2)
    if np.any(below != 0):
        raise SchurCheckError("T has non-zero entries below its first sub-diagonal")
    if not ordered:
        return
    moduli = schur.block_moduli
    rho = max(schur.spectral_radius, np.finfo(float).tiny)
    rise = np.diff(moduli)
    if np.any(rise > ORDERING_TOL * rho):
        # a rise is an error only where rounding cannot make it: a defective eigenvalue's moduli
        # move with every swap that dtrexc makes past it
        resolution = modulus_resolution(schur)
        if np.any(rise > ORDERING_TOL * rho + resolution[:-1] + resolution[1:]):
            raise SchurCheckError(f"block moduli are not non-increasing: {moduli}")


def modulus_resolution(schur: OrderedSchur) -> np.ndarray:
    """How far rounding can move each block's modulus |1 − a + a λ| (eq. 3): n ε ‖T‖_F κ(λ) a,
    with κ(λ) = 1/|yᴴx| the condition number of the eigenvalue nearest the block's own (unit
    left and right eigenvectors y, x; Wilkinson 1965, §2.8) and a the leak.

    Parameters
    ----------
    schur : OrderedSchur

    Returns
    -------
    (k,) ndarray of float
        Per diagonal block; infinite where yᴴx = 0 (a defective eigenvalue).
    """
    import scipy.linalg

    T = schur.T
    n = T.shape[0]
    values, left, right = scipy.linalg.eig(T, left=True, right=True)
    overlap = np.abs(np.sum(left.conj() * right, axis=0))
    with np.errstate(divide="ignore"):
        kappa = 1.0 / overlap
    per_value = n * np.finfo(float).eps * np.linalg.norm(T) * kappa * schur.leak
    own = schur.eigenvalues[schur.block_starts]
    nearest = np.argmin(np.abs(own[:, None] - values[None, :]), axis=1)
    return per_value[nearest]


def block_index(schur: OrderedSchur) -> np.ndarray:
    """The diagonal block of B (eq. 4) each row of T belongs to.

    Parameters
    ----------
    schur : OrderedSchur

    Returns
    -------
    (n,) ndarray of int
    """
    return np.repeat(np.arange(len(schur.block_starts)), schur.block_sizes)


def check_alpha(alpha: float, alpha_grid) -> None:
    """The split's α (eq. 5) must be one of the α grid's: the verdicts are read at α, the
    ablations computed on the grid (the one check of the config, the command and the API).

    Parameters
    ----------
    alpha : float
    alpha_grid : sequence of float

    Raises
    ------
    ValueError
        ``alpha`` is not in ``alpha_grid``.
    """
    if alpha not in tuple(alpha_grid):
        raise ValueError(f"alpha = {alpha} must be one of alpha_grid {list(alpha_grid)}")


def n_dominant(schur: OrderedSchur, alpha: float) -> int:
    """n_R = dim R, R = {blocks i : |λ_i| ≥ α ρ(W)} (eq. 5; the propagator's moduli and ρ(P) for a
    leaky split). The blocks are ordered, so R is a leading set of rows of T; a 2×2 block is
    never split.

    Parameters
    ----------
    schur : OrderedSchur
    alpha : float
        α in (0, 1].

    Returns
    -------
    int

    Raises
    ------
    ValueError
        α outside (0, 1].
    """
    if not 0.0 < alpha <= 1.0:
        raise ValueError(f"alpha must lie in (0, 1], got {alpha}")
    rho = schur.spectral_radius
    in_R = schur.block_moduli >= alpha * rho
    return int(np.sum(schur.block_sizes[in_R]))


def coupling_masks(schur: OrderedSchur, alpha: float) -> dict[str, np.ndarray]:
    """Where the coupling blocks of eq. 5 lie in T: N, the strictly block-upper part of T
    (eq. 4), split by R and C at α into T_RR (couplings among R blocks), T_CR = T_{C→R} (rows
    of R, columns of C) and T_CC (among C blocks). The three masks partition N's support.

    Parameters
    ----------
    schur : OrderedSchur
    alpha : float
        The split's α (:func:`n_dominant`).

    Returns
    -------
    dict of str to (n, n) ndarray of bool
        ``"T_RR"``, ``"T_CR"``, ``"T_CC"``.
    """
    blocks = block_index(schur)
    strictly_block_upper = blocks[:, None] < blocks[None, :]
    n_R = n_dominant(schur, alpha)
    in_R = np.arange(len(blocks)) < n_R
    return {
        "T_RR": strictly_block_upper & in_R[:, None] & in_R[None, :],
        "T_CR": in_R[:, None] & ~in_R[None, :],
        "T_CC": strictly_block_upper & ~in_R[:, None] & ~in_R[None, :],
    }


def coupling_part(schur: OrderedSchur) -> np.ndarray:
    """N, the strictly block-upper couplings of T (eq. 4, T = B + N).

    Parameters
    ----------
    schur : OrderedSchur

    Returns
    -------
    (n, n) ndarray
    """
    blocks = block_index(schur)
    return np.where(blocks[:, None] < blocks[None, :], schur.T, 0.0)


def spectrum_rows(schur: OrderedSchur, alpha: float) -> tuple[list[dict], list[dict]]:
    """(eigenvalues, |T|) of one model as rows (dicts) of the long tables the spectrum figures
    read.

    eigenvalues: one row per eigenvalue λ of W_hh in Schur order with ``index``, ``block``,
    ``real``, ``imag``; both moduli, each with the ρ it is compared with: ``modulus_W`` = |λ|
    and ``rho_W`` = ρ(W_hh), ``modulus_P`` = |1 − a + a λ| and ``rho_P`` = ρ(P) of the
    propagator P = (1 − a) I + a W_hh that orders and splits the blocks (``leak`` = a; a = 1,
    the paper's and the weights split: P = W_hh); ``in_R`` = modulus_P ≥ ``alpha`` · rho_P (the
    α split of eq. 3). |T|: one row per entry ``i``, ``j``, ``abs_T``, with ``n_R`` so a plot
    can draw the R/C blocks.

    Parameters
    ----------
    schur : OrderedSchur
        The model's ordered real Schur form.
    alpha : float
        The threshold α of the split (eq. 3).

    Returns
    -------
    (list of dict, list of dict)
        The eigenvalue rows and the |T| rows.
    """
    n = schur.T.shape[0]
    n_R = n_dominant(schur, alpha)
    blocks = block_index(schur)
    moduli_W = np.abs(schur.eigenvalues)
    moduli_P = np.abs(schur.ordering_eigenvalues)
    eigenvalues = [
        {
            "index": k,
            "block": int(blocks[k]),
            "real": float(z.real),
            "imag": float(z.imag),
            "modulus_W": float(moduli_W[k]),
            "rho_W": float(moduli_W.max()),
            "modulus_P": float(moduli_P[k]),
            "rho_P": float(schur.spectral_radius),
            "leak": float(schur.leak),
            "in_R": k < n_R,
            "alpha": alpha,
        }
        for k, z in enumerate(schur.eigenvalues)
    ]
    abs_T = np.abs(schur.T)
    entries = [
        {"i": i, "j": j, "abs_T": float(abs_T[i, j]), "n_R": n_R}
        for i in range(n)
        for j in range(n)
    ]
    return eigenvalues, entries
