"""Proof before verdicts: does the rollout, as described, compute the model's own outputs?

A verdict about a model trained elsewhere is a verdict about the rollout of its arrays under a
network description (:mod:`rnnschur.network.dynamics`). It is the model's only when that rollout
reproduces the model's own outputs on the same inputs (noise off): given in the held-out file
(``outputs``) or computed by running a torch module's forward. :func:`check` measures the
relative RMS error of the full model's rollout against them; :func:`search` rolls the model out
under every description there is (the leak of a leaky update found by a one-dimensional search)
and ranks them; :func:`auto` picks the one that reproduces the outputs.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

import numpy as np
from scipy.optimize import minimize_scalar

from rnnschur.external import heldout as heldout_sets
from rnnschur.external.arrays import AnalysisWarning  # noqa: F401 (its home here)
from rnnschur.io import ArtifactError
from rnnschur.network import Network
from rnnschur.network.catalogue import CatalogueEntry, catalogue_name, every_description
from rnnschur.network.dynamics import Description, Dynamics

TOLERANCE = 1e-3
"""The largest relative RMS error ‖ŷ_rollout − ŷ_model‖ / ‖ŷ_model‖ (over every entry) at
which a rollout counts as the model. A float32 model's own rounding gives about 1e-7 per step
and 1e-6–1e-5 after a hundred steps; a wrong readout, timing or leak gives 1e-2 and more."""
SEARCH_TRIALS = 64
"""Trials of the held-out set the leak search rolls out (the chosen description is then checked
on every trial)."""
LEAK_GRID = np.geomspace(1e-3, 1.0, 25)
"""Where the leak search starts: a ∈ [0.001, 1], log-spaced; refined by Brent's method."""


MAX_TOLERANCE = 0.1
"""The largest tolerance that still means "the same computation": a relative RMS error of 0.1
is a different network (a wrong leak gives 0.4, a transposed input layout 1 and more)."""


@dataclass(frozen=True)
class OwnOutputs:
    """What a rollout is checked against: the model's own ``outputs`` (n, T, N_y) on ``inputs``
    (n, T, N_x), noise off (None: nothing to check against), where they came from, the
    largest relative RMS error that still counts as the model, and whether the model is a
    torch module or state_dict (which can be run as it computes)."""

    inputs: np.ndarray
    outputs: np.ndarray | None
    source: str = "held-out outputs"
    tolerance: float = TOLERANCE
    torch: bool = False


def likely_causes(network: Network, own: OwnOutputs) -> str:
    """Why no description reproduces a model's own outputs, most frequent first: a trained
    initial state not given (where the arrays have none), noise on when the outputs were
    recorded, outputs of another model; for a torch model, a computation outside the catalogue
    that its own forward can run."""
    causes = []
    if "h0" not in network.offsets:
        causes.append(
            "a trained initial state not given (PsychRNN's init_state, a model's h0: map it "
            'with keys="h0=NAME", or give initial_state=FILE; without it the rollout starts '
            "from zero)"
        )
    causes += [
        "noise left on when the outputs were recorded (record them with the noise off)",
        "outputs of another model or checkpoint than these weights",
    ]
    if own.torch:
        causes.append(
            "a computation outside the catalogue (a nonlinear readout, another cell): run "
            "the torch module itself with recurrent=NAME"
        )
    return "Most often: " + "; ".join(f"({k}) {c}" for k, c in enumerate(causes, 1)) + "."


def check_tolerance(tolerance) -> float:
    """``tolerance`` as a float if it is a number in (0, :data:`MAX_TOLERANCE`); ValueError
    naming ``tolerance`` otherwise (inf, NaN, 0.1 and above: nothing would be verified)."""
    if isinstance(tolerance, bool) or not isinstance(tolerance, int | float | np.floating):
        raise TypeError(f"tolerance must be a number, got {type(tolerance).__name__}")
    if not 0 < float(tolerance) < MAX_TOLERANCE:
        raise ValueError(
            f"tolerance={tolerance}: must lie in (0, {MAX_TOLERANCE:g}), a relative RMS error; "
            "a larger one would call a different network verified"
        )
    return float(tolerance)


