"""How a network computes, one frozen value passed along: the update, the readout and the
output timing (SPEC, "the network families neuroscience trains"; a = dt/τ ∈ (0, 1] the leak).

The update (``kind``):

    discrete       h_t = φ(W_xh x_t + W_hh h_{t-1} + b_h)
    leaky          h_t = (1 − a) h_{t-1} + a φ(W_xh x_t + W_hh h_{t-1} + b_h)
    leaky_current  z_t = (1 − a) z_{t-1} + a (W_hh φ(z_{t-1}) + W_xh x_t + b_h)

The readout (``readout``) reads r_t = φ(z_t) (``rate``) or z_t itself (``state``); the rate
forms' state h_t is their rate, so they read it (``rate``). The output timing (``timing``) is
ŷ_t = W_hy r_t + b_y (``after`` the step's update) or ŷ_t = W_hy r_{t-1} + b_y (``before`` it,
r_0 read from the initial state). The paper's network is ``discrete`` tanh, no biases, read
``after``; Schuessler et al.'s ``RNN_Net`` is ``leaky_current`` tanh read from the ``state``
``before`` the update (:data:`rnnschur.network.catalogue.CATALOGUE`). ``discrete`` is
``leaky`` with a = 1. Around a fixed point with φ' = 1 each update's one-step propagator is
P = (1 − a) I + a W_hh: it has W_hh's Schur vectors, and its eigenvalues are 1 − a + a λ; the
readout and timing do not change it.

Every function here works on NumPy arrays and on torch tensors alike (operators and the
functions both libraries name the same way), so the rollout, the training step and a check
against torch autograd share one definition of φ and φ'.
"""

from __future__ import annotations

import math
import numbers
import sys
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

KINDS = ("discrete", "leaky", "leaky_current")
NONLINEARITIES = ("tanh", "relu", "softplus")
READOUTS = ("rate", "state")
"""What the readout reads: φ(z_t) (the rate forms' h_t), or the current form's state z_t."""
TIMINGS = ("after", "before")
"""When the output of step t is taken: after the step's update (ŷ_t from r_t) or before it
(ŷ_t from r_{t-1})."""
FIELDS = ("dynamics", "leak", "nonlinearity", "readout", "timing")
"""The names a network's description goes by outside this module: in a config block, the 0-d
arrays of a weights ``.npz``, meta.json, analysis.json and the command's flags
(:meth:`Dynamics.as_dict`, :meth:`Dynamics.from_config`)."""
SPLITS = ("propagator", "weights")
"""How the α split orders the Schur blocks of a leaky network: by the moduli of the propagator's
eigenvalues |1 − a + a λ| (the default), or by W_hh's own |λ|."""


