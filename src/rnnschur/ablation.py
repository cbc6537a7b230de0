"""Schur-coordinate ablations (paper §2, the intervention).

For S ⊆ Z = {T_RR, T_C→R, T_CC}: zero the entries of N in the chosen blocks, keep the rest of T
(the spectral blocks B too), rebuild W̃(S) = Q T̃(S) Qᵀ and re-evaluate the original network with
W_xh and W_hy unchanged. W̃(S) is computed as W − Q ΔT Qᵀ with ΔT = T − T̃(S), so W̃(∅) = W
exactly. S is an ε-stabilizer on D when d_D(f_W, f_W̃(S)) <= ε. Each trained solution's own
reading of an ablation is a study's (:mod:`rnnschur.studies.solutions`): this module knows no
verdict word.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from types import ModuleType
from typing import Protocol

import numpy as np

from rnnschur.network import Network
from rnnschur.network.dynamics import Dynamics
from rnnschur.schur import COUPLING_BLOCKS, OrderedSchur, coupling_masks, n_dominant
from rnnschur.settings.schema import field as schema_field
from rnnschur.settings.seeds import job_rng
from rnnschur.tasks import Batch, metrics
from rnnschur.tasks.functional import of

SUBSETS: tuple[tuple[str, ...], ...] = tuple(
    s for k in range(len(COUPLING_BLOCKS) + 1) for s in combinations(COUPLING_BLOCKS, k)
)
"""All 8 subsets of Z, the empty one first, in the paper's block order."""


def subset_name(subset: tuple[str, ...]) -> str:
    """The name of S ⊆ Z = {T_RR, T_C→R, T_CC} (eq. 5) in tables: 'none', 'T_RR', ...,
    'T_RR+T_CR+T_CC'.

    Parameters
    ----------
    subset : tuple of str

    Returns
    -------
    str
    """
    return "+".join(subset) if subset else "none"


def label(subset: str) -> str:
    """The paper's name of an ablation set W̃(S) (eq. 5), the one place it is built: "full",
    "−T_RR", "−T_RR, −T_C→R", ...

    Parameters
    ----------
    subset : str
        A :func:`subset_name`.

    Returns
    -------
    str
    """
    return "full" if subset == "none" else "−" + subset.replace("+", ", −").replace("T_CR", "T_C→R")


def delta_T(T: np.ndarray, masks: dict[str, np.ndarray], subset: tuple[str, ...]) -> np.ndarray:
    """ΔT_S = T − T̃(S): the entries of T in the coupling blocks of S ⊆ {T_RR, T_C→R, T_CC}
    (eq. 5), zeros elsewhere.

    Parameters
    ----------
    T : (n, n) ndarray
    masks : dict of str to (n, n) ndarray of bool
        From :func:`rnnschur.schur.coupling_masks`.
    subset : tuple of str
        S, names of :data:`rnnschur.schur.COUPLING_BLOCKS` (empty: ΔT = 0).

    Returns
    -------
    (n, n) ndarray
    """
    chosen = np.zeros_like(T, dtype=bool)
    for block in subset:
        chosen |= masks[block]
    return np.where(chosen, T, 0.0)


def ablated_recurrent(W: np.ndarray, schur: OrderedSchur, dT: np.ndarray) -> np.ndarray:
    """W̃ = W − Q ΔT Qᵀ (= Q (T − ΔT) Qᵀ up to the decomposition's rounding; W where ΔT = 0).

    Parameters
    ----------
    W : (n, n) ndarray
    schur : OrderedSchur
        W = Q T Qᵀ (eq. 3).
    dT : (n, n) ndarray
        ΔT in Schur coordinates (:func:`delta_T`, or a part of it).

    Returns
    -------
    (n, n) ndarray
    """
    return W - schur.Q @ dT @ schur.Q.T


def ablated(
    W: np.ndarray, schur: OrderedSchur, alpha: float, subset: tuple[str, ...]
) -> np.ndarray:
    """W̃(S) = Q T̃(S) Qᵀ, ``W`` with the coupling blocks of S removed at the split α (eq. 5):
    :func:`ablated_recurrent` of :func:`delta_T`, the one builder of an ablated matrix.

    Parameters
    ----------
    W : (n, n) ndarray
    schur : OrderedSchur
        W = Q T Qᵀ (eq. 3).
    alpha : float
        The split's α.
    subset : tuple of str
        S ⊆ Z = {T_RR, T_CR, T_CC} (empty: W itself, to the bit).

    Returns
    -------
    (n, n) ndarray
    """
    return ablated_recurrent(W, schur, delta_T(schur.T, coupling_masks(schur, alpha), subset))


