"""A small PsychRNN network saved by PsychRNN itself, for the tests and docs/your_network.md.

Needs psychrnn 1.0.0 and TensorFlow (the tests do not): ``pip install psychrnn==1.0.0
tensorflow-cpu``, then ``python examples/psychrnn/make_psychrnn.py``. Trains PsychRNN's Basic
RNN (leaky current form, relu, its default) on its PerceptualDiscrimination task, N_rec = 20,
dt = 10, τ = 100 (a = 0.1), with its trained initial state, and writes beside this script:

- ``basic.npz``: the file ``model.save`` writes, as it writes it (its effective weights
  ``W_in``, ``W_rec``, ``W_out``, the biases ``b_rec``, ``b_out``, the trained ``init_state``
  of shape (1, N_rec), the connectivity masks and Dale matrices, and ``dale_ratio=None``, an
  object entry);
- ``heldout.npz``: 64 trials of the task (``inputs``, ``targets``, ``mask``) and the network's
  own ``outputs`` on them from ``model.test`` (recurrent noise 0).
"""

from pathlib import Path

import numpy as np
from psychrnn.backend.models.basic import Basic
from psychrnn.tasks.perceptual_discrimination import PerceptualDiscrimination

HERE = Path(__file__).resolve().parent

task = PerceptualDiscrimination(dt=10, tau=100, T=1000, N_batch=64)
params = task.get_task_params()
params.update(name="basic", N_rec=20, rec_noise=0.0, random_seed=7)
model = Basic(params)
model.train(task, {"training_iters": 20000, "verbosity": False})
model.save(str(HERE / "basic.npz"))
inputs, targets, mask, _ = task.get_trial_batch()
outputs, _ = model.test(inputs)
np.savez(
    HERE / "heldout.npz",
    inputs=inputs.astype(np.float32),
    targets=targets.astype(np.float32),
    mask=mask.astype(np.float32),
    outputs=outputs.astype(np.float32),
)
model.destruct()
