"""What a training step updates and how: the trained parameters of W_hh (the matrix itself, or
the Cayley map's, :mod:`rnnschur.training.cayley`), Adam and the clipping of the gradients'
global norm, as torch computes them, on NumPy arrays or torch tensors alike."""

from __future__ import annotations

import math

import numpy as np

from rnnschur.training.cayley import cayley_gradients, cayley_map
from rnnschur.training.constructions import CayleyParams


class Recurrent:
    """W_hh as a trained matrix (dense constructions) or as O(A) D O(A)ᵀ (Cayley,
    :mod:`rnnschur.training.cayley`): the trained arrays, W_hh from them, and their gradients from
    ∂L/∂W_hh."""

    def __init__(self, init: np.ndarray | CayleyParams, as_array):
        self.cayley = isinstance(init, CayleyParams)
        raw = (init.A, init.d_real, init.d_pair) if self.cayley else (init,)
        self.params = [as_array(p) for p in raw]

    def weight(self):
        """W_hh of the current parameters."""
        if not self.cayley:
            return self.params[0]
        self._map = cayley_map(*self.params)
        return self._map.W

    def gradients(self, grad_W) -> list:
        """∂L/∂(parameters) given ∂L/∂W_hh of the last :meth:`weight`."""
        if not self.cayley:
            return [grad_W]
        return list(cayley_gradients(self._map, grad_W))


class Adam:
    """Adam (Kingma & Ba 2015) as ``torch.optim.Adam`` computes it (β₁ = 0.9, β₂ = 0.999,
    ε = 1e-8, no weight decay), updating NumPy arrays or torch tensors in place."""

    def __init__(self, params: list, betas=(0.9, 0.999), eps: float = 1e-8):
        self.params, self.betas, self.eps, self.t = params, betas, eps, 0
        self.m = [p * 0 for p in params]
        self.v = [p * 0 for p in params]

    def step(self, grads: list, lr: float) -> None:
        self.t += 1
        b1, b2 = self.betas
        step_size = lr / (1 - b1**self.t)
        root_correction = math.sqrt(1 - b2**self.t)
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * (g * g)
            p -= step_size * m / (v**0.5 / root_correction + self.eps)


def clip_grad_norm(grads: list, max_norm: float) -> None:
    """Scale the gradients in place so that their global norm is at most ``max_norm`` (as
    ``torch.nn.utils.clip_grad_norm_``: factor max_norm / (norm + 1e-6), capped at 1)."""
    norm = math.sqrt(sum(float((g * g).sum()) for g in grads))
    factor = max_norm / (norm + 1e-6)
    if factor < 1.0:
        for g in grads:
            g *= factor