def other_couplings(T: np.ndarray, others: np.ndarray, norm: float, rng) -> np.ndarray:
    """A removal control of the size of ΔT_S: the entries of T where ``others`` (the other
    coupling blocks of eq. 5) removed in a random order until ‖ΔT‖_F = ``norm``, the last one
    shrunk to match; every one where they hold less than ``norm`` together.

    Parameters
    ----------
    T : (n, n) ndarray
    others : (n, n) ndarray of bool
    norm : float
    rng : numpy.random.Generator

    Returns
    -------
    (n, n) ndarray
        ΔT, zero outside ``others``.
    """
    where = np.flatnonzero(others.ravel())
    order = where[rng.permutation(len(where))]
    values = T.ravel()[order]
    removed = np.cumsum(values**2)
    last = int(np.searchsorted(removed, norm**2))  # the entry that reaches the norm
    R = np.zeros(T.size)
    R[order[:last]] = values[:last]
    if last < len(order):
        before = removed[last - 1] if last > 0 else 0.0
        R[order[last]] = np.sign(values[last]) * np.sqrt(max(norm**2 - before, 0.0))
    return R.reshape(T.shape)


def scoring_batch(batch: Batch, task: ModuleType, fvu_steps: str) -> Batch:
    """The batch as scored: an FVU task (eq. 7) over every step when ``fvu_steps == "all"``
    (config ``ablation.fvu_steps``), else over the task's masked steps.

    Parameters
    ----------
    batch : Batch
    task : module
    fvu_steps : str

    Returns
    -------
    Batch
    """
    if task.SCORE == "fvu" and fvu_steps == "all":
        return Batch(batch.inputs, batch.targets, np.ones_like(batch.mask))
    return batch


def evaluation_noise(
    batch: Batch, n_hidden: int, sigma: float, dynamics: Dynamics, base_seed: int, *identity
) -> np.ndarray | None:
    """Hidden noise at evaluation of standard deviation ``sigma`` for every trial and step, in the
    family's own form (:meth:`Dynamics.drive_noise`, in the drive of eq. 1), drawn from a
    generator of the model's ``identity`` (its task's stream, its seed). One draw is shared by
    every ablation of the model, so ΔFVU compares networks on the same noise.

    Parameters
    ----------
    batch : Batch
    n_hidden : int
    sigma : float
    dynamics : Dynamics
    base_seed : int
    *identity

    Returns
    -------
    (n, time, N_h) ndarray or None
        None for ``sigma == 0``.
    """
    if not sigma:
        return None
    rng = job_rng(base_seed, "evaluation noise", *identity)
    n, time, _ = batch.inputs.shape
    return dynamics.drive_noise(sigma) * rng.standard_normal((n, time, n_hidden))


@dataclass(frozen=True)
class Scoring:
    """How an ablation is judged (config ``ablation``, defaults the schema's): S is an
    ε-stabilizer when d_D <= ``epsilon``, a candidate invariance when it also removes more than
    ``mass_floor`` of the Schur mass; ``fvu_mean``: the ȳ of :func:`rnnschur.tasks.metrics.fvu`."""

    epsilon: float = schema_field("ablation.epsilon")
    mass_floor: float = schema_field("ablation.mass_floor")
    fvu_mean: str = "pooled"

    @classmethod
    def from_config(cls, block: dict) -> Scoring:
        """The scoring of the config's ``ablation`` block: ε of d_D ≤ ε, the mass floor of
        ‖ΔT‖_F/‖T‖_F and the ȳ of FVU (eq. 7).

        Parameters
        ----------
        block : dict
            Config ``ablation`` (its other keys are not the scoring's).

        Returns
        -------
        Scoring
        """
        return cls(**{k: block[k] for k in ("epsilon", "mass_floor", "fvu_mean") if k in block})


@dataclass(frozen=True)
class Analysed:
    """One trained network as every analysis of it reads it: the network (its weights, offsets
    and description), its ordered real Schur form W = Q T Qᵀ (eq. 3), the held-out trials it is
    scored on and its task (what scores them)."""

    network: Network
    schur: OrderedSchur
    heldout: Batch
    task: ModuleType

    def __iter__(self):
        """``network, schur, heldout, task = analysed``."""
        return iter((self.network, self.schur, self.heldout, self.task))

    @classmethod
    def scored(
        cls, network: Network, schur: OrderedSchur, heldout: Batch, task, fvu_steps: str
    ) -> Analysed:
        """The network on its held-out set as scored (:func:`scoring_batch`).

        Parameters
        ----------
        network : Network
        schur : OrderedSchur
            W_hh = Q T Qᵀ (eq. 3).
        heldout : Batch
        task : module
        fvu_steps : str
            Config ``ablation.fvu_steps``.

        Returns
        -------
        Analysed
        """
        return cls(network, schur, scoring_batch(heldout, task, fvu_steps), task)