@dataclass(frozen=True)
class Dynamics:
    """A network description: the update ``kind`` (one of :data:`KINDS`) with its ``leak``
    a ∈ (0, 1] (1 for ``discrete``) and ``nonlinearity`` φ (one of :data:`NONLINEARITIES`), the
    ``readout`` (one of :data:`READOUTS`) and the output ``timing`` (one of :data:`TIMINGS`).
    How the α split orders its Schur blocks is the analysis's choice, not the network's
    (:meth:`split_leak`)."""

    kind: str = "discrete"
    leak: float = 1.0
    nonlinearity: str = "tanh"
    readout: str = "rate"
    timing: str = "after"

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"dynamics must be one of {KINDS}, got {self.kind!r}")
        if self.nonlinearity not in NONLINEARITIES:
            raise ValueError(
                f"nonlinearity must be one of {NONLINEARITIES}, got {self.nonlinearity!r}"
            )
        if self.readout not in READOUTS:
            raise ValueError(f"readout must be one of {READOUTS}, got {self.readout!r}")
        if self.timing not in TIMINGS:
            raise ValueError(f"timing must be one of {TIMINGS}, got {self.timing!r}")
        if self.readout == "state" and self.kind != "leaky_current":
            raise ValueError(
                f"readout 'state' is the current form's (leaky_current): {self.kind} reads its "
                "state h_t, which is its rate (readout 'rate')"
            )
        leak = float(self.leak)
        if not 0.0 < leak <= 1.0:
            raise ValueError(f"leak must lie in (0, 1], got {self.leak}")
        if self.kind == "discrete" and leak != 1.0:
            raise ValueError(f"discrete dynamics have leak 1, got {self.leak} (use 'leaky')")
        object.__setattr__(self, "leak", leak)

    @property
    def current_form(self) -> bool:
        """True for ``leaky_current``: the state is the current z, the rate is φ(z)."""
        return self.kind == "leaky_current"

    def drive_noise(self, sigma: float) -> float:
        """The standard deviation of noise in the drive W_xh x_t that gives hidden noise
        ``sigma`` in the family's own form: σ inside φ for the rate forms; √a σ on z_t in the
        current form (Schuessler et al.'s √dt σ), i.e. σ / √a in the drive.

        Parameters
        ----------
        sigma : float

        Returns
        -------
        float
        """
        return sigma / (math.sqrt(self.leak) if self.current_form else 1)

    def split_leak(self, split: str = "propagator") -> float:
        """The a whose propagator P = (1 − a) I + a W_hh orders and splits the Schur blocks (eqs. 3,
        5) under ``split`` (:data:`SPLITS`): this network's leak, or 1 (W_hh's own moduli).

        Parameters
        ----------
        split : str

        Returns
        -------
        float
        """
        if split not in SPLITS:
            raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
        return self.leak if split == "propagator" else 1.0

    @property
    def reads_state(self) -> bool:
        """True when the readout reads the current form's state z_t, not φ(z_t)."""
        return self.readout == "state"

    @property
    def reads_before(self) -> bool:
        """True when the output of step t is taken before the step's update."""
        return self.timing == "before"

    def describe(self) -> str:
        """The description in words, as the summaries and figure titles print it.

        Returns
        -------
        str
            E.g. 'discrete tanh', 'leaky relu (a = 0.2)' or 'leaky_current tanh (a = 0.2),
            readout of the state, taken before the update'.
        """
        text = f"{self.kind} {self.nonlinearity}"
        if self.kind != "discrete":
            text += f" (a = {self.leak:g})"
        if self.reads_state or self.reads_before:
            text += f", readout of the {self.readout}, taken {self.timing} the update"
        return text

    def as_dict(self) -> dict:
        """The description as it is stored and configured.

        Returns
        -------
        dict
            {field: value} under :data:`FIELDS` (kind, leak, φ, readout, timing).
        """
        values = (self.kind, self.leak, self.nonlinearity, self.readout, self.timing)
        return dict(zip(FIELDS, values, strict=True))

    @classmethod
    def from_config(cls, block: dict | None) -> Dynamics:
        """From a config block ``{dynamics, leak, nonlinearity, readout, timing}``; any but ``leak``
        may be missing (eq. 1's discrete tanh): a leaky update needs its leak, none is guessed.

        Parameters
        ----------
        block : dict or None

        Returns
        -------
        Dynamics
        """
        block = block or {}
        kind = block.get("dynamics", "discrete")
        if kind != "discrete" and block.get("leak") is None:
            raise ValueError(f"a {kind} network needs its leak a = dt/τ (key leak): none given")
        return cls(
            kind=kind,
            leak=block.get("leak", 1.0),
            nonlinearity=block.get("nonlinearity", "tanh"),
            readout=block.get("readout", "rate"),
            timing=block.get("timing", "after"),
        )


DISCRETE = Dynamics()
"""The paper's network: discrete, tanh."""


_GIVEN = (str, type(None))
DESCRIPTION_TYPES = {
    **dict.fromkeys(FIELDS, _GIVEN),
    "dynamics": (str, Dynamics, type(None)),
    "leak": (numbers.Real, type(None)),
    "split": _GIVEN,
}
"""The fields of a :class:`Description` and the types each takes: :data:`FIELDS` and the
split."""