class RolloutMismatch(ArtifactError):
    """The rollout, as described, does not reproduce the model's own outputs."""


def relative_rms(outputs: np.ndarray, reference: np.ndarray) -> float:
    """‖outputs − reference‖_F / ‖reference‖_F over every entry (inf where not finite)."""
    with np.errstate(over="ignore", invalid="ignore"):
        error = float(np.sqrt(np.mean((outputs - reference) ** 2) / np.mean(reference**2)))
    return error if np.isfinite(error) else float("inf")


def outputs_as(network: Network, dynamics: Dynamics, inputs: np.ndarray) -> np.ndarray:
    """The full network's outputs on ``inputs`` rolled out as ``dynamics``, in float64
    (:meth:`rnnschur.Network.rollout`; an overflow is the comparison's to report)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return replace(network, dynamics=dynamics).rollout(inputs, dtype=np.float64)


@dataclass(frozen=True)
class Verification:
    """How the rollout compares with the model's own outputs: the description used, the
    relative RMS error and the largest absolute error (None: no outputs to compare with), the
    tolerance, the trials compared, where the outputs came from, how the description was found
    and the α split the analysis uses. For a module run as it computes (``found_by`` "module")
    the errors are its own forward's, the computation that scores the ablations, and
    ``description_error`` that of the description that orders its split (None: not checked)."""

    dynamics: Dynamics
    error: float | None
    max_error: float | None
    tolerance: float
    n_trials: int
    source: str
    found_by: str = "given"
    split: str = "propagator"
    description_error: float | None = None
    initial_state: bool = False
    """Whether the rollout starts from the model's trained initial state h0 (else from 0)."""

    @property
    def verified(self) -> bool:
        return self.error is not None and self.error <= self.tolerance

    def line(self) -> str:
        """One sentence for the first lines of a summary: what was verified against what."""
        if self.found_by == "module":
            return self._module_line()
        if self.error is None:
            return (
                "rollout not verified: no outputs of the model were given (held-out key "
                "`outputs`, or a torch module's forward), so nothing shows that the rollout "
                f"as {self.dynamics.describe()} is the model"
            )
        state = "verified" if self.verified else "NOT reproduced"
        how = (
            ' (description found by the search, dynamics="auto")' if self.found_by == "auto" else ""
        )
        start = ", from the model's trained initial state h0" if self.initial_state else ""
        return (
            f"rollout {state} against the model's own outputs ({self.source}, "
            f"{self.n_trials} trials{start}): relative RMS error {self.error:.2g}, max error "
            f"{self.max_error:.2g} (tolerance {self.tolerance:g}){how}"
        )

    def _module_line(self) -> str:
        """The line of a module run as it computes: its own forward is what scores, so it is
        what was verified (or not); the description only orders the split."""
        if self.dynamics.split_leak(self.split) == 1:
            split = "W_hh's own moduli (no description needed)"
        elif self.description_error is not None:
            split = (
                f"the propagator of {self.dynamics.describe()} (the mapped arrays rolled out "
                "so reproduce the module's outputs: relative RMS error "
                f"{self.description_error:.2g})"
            )
        else:
            split = (
                f"the propagator of {self.dynamics.describe()}, a description not verified "
                "(the module's parameters were not mapped onto W_xh, W_hh, W_hy: keys=...)"
            )
        if self.error is None:
            head = (
                "module's forward not verified: the held-out set has no outputs of the model, "
                "so nothing shows that the module as built (its constructor arguments, its "
                "input layout) is the trained network"
            )
        else:
            state = "verified" if self.verified else "NOT reproduced"
            head = (
                f"module's forward {state} against the model's own outputs ({self.source}, "
                f"{self.n_trials} trials): relative RMS error {self.error:.2g}, max error "
                f"{self.max_error:.2g} (tolerance {self.tolerance:g})"
            )
        return f"{head}; every ablation runs it with W_hh swapped for W̃(S); the split by {split}"

    def warning(self) -> str | None:
        """A WARNING when nothing was verified (no outputs of the model to compare with)."""
        if self.error is not None:
            return None
        if self.found_by == "module":
            return (
                "WARNING: not verified. The held-out set has no outputs of the model, so the "
                "module's forward, which scores every ablation, was checked against nothing: a "
                "module built with other constructor arguments than the trained one (dt, tau), "
                "or given its inputs in the other layout (time_first=True or not), runs without "
                "complaint. "
                "Add the model's own outputs (held-out key `outputs`) to check it."
            )
        return (
            f"WARNING: not verified. The held-out set has no outputs of the model, so nothing "
            f"shows that the rollout as {self.dynamics.describe()} computes what the model "
            "computes: a wrong leak, nonlinearity, readout or timing gives other verdicts "
            "without any error. Add the model's own outputs (held-out key `outputs`), with "
            'dynamics="auto" to find its description.'
        )

    @property
    def description_needed(self) -> bool:
        """False for a module run as it computes and split by W_hh's own moduli: no description
        enters its analysis."""
        return not (self.found_by == "module" and self.dynamics.split_leak(self.split) == 1)

    @property
    def description_verified(self) -> bool:
        """Whether the description was checked against the model's outputs: the rollout's
        check, or, on the module route, the mapped arrays' rollout against the module's."""
        if self.found_by != "module":
            return self.verified
        error = self.description_error
        return error is not None and error <= self.tolerance

    def record(self) -> dict:
        """Every field but the description (which the model's file stores), as JSON."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "dynamics"}

    @classmethod
    def from_record(cls, dynamics: Dynamics, record: dict) -> Verification:
        """The verification :meth:`record` wrote, of the description ``dynamics``."""
        return cls(dynamics, **record)

    def as_dict(self) -> dict:
        needed = self.description_needed
        return {
            "description": self.dynamics.describe() if needed else None,
            "catalogue": catalogue_name(self.dynamics) if needed else None,
            "description_verified": self.description_verified,
            "verified": self.verified,
            "relative_rms_error": self.error,
            "max_error": self.max_error,
            "tolerance": self.tolerance,
            "n_trials": self.n_trials,
            "outputs_from": self.source,
            "found_by": self.found_by,
            "description_error": self.description_error,
            "initial_state": self.initial_state,
        }


def check(network: Network, dynamics: Dynamics, own: OwnOutputs) -> Verification:
    """The full network rolled out as ``dynamics`` against its own outputs (``own``), or an
    unverified record when there are none."""
    start = {"initial_state": "h0" in network.offsets}
    if own.outputs is None:
        return Verification(dynamics, None, None, own.tolerance, 0, "none", **start)
    ours = outputs_as(network, dynamics, own.inputs)
    with np.errstate(invalid="ignore"):
        largest = float(np.nanmax(np.abs(ours - own.outputs)))
    return Verification(
        dynamics,
        relative_rms(ours, own.outputs),
        largest if np.isfinite(largest) else float("inf"),
        own.tolerance,
        len(own.inputs),
        own.source,
        **start,
    )


@dataclass(frozen=True)
class Candidate:
    """A description, its rollout's relative RMS error on the search trials and the name of
    the catalogue entry it is ("" for a description the catalogue does not name)."""

    dynamics: Dynamics
    error: float
    name: str = ""

    def text(self) -> str:
        named = f" [{self.name}]" if self.name else ""
        return f"{self.dynamics.describe()}{named}: {self.error:.2g}"


def fit_leak(
    network: Network,
    inputs: np.ndarray,
    outputs: np.ndarray,
    description: CatalogueEntry,
) -> Candidate:
    """The leak a ∈ [0.001, 1] whose rollout under ``description`` is closest to ``outputs``:
    the best point of :data:`LEAK_GRID`, refined by Brent's method between its neighbours, then
    the shortest decimal that is as close (0.2, not 0.2000003)."""

    def error(leak: float) -> float:
        dynamics = description.with_leak(float(leak))
        return relative_rms(outputs_as(network, dynamics, inputs), outputs)

    if description.kind == "discrete":
        return Candidate(description.with_leak(1.0), error(1.0), description.name)
    grid = [error(a) for a in LEAK_GRID]
    i = int(np.argmin(grid))
    low, high = LEAK_GRID[max(i - 1, 0)], LEAK_GRID[min(i + 1, len(LEAK_GRID) - 1)]
    refined = minimize_scalar(error, bounds=(low, high), method="bounded", options={"xatol": 1e-10})
    leak, best = (refined.x, refined.fun) if refined.fun < grid[i] else (LEAK_GRID[i], grid[i])
    for digits in range(1, 9):
        short = float(f"{leak:.{digits}g}")
        if 0 < short <= 1 and (e := error(short)) <= 1.5 * best + 1e-12:
            leak, best = short, e
            break
    return Candidate(description.with_leak(float(leak)), best, description.name)


def search(
    network: Network,
    inputs: np.ndarray,
    outputs: np.ndarray,
    n_trials: int = SEARCH_TRIALS,
) -> list[Candidate]:
    """Every description there is (:func:`rnnschur.network.catalogue.every_description`), each with
    its best leak, ranked by how close its rollout comes to ``outputs`` on the first ``n_trials``
    trials: the closest first and, among rollouts equally close (within 2×), a catalogue
    entry before an unnamed one and a discrete update before a leaky one."""
    inputs, outputs = inputs[:n_trials], outputs[:n_trials]
    found = [fit_leak(network, inputs, outputs, d) for d in every_description()]
    best = min(c.error for c in found)

    def rank(c: Candidate):
        return (
            c.error > 2 * best + 1e-12,
            not c.name,
            c.dynamics.kind != "discrete",
            c.error,
        )

    return sorted(found, key=rank)


def auto(network: Network, own: OwnOutputs) -> Verification:
    """The description that reproduces the model's own outputs (:func:`search`'s first),
    checked on every trial; :class:`RolloutMismatch` listing the closest ones when none does."""
    candidates = search(network, own.inputs, own.outputs)
    verification = check(network, candidates[0].dynamics, own)
    if not verification.verified:
        raise RolloutMismatch(
            'dynamics="auto": no network description reproduces the model\'s own outputs '
            f"(tolerance {own.tolerance:g}, relative RMS). {likely_causes(network, own)} "
            "Closest: " + "; ".join(c.text() for c in candidates[:3])
        )
    return Verification(**{**verification.__dict__, "found_by": "auto"})


def require_reproduced(network: Network, dynamics: Dynamics, own: OwnOutputs) -> Verification:
    """:func:`check`, raising :class:`RolloutMismatch` when the rollout is not the model: how
    far off it is and which descriptions do reproduce the outputs (or come closest)."""
    verification = check(network, dynamics, own)
    if verification.verified:
        return verification
    candidates = search(network, own.inputs, own.outputs)
    good = [c for c in candidates if c.error <= own.tolerance]
    hint = (
        "descriptions that do reproduce them: "
        + "; ".join(c.text() for c in good[:4])
        + ' (or dynamics="auto")'
        if good
        else f"{likely_causes(network, own)} None of the catalogue's descriptions reproduces "
        "them; closest: " + "; ".join(c.text() for c in candidates[:3])
    )
    raise RolloutMismatch(
        f"the model rolled out as {dynamics.describe()} does not reproduce its own outputs "
        f"({own.source}): relative RMS error {verification.error:.3g}, max error "
        f"{verification.max_error:.3g}, tolerance {own.tolerance:g}. No ablation was run. "
        f"{hint}"
    )


def describe(
    network: Network,
    heldout,
    description: Description | str | Dynamics | dict | None = None,
    tolerance: float = TOLERANCE,
) -> Verification:
    """The description of the network (its ``dynamics``: what its file stores) and how it was
    verified: found by ``"auto"``, or as given and checked against the held-out set's
    ``outputs`` where it has them (:class:`RolloutMismatch` if they differ). An initial state
    h0 is one of the network's offsets."""
    batch, outputs = heldout_sets.read(heldout, network, where="heldout")
    own = OwnOutputs(batch.inputs, outputs, tolerance=tolerance)
    return resolve_description(network, Description.of(description), own)


