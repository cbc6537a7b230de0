"""How a network computes: its family, leak and nonlinearity, one frozen value passed along.

Three families (SPEC, "the network families neuroscience trains"; a = dt/τ ∈ (0, 1] the leak):

    discrete       h_t = φ(W_xh x_t + W_hh h_{t-1} + b_h),                      ŷ_t = W_hy h_t + b_y
    leaky          h_t = (1 − a) h_{t-1} + a φ(W_xh x_t + W_hh h_{t-1} + b_h),  ŷ_t = W_hy h_t + b_y
    leaky_current  z_t = (1 − a) z_{t-1} + a (W_hh φ(z_{t-1}) + W_xh x_t + b_h),
                   ŷ_t = W_hy φ(z_t) + b_y

``discrete`` is ``leaky`` with a = 1; the paper's network is ``discrete`` with φ = tanh and no
biases. Around a fixed point with φ' = 1 each family's one-step propagator is
P = (1 − a) I + a W_hh: it has W_hh's Schur vectors, and its eigenvalues are 1 − a + a λ.

Every function here works on NumPy arrays and on torch tensors alike (operators and the
functions both libraries name the same way), so the rollout, the training step and a check
against torch autograd share one definition of φ and φ'.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np

KINDS = ("discrete", "leaky", "leaky_current")
NONLINEARITIES = ("tanh", "relu", "softplus")
SPLITS = ("propagator", "weights")
"""How the α split orders the Schur blocks of a leaky network: by the moduli of the propagator's
eigenvalues |1 − a + a λ| (the default), or by W_hh's own |λ|."""


@dataclass(frozen=True)
class Dynamics:
    """A network family: ``kind`` (one of :data:`KINDS`), ``leak`` a ∈ (0, 1] (1 for
    ``discrete``), ``nonlinearity`` φ (one of :data:`NONLINEARITIES`) and ``split`` (one of
    :data:`SPLITS`)."""

    kind: str = "discrete"
    leak: float = 1.0
    nonlinearity: str = "tanh"
    split: str = "propagator"

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"dynamics must be one of {KINDS}, got {self.kind!r}")
        if self.nonlinearity not in NONLINEARITIES:
            raise ValueError(
                f"nonlinearity must be one of {NONLINEARITIES}, got {self.nonlinearity!r}"
            )
        if self.split not in SPLITS:
            raise ValueError(f"split must be one of {SPLITS}, got {self.split!r}")
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

    @property
    def split_leak(self) -> float:
        """The a whose propagator orders and splits the Schur blocks (1: W_hh's own moduli)."""
        return self.leak if self.split == "propagator" else 1.0

    def describe(self) -> str:
        """E.g. 'discrete tanh' or 'leaky relu (a = 0.2)'."""
        if self.kind == "discrete":
            return f"discrete {self.nonlinearity}"
        return f"{self.kind} {self.nonlinearity} (a = {self.leak:g})"

    def as_dict(self) -> dict:
        return {
            "dynamics": self.kind,
            "leak": self.leak,
            "nonlinearity": self.nonlinearity,
            "split": self.split,
        }

    @classmethod
    def from_config(cls, block: dict | None) -> Dynamics:
        """From a config block ``{dynamics, leak, nonlinearity, split}`` (any may be missing)."""
        block = block or {}
        kind = block.get("dynamics", "discrete")
        return cls(
            kind=kind,
            leak=block.get("leak", 1.0 if kind == "discrete" else 0.2),
            nonlinearity=block.get("nonlinearity", "tanh"),
            split=block.get("split", "propagator"),
        )


DISCRETE = Dynamics()
"""The paper's network: discrete, tanh."""


def resolve(
    stored: Dynamics,
    dynamics: str | None = None,
    leak: float | None = None,
    nonlinearity: str | None = None,
    split: str = "propagator",
) -> Dynamics:
    """The family to analyse a model as: what is given (options, config keys) over what its
    file stores (``stored``); a leaky family without a leak takes the stored one if the file
    is leaky, else 0.2. Raises ValueError for a value that is not one."""
    kind = dynamics or stored.kind
    if leak is None:
        leak = stored.leak if kind != "discrete" and stored.kind != "discrete" else None
    block = {"dynamics": kind, "nonlinearity": nonlinearity or stored.nonlinearity}
    if leak is not None:
        block["leak"] = leak
    return Dynamics.from_config({**block, "split": split})


def phi(dynamics: Dynamics, u, out=None):
    """φ(u) elementwise (``out``: where to write, NumPy or torch)."""
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
    """φ'(u) written through s = φ(u), so BPTT needs only the stored rates: tanh 1 − s²,
    relu 1{s > 0}, softplus 1 − e^{−s} (the logistic function of u)."""
    if dynamics.nonlinearity == "tanh":
        return 1.0 - s * s
    if dynamics.nonlinearity == "relu":
        return (s > 0) * 1.0
    return 1.0 - array_library(s).exp(-s)


def propagator_eigenvalues(eigenvalues: np.ndarray, leak: float) -> np.ndarray:
    """Eigenvalues 1 − a + a λ of P = (1 − a) I + a W_hh (``eigenvalues`` themselves at a = 1)."""
    if leak == 1.0:
        return eigenvalues
    return (1.0 - leak) + leak * eigenvalues


def array_library(array):
    """numpy for arrays, torch for tensors."""
    if isinstance(array, np.ndarray | np.generic):
        return np
    return sys.modules["torch"]  # a tensor: torch is loaded (this module never imports it)