class RolloutOverflow(ValueError):
    """The full network's own rollout leaves the numbers its dtype holds: every score of it,
    and so every harm share and reading, would be NaN or inf."""


def check_finite(outputs: np.ndarray, network: Network) -> None:
    """No score, and no verdict, is read from an overflowed rollout: the full network's outputs on
    the held-out set (eq. 2) must be finite.

    Parameters
    ----------
    outputs : ndarray
        The full network's outputs, in the rollout's dtype.
    network : Network
        Named in the error by its largest weights.

    Raises
    ------
    RolloutOverflow
        An output is inf or NaN; the error names the dtype, the largest number it holds and the
        largest entry of each weight matrix.
    """
    if np.isfinite(outputs).all():
        return
    weights = {"W_xh": network.W_xh, "W_hh": network.W_hh, "W_hy": network.W_hy}
    largest = ", ".join(f"{k} {float(np.max(np.abs(w))):.3g}" for k, w in weights.items())
    kind = np.asarray(outputs).dtype
    raise RolloutOverflow(
        f"the full network's rollout on the held-out set overflows {kind} (largest "
        f"{float(np.finfo(kind).max):.3g}): its outputs reach inf or NaN, so no score or "
        f"verdict can be read; the largest weights: {largest}"
    )


class SolutionReading(Protocol):
    """How one trained solution reads its own ablations
    (:class:`rnnschur.studies.solutions.Reading`, a study: the scores here know no verdict
    word)."""

    def read(
        self,
        rows: list[dict],
        rollout: list[int],
        outputs: np.ndarray,
        analysed: Analysed,
        mass_floor: float,
    ) -> list[dict]:
        """``rows`` (one per (α, S) of :func:`evaluate_ablations`, the intact network's first)
        with the reading's columns added; ``outputs`` (K, n, time, N_y) are the distinct
        rollouts of W̃(S) on the held-out set, ``rollout`` the index of each row's.

        Parameters
        ----------
        rows : list of dict
        rollout : list of int
        outputs : ndarray
        analysed : Analysed
        mass_floor : float

        Returns
        -------
        list of dict
        """


def model_ablations(
    analysed: Analysed,
    alphas: list[float],
    ablation: dict,
    solution: SolutionReading,
    noise: np.ndarray | None = None,
) -> list[dict]:
    """Every ablation of one model as rule ``ablate`` scores it (and an external model's
    analysis): :func:`evaluate_ablations` with the scoring of the config's ``ablation`` block,
    this model's own reading and, where the run adds it, hidden noise at evaluation.

    Parameters
    ----------
    analysed : Analysed
        On its held-out set as scored (:meth:`Analysed.scored`).
    alphas : list of float
    ablation : dict
        Config ``ablation``.
    solution : SolutionReading
    noise : (n, time, N_h) ndarray, optional

    Returns
    -------
    list of dict
    """
    scoring = Scoring.from_config(ablation)
    return evaluate_ablations(analysed, list(alphas), scoring, noise=noise, solution=solution)