def resolve_description(
    network: Network, given: Description, own: OwnOutputs, runs_module: bool = False
) -> Verification:
    """How the network is described and verified (the description is the record's
    ``dynamics``): found (``auto``), or as ``given`` over what its file stored (the network's
    ``dynamics``) and checked against the model's own outputs where there are any.
    ``runs_module``: a torch module run as it computes, whose own forward is verified apart;
    the description only orders its split (and where the module's parameters map onto no
    arrays, W_xh None, it is not checked)."""
    verification = _resolve(network, given, own, runs_module)
    return replace(verification, split=given.split or "propagator")


def _resolve(network: Network, given: Description, own: OwnOutputs, runs_module: bool):
    if given.dynamics == "auto":
        if own.outputs is None:
            raise ValueError(
                'dynamics="auto" needs the model\'s own outputs: the held-out '
                "key 'outputs' (n, T, N_y), or a torch module whose forward computes them"
            )
        if network.W_xh is None:
            raise ValueError(
                "dynamics=\"auto\" needs the model's arrays: map the module's parameters with "
                'keys="W_xh=KEY,W_hh=KEY,W_hy=KEY"'
            )
        return auto(network, own)
    if runs_module and given.split is None and not given.described:
        raise ValueError(
            "a torch module run as it computes needs its split named: its description "
            '(dynamics=KIND leak=A, or dynamics="auto") for the propagator\'s moduli, '
            'or split="weights" for W_hh\'s own moduli'
        )
    dynamics = given.over(network.dynamics)
    if runs_module and (network.W_xh is None or not given.described):
        return Verification(dynamics, None, None, own.tolerance, 0, "none", "module")
    if own.outputs is None:
        return check(network, dynamics, own)
    return require_reproduced(network, dynamics, own)