@dataclass(frozen=True)
class Description:
    """How a network trained elsewhere computes, as its user describes it (None: not given;
    :meth:`over` fills it from what its file stores, else the paper's discrete tanh RNN, eq. 1):

    - ``dynamics``: the update, ``"discrete"``, ``"leaky"`` or ``"leaky_current"``, a whole
      :class:`Dynamics`, or ``"auto"``: the description that reproduces the model's own
      outputs, its leak found by a one-dimensional search
      (:func:`rnnschur.external.verify.auto`);
    - ``leak`` (a = dt/τ of a leaky update), ``nonlinearity``, ``readout``, ``timing``: the rest
      of the description;
    - ``split``: ``"propagator"`` (order and split a leaky network's blocks by |1 − a + aλ|)
      or ``"weights"`` (W_hh's own |λ|).

    The command's flags (``--dynamics``, ``--leak``, ...) and the config's
    ``external_models`` entries are parsed once into one, and :func:`rnnschur.analyse` takes
    one (or what :meth:`of` makes one of); once resolved it is a :class:`Dynamics`, part of the
    :class:`rnnschur.network.Network` read."""

    dynamics: str | Dynamics | None = None
    leak: float | None = None
    nonlinearity: str | None = None
    readout: str | None = None
    timing: str | None = None
    split: str | None = None

    def __post_init__(self):
        check_types("description", self.__dict__, DESCRIPTION_TYPES)
        if self.leak is not None and self.leak != self.leak:
            raise ValueError("description: leak=nan; the leak a = dt/τ lies in (0, 1]")

    @classmethod
    def of(cls, value) -> Description:
        """A Description from what a caller gives: one, None (nothing given), an update's name or
        ``"auto"``, a :class:`Dynamics`, or a mapping of its fields.

        Parameters
        ----------
        value : Description, None, str, Dynamics or mapping

        Returns
        -------
        Description
        """
        if value is None:
            return cls()
        if isinstance(value, cls):
            return value
        if isinstance(value, str | Dynamics):
            return cls(dynamics=value)
        if isinstance(value, Mapping):
            known = list(DESCRIPTION_TYPES)
            unknown = sorted(set(value) - set(known))
            if unknown:
                raise TypeError(f"description has no field {unknown[0]!r}; its fields are {known}")
            return cls(**value)
        raise TypeError(
            f"description={value!r} is a {type(value).__name__}; expected a Description, a "
            'dict of its fields, "auto", an update\'s name, a Dynamics or None'
        )

    @property
    def described(self) -> bool:
        """Whether any of the description is given (not only the split)."""
        return any(
            v is not None for v in (self.dynamics, self.leak, self.nonlinearity, self.readout)
        )

    def over(self, stored: Dynamics) -> Dynamics:
        """The network to analyse a model as: what is given here over what its file stores
        (``stored``); a whole :class:`Dynamics` given is itself. A leaky update keeps the stored
        leak only if the file stores that update; otherwise it needs ``leak``. ValueError, naming
        the option, for a combination that is not a network (a leak without a leaky update, a
        leaky update without a leak).

        Parameters
        ----------
        stored : Dynamics

        Returns
        -------
        Dynamics
        """
        if isinstance(self.dynamics, Dynamics):
            return self.dynamics
        kind, leak = self.dynamics or stored.kind, self.leak
        if kind not in KINDS:
            raise ValueError(f'dynamics={kind!r}: must be one of {KINDS} or "auto"')
        if leak is not None and kind == "discrete":
            raise ValueError(
                f"leak={leak:g} needs a leaky update: add dynamics=leaky (rate form), "
                'dynamics=leaky_current (current form) or dynamics="auto"'
            )
        if leak is None and kind != "discrete":
            if stored.kind != kind:
                raise ValueError(
                    f"dynamics={kind} needs its leak a = dt/τ: give leak=A, or "
                    'dynamics="auto" to find it from the model\'s own outputs'
                )
            leak = stored.leak
        same = kind == stored.kind
        block = {
            "dynamics": kind,
            "nonlinearity": self.nonlinearity or stored.nonlinearity,
            "readout": self.readout or (stored.readout if same else "rate"),
            "timing": self.timing or (stored.timing if same else "after"),
        }
        if leak is not None:
            block["leak"] = leak
        return Dynamics.from_config(block)