def evaluate_ablations(
    analysed: Analysed,
    alphas: list[float],
    scoring: Scoring | None = None,
    forward: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
    noise: np.ndarray | None = None,
    solution: SolutionReading | None = None,
) -> list[dict]:
    """Score every W̃(S) = W − Q ΔT_S Qᵀ (eq. 5) for every S ⊆ Z and α on the held-out set, in one
    batched rollout of the network (its offsets and description included); the ablations act
    on W_hh alone. Identical ablations (the same ΔT for several alphas, or an empty block) are
    rolled out once. Six parameters, not a value object: the network as analysed and five
    independent choices of how it is scored, each optional but the α grid.

    Parameters
    ----------
    analysed : Analysed
        The network, its Schur form, the held-out set and the task.
    alphas : list of float
        The α grid.
    scoring : Scoring, optional
        ε, the mass floor and FVU's ȳ (default: the schema's).
    forward : callable, optional
        ``forward(W_stack, inputs)`` replaces the rollout (a user's own torch module,
        :mod:`rnnschur.external.torch_module`; W_xh and W_hy are then not used).
    noise : (n, time, N_h) ndarray, optional
        Added to the drive of every rollout, the same draw for every subset (hidden noise at
        evaluation); needs the built-in rollout.
    solution : SolutionReading, optional
        Adds this model's own reading of every ablation
        (:class:`rnnschur.studies.solutions.Reading`: its harm share with a bootstrap interval
        over the held-out trials and the word).

    Returns
    -------
    list of dict
        One row per (alpha, subset): ``alpha``, ``subset``, ``n_R``, ``mass_removed``
        (‖ΔT‖_F/‖T‖_F), ``metric`` (the task's score name), ``score``, ``delta_score`` (score −
        full score), ``accuracy`` (eq. 6; copy only, else NaN), ``fvu`` (eq. 7),
        ``delta_fvu``, ``s_delta_t`` (eq. 9; NaN where nothing was removed),
        ``fvu_per_trial`` and ``delta_fvu_per_trial`` (FVU normalised per trial, FVU tasks
        only), ``functional_score`` and ``functional`` (what the score means in the task's
        own terms, where the task says: bit or decision accuracy, a frequency error),
        ``discrepancy`` (d_D of §2: mean squared output difference to the full network over
        the scored steps), ``sign_disagreement``, ``eps_stabilizer`` (d_D ≤ ε: the paper's
        ε-stabilizer) and ``candidate_invariance`` (an ε-stabilizer that removes more than the
        mass floor), by
        ``scoring``; with ``solution``, ``harm_share``, ``harm_low``, ``harm_high`` and
        ``reading``.

    Raises
    ------
    RolloutOverflow
        The full network's own rollout overflows its dtype (:func:`check_finite`), before any
        score is read.
    ValueError
        ``noise`` with ``forward``.
    """
    scoring = scoring or Scoring()
    network, schur, heldout, task = (
        analysed.network,
        analysed.schur,
        analysed.heldout,
        analysed.task,
    )
    cases, unique, index = [], [], {}
    for alpha in alphas:
        masks = coupling_masks(schur, alpha)
        n_R = n_dominant(schur, alpha)
        for subset in SUBSETS:
            dT = delta_T(schur.T, masks, subset)
            key = dT.tobytes()
            if key not in index:
                index[key] = len(unique)
                unique.append(dT)
            cases.append((alpha, n_R, subset, index[key]))
    dTs = np.stack(unique)
    W_tilde = np.stack([ablated_recurrent(network.W_hh, schur, dT) for dT in dTs])
    if forward is None:
        outputs = network.rollout(heldout.inputs, W_tilde, noise=noise)
    elif noise is not None:
        raise ValueError("noise at evaluation needs the built-in rollout, not a forward function")
    else:
        outputs = forward(W_tilde, heldout.inputs)
    full = index[np.zeros_like(schur.T).tobytes()]
    check_finite(outputs[full], network)
    targets, mask = heldout.targets, heldout.mask
    score = np.asarray(task.score(outputs, heldout))
    fvu = metrics.fvu(outputs, targets, mask, scoring.fvu_mean)
    fvu_trial = (
        metrics.fvu_per_trial(outputs, targets, mask)
        if task.SCORE == "fvu"
        else np.full(len(dTs), np.nan)
    )
    accuracy = (
        metrics.replay_accuracy(outputs, targets, mask)
        if task.SCORE == "accuracy"
        else np.full(len(dTs), np.nan)
    )
    mass = metrics.schur_mass_removed(dTs, schur.T)
    discrepancy = metrics.rollout_discrepancy(outputs, outputs[full], mask)
    disagreement = metrics.sign_disagreement(outputs, outputs[full], mask)
    s_delta_t = metrics.effect_per_mass(fvu - fvu[full], mass)
    meaning, functional = "", np.full(len(dTs), np.nan)
    if (reads := of(task)) is not None:
        meaning, functional = reads[0], reads[1](outputs, targets, mask)
    rows = []
    for alpha, n_R, subset, k in cases:
        eps_stabilizer = bool(discrepancy[k] <= scoring.epsilon)
        rows.append(
            {
                "alpha": alpha,
                "subset": subset_name(subset),
                "n_R": n_R,
                "mass_removed": mass[k],
                "metric": task.SCORE,
                "score": score[k],
                "delta_score": score[k] - score[full],
                "accuracy": accuracy[k],
                "fvu": fvu[k],
                "delta_fvu": fvu[k] - fvu[full],
                "s_delta_t": s_delta_t[k],
                "fvu_per_trial": fvu_trial[k],
                "delta_fvu_per_trial": fvu_trial[k] - fvu_trial[full],
                "functional_score": meaning,
                "functional": functional[k],
                "discrepancy": discrepancy[k],
                "sign_disagreement": disagreement[k],
                "eps_stabilizer": eps_stabilizer,
                "candidate_invariance": eps_stabilizer and bool(mass[k] > scoring.mass_floor),
            }
        )
    if solution is not None:
        rows = solution.read(rows, [k for *_, k in cases], outputs, analysed, scoring.mass_floor)
    return rows