MODULE_FORWARD = "the module's own forward"
"""Where the outputs a module's description is checked against came from when the held-out
set has none (:class:`OwnOutputs` ``source``)."""


def module_errors(run, own: OwnOutputs) -> tuple[float | None, float | None]:
    """A torch module's own forward, as built and with W unchanged (``run``, a
    :class:`rnnschur.external.torch_module.ModuleRun`), against the model's own outputs
    (``own``, the held-out file's): (relative RMS error, max error), or (None, None) when
    there are none (its own forward stands in for them). :class:`RolloutMismatch` when it
    misses them: the computation that would score the ablations is not the trained network.
    The message names the layout flag where the other layout does reproduce them."""
    if own.source == MODULE_FORWARD:
        return None, None
    error = relative_rms(run.outputs, own.outputs)
    if error <= own.tolerance:
        return error, float(np.max(np.abs(run.outputs - own.outputs)))
    try:
        other = relative_rms(run.other_layout(), own.outputs)
    except Exception:  # the other layout may not even run
        other = float("inf")
    hint = (
        f"With the other input layout (time_first={not run.time_first}) it does: relative RMS "
        f"error {other:.2g}."
        if other <= own.tolerance
        else "Check how the module was built: constructor arguments a state_dict does not "
        "store (init_kwargs=..., e.g. dt and tau), its input layout (time_first=True or not), its "
        "biases, and which variable its readout reads."
    )
    raise RolloutMismatch(
        f"the module's own forward, as built, does not reproduce the model's own outputs "
        f"(held-out outputs, {len(own.outputs)} trials): relative RMS error {error:.3g}, "
        f"tolerance {own.tolerance:g}. It is what would score every ablation, so none was run. "
        f"{hint}"
    )


def of_module(network: Network, given: Description, own: OwnOutputs, run) -> Verification:
    """The verification of a torch module run as it computes (``run``, a
    :class:`rnnschur.external.torch_module.ModuleRun`): its own forward against the model's own
    outputs (:func:`module_errors`), before any ablation runs, and the description that orders
    its split, checked on the mapped arrays against ``own`` where it can be."""
    error, largest = module_errors(run, own)
    checked = resolve_description(network, given, own, runs_module=True)
    return Verification(
        checked.dynamics,
        error,
        largest,
        own.tolerance,
        len(own.inputs) if error is not None else 0,
        "held-out outputs" if error is not None else "none",
        "module",
        given.split or "propagator",
        None if checked.found_by == "module" else checked.error,
    )
