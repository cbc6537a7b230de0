"""The CTRNN of the NeuroGym and Neuromatch tutorials, trained outside the workflow.

The network is written as those tutorials write it: modules ``rnn.input2h`` and ``rnn.h2h``
(two nn.Linear, biases on), h ← (1 − a) h + a·relu(input2h(x) + h2h(h)) with a = dt/τ = 0.2,
and an nn.Linear readout ``fc``. It is trained on the 3-bit flip-flop (the workflow's generator,
only for its data) with a plain torch loop, then saved as a state_dict with a held-out set and a
fitting set as .npz, and its own evaluation (FVU of its forward pass on the held-out set).

    python examples/ctrnn_tutorial/train.py        # writes ctrnn.pt, heldout.npz, fitting.npz,
                                                   # own_evaluation.json here

The held-out set carries the network's own outputs (``outputs``), so the analysis can show
that its rollout is this network. Then analyse it, from the repository's top folder, as the
leaky relu network it is (or let ``--dynamics auto`` find that from its outputs):

    python -m rnnschur analyse examples/ctrnn_tutorial/ctrnn.pt \\
        examples/ctrnn_tutorial/heldout.npz --fitting examples/ctrnn_tutorial/fitting.npz \\
        --out results/my_ctrnn --dynamics leaky --leak 0.2 --nonlinearity relu
    snakemake -c2 --configfile presets/example_ctrnn.yaml
"""

import json
from pathlib import Path

import numpy as np
import torch
from torch import nn

from rnnschur.tasks import flip_flop

HERE = Path(__file__).resolve().parent
torch.manual_seed(0)
torch.set_num_threads(1)
rng = np.random.default_rng(0)


class CTRNN(nn.Module):
    """h ← (1 − a) h + a relu(input2h(x) + h2h(h)), a = dt / tau."""

    def __init__(self, input_size, hidden_size, dt=20.0, tau=100.0):
        super().__init__()
        self.hidden_size = hidden_size
        self.alpha = dt / tau
        self.input2h = nn.Linear(input_size, hidden_size)
        self.h2h = nn.Linear(hidden_size, hidden_size)

    def forward(self, x):  # x: (time, batch, input_size)
        h = torch.zeros(x.shape[1], self.hidden_size)
        states = []
        for x_t in x:
            h = (1 - self.alpha) * h + self.alpha * torch.relu(self.input2h(x_t) + self.h2h(h))
            states.append(h)
        return torch.stack(states)


class Net(nn.Module):
    def __init__(self, input_size=3, hidden_size=64, output_size=3):
        super().__init__()
        self.rnn = CTRNN(input_size, hidden_size)
        self.fc = nn.Linear(hidden_size, output_size)

    def forward(self, x):
        return self.fc(self.rnn(x))


def as_tensors(batch):
    """Time-major float32 tensors, as the tutorials feed their networks."""
    return (
        torch.tensor(np.swapaxes(a, 0, 1), dtype=torch.float32)
        for a in (batch.inputs, batch.targets, batch.mask)
    )


net = Net()
optimizer = torch.optim.Adam(net.parameters(), lr=3e-3)
for _ in range(1500):
    x, y, mask = as_tensors(flip_flop.generate(rng, 64))
    loss = (((net(x) - y) ** 2) * mask).sum() / mask.sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

heldout, fitting = flip_flop.generate(rng, 512), flip_flop.generate(rng, 512)
# The model's own outputs on the held-out inputs: its forward pass (no noise in this network).
with torch.no_grad():
    x, _, _ = as_tensors(heldout)
    y_hat = np.swapaxes(net(x).double().numpy(), 0, 1)
np.savez(
    HERE / "heldout.npz",
    inputs=heldout.inputs,
    targets=heldout.targets,
    mask=heldout.mask,
    outputs=y_hat,
)
np.savez(HERE / "fitting.npz", inputs=fitting.inputs, targets=fitting.targets, mask=fitting.mask)
torch.save(net.state_dict(), HERE / "ctrnn.pt")

# The model's own evaluation: FVU of its forward pass over the masked entries.
targets, weight = heldout.targets, heldout.mask
y_bar = (targets * weight).sum((0, 1)) / weight.sum((0, 1))
fvu = float((((y_hat - targets) ** 2) * weight).sum() / (((targets - y_bar) ** 2) * weight).sum())
(HERE / "own_evaluation.json").write_text(json.dumps({"heldout_fvu": fvu}, indent=2) + "\n")
print(f"trained; held-out FVU {fvu:.4g} (the CTRNN's own forward pass); wrote {HERE}")
