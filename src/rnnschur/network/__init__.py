"""One network as the method sees it: its weights, the offsets of a model trained elsewhere and
its description (:mod:`.dynamics`), read once (:func:`rnnschur.io.load_network`) and passed
along; the α split, an analysis setting, is not part of it. Its rollout is :mod:`.rnn`'s."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from rnnschur.network.dynamics import DISCRETE, Dynamics
from rnnschur.network.rnn import rollout

WEIGHT_KEYS = ("W_xh", "W_hh", "W_hy")
"""The weights of every network here: input (N_h, N_x), recurrent (N_h, N_h), readout (N_y, N_h)."""
OFFSET_KEYS = ("b_h", "b_y", "h0")
"""The offsets a network trained elsewhere may have: hidden and output bias, initial state."""


@dataclass(frozen=True)
class Network:
    """W_xh (N_h, N_x), W_hh (N_h, N_h), W_hy (N_y, N_h) of eqs. (1–2), the ``offsets`` it has
    (a subset of :data:`OFFSET_KEYS`; the paper's networks have none) and its ``dynamics``.
    W_xh and W_hy are None for a user's torch module that supplies its own forward."""

    W_xh: np.ndarray | None
    W_hh: np.ndarray
    W_hy: np.ndarray | None
    dynamics: Dynamics = DISCRETE
    offsets: dict[str, np.ndarray] = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = set(self.offsets) - set(OFFSET_KEYS)
        if unknown:
            raise ValueError(f"unknown offsets {sorted(unknown)}; offsets: {list(OFFSET_KEYS)}")

    @property
    def n_hidden(self) -> int:
        """N_h, the size of h_t in eq. 1.

        Returns
        -------
        int
        """
        return int(self.W_hh.shape[-1])

    def rollout(self, inputs: np.ndarray, W_hh: np.ndarray | None = None, **options):
        """This network on ``inputs`` (eqs. 1–2, or its family's update and readout:
        :func:`rnnschur.network.rnn.rollout`), with ``W_hh`` in place of its own where given.

        Parameters
        ----------
        inputs : (n, time, N_x) ndarray
        W_hh : (N_h, N_h) or (K, N_h, N_h) ndarray, optional
            A matrix or a stack (e.g. ablated ones, W̃(S) of eq. 5).
        **options
            ``return_hidden``, ``dtype``, ``noise`` (:func:`rnnschur.network.rnn.rollout`'s).

        Returns
        -------
        ndarray or tuple of ndarray
            The outputs ŷ ((K,) n, time, N_y), and the hidden states where ``return_hidden``.
        """
        W = self.W_hh if W_hh is None else W_hh
        return rollout(
            self.W_xh, W, self.W_hy, inputs, **self.offsets, dynamics=self.dynamics, **options
        )

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], dynamics: Dynamics = DISCRETE) -> Network:
        """A network from a mapping of ``W_xh``, ``W_hh``, ``W_hy`` (eqs. 1–2) and any offsets (a
        user's model).

        Parameters
        ----------
        arrays : mapping of str to ndarray
            ``W_hh`` required; ``W_xh``, ``W_hy`` and :data:`OFFSET_KEYS` where present.
        dynamics : Dynamics
            How it computes.

        Returns
        -------
        Network

        Raises
        ------
        KeyError
            No ``W_hh``.
        """
        return cls(
            arrays.get("W_xh"),
            arrays["W_hh"],
            arrays.get("W_hy"),
            dynamics,
            {k: arrays[k] for k in OFFSET_KEYS if k in arrays},
        )