def check_types(where: str, values: Mapping, types: dict[str, tuple]) -> None:
    """TypeError naming the first of ``values`` whose type is not among its ``types`` (a bool
    is no number), e.g. ``description: leak='0.2' is a str; expected a number or None``.

    Parameters
    ----------
    where : str
        What the values are given to, the message's first words.
    values : Mapping
        {name: value}.
    types : dict
        {name: tuple of allowed types}; ``numbers.Real`` reads "a number".

    Returns
    -------
    None
        Raises TypeError on the first value of a wrong type.
    """
    for name, allowed in types.items():
        value = values[name]
        if (isinstance(value, bool) and bool not in allowed) or not isinstance(value, allowed):
            expected = " or ".join(
                "None" if t is type(None) else "a number" if t is numbers.Real else t.__name__
                for t in allowed
            )
            raise TypeError(
                f"{where}: {name}={value!r} is a {type(value).__name__}; expected {expected}"
            )


def phi(dynamics: Dynamics, u, out=None):
    """φ(u) of eq. 1, elementwise: tanh, relu or softplus log(1 + e^u) (stably, as max(u, 0) +
    log1p(e^{−|u|})); ``out``: where to write, NumPy or torch.

    Parameters
    ----------
    dynamics : Dynamics
    u, out : ndarray or torch.Tensor

    Returns
    -------
    ndarray or torch.Tensor
    """
    lib = array_library(u)
    if dynamics.nonlinearity == "tanh":
        return lib.tanh(u, out=out)
    if dynamics.nonlinearity == "relu":
        return lib.clip(u, 0.0, None, out=out) if lib is np else lib.clamp(u, min=0.0, out=out)
    # softplus log(1 + e^u), computed stably as max(u, 0) + log1p(e^{−|u|})
    value = lib.log1p(lib.exp(-abs(u))) + (u * (u > 0))
    if out is None:
        return value
    out[...] = value
    return out


def phi_prime_of_phi(dynamics: Dynamics, s):
    """φ'(u) written through s = φ(u), so BPTT needs only the stored rates: tanh 1 − s², relu
    1{s > 0}, softplus 1 − e^{−s} (the logistic function of u).

    Parameters
    ----------
    dynamics : Dynamics
    s : ndarray or torch.Tensor

    Returns
    -------
    ndarray or torch.Tensor
    """
    if dynamics.nonlinearity == "tanh":
        return 1.0 - s * s
    if dynamics.nonlinearity == "relu":
        return (s > 0) * 1.0
    return 1.0 - array_library(s).exp(-s)


def propagator_eigenvalues(eigenvalues: np.ndarray, leak: float) -> np.ndarray:
    """Eigenvalues 1 − a + a λ of P = (1 − a) I + a W_hh, whose moduli order the Schur blocks
    (eq. 3); ``eigenvalues`` themselves at a = 1.

    Parameters
    ----------
    eigenvalues : ndarray
    leak : float

    Returns
    -------
    ndarray
    """
    if leak == 1.0:
        return eigenvalues
    return (1.0 - leak) + leak * eigenvalues


def array_library(array):
    """The library whose functions act on ``array``.

    Parameters
    ----------
    array : numpy.ndarray or torch.Tensor

    Returns
    -------
    module
        numpy for arrays, torch for tensors.
    """
    if isinstance(array, np.ndarray | np.generic):
        return np
    return sys.modules["torch"]  # a tensor: torch is loaded (this module never imports it)
