"""A model trained outside the workflow, the way many labs train one: a plain torch script.

A 32-unit nn.RNN(nonlinearity="tanh") with its default biases and an nn.Linear readout, trained
on the 3-bit flip-flop (the workflow's generator, only for its data), then saved as a torch
state_dict with a held-out set (with the model's own outputs on its inputs) and a fitting set
as .npz. It also writes the model's own evaluation (FVU of torch's forward pass on the held-out
set), which the analysis must reproduce.

    python examples/flipflop_torch/train.py        # writes state_dict.pt, heldout.npz,
                                                   # fitting.npz, own_evaluation.json here
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


class FlipFlopRNN(nn.Module):
    def __init__(self, n_hidden: int = 32):
        super().__init__()
        self.rnn = nn.RNN(3, n_hidden, nonlinearity="tanh", batch_first=True)
        self.readout = nn.Linear(n_hidden, 3)

    def forward(self, x):
        h, _ = self.rnn(x)
        return self.readout(h)


def as_tensors(batch):
    return (torch.tensor(a, dtype=torch.float32) for a in (batch.inputs, batch.targets, batch.mask))


model = FlipFlopRNN()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
for _ in range(1500):
    x, y, mask = as_tensors(flip_flop.generate(rng, 64))
    loss = (((model(x) - y) ** 2) * mask).sum() / mask.sum()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

heldout, fitting = flip_flop.generate(rng, 512), flip_flop.generate(rng, 512)
# The model's own outputs on the held-out inputs: torch's forward pass.
with torch.no_grad():
    x, y, mask = as_tensors(heldout)
    y_hat = model(x).double().numpy()
np.savez(
    HERE / "heldout.npz",
    inputs=heldout.inputs,
    targets=heldout.targets,
    mask=heldout.mask,
    outputs=y_hat,
)
np.savez(HERE / "fitting.npz", inputs=fitting.inputs, targets=fitting.targets, mask=fitting.mask)
torch.save(model.state_dict(), HERE / "state_dict.pt")

# The model's own evaluation: FVU of torch's forward pass over the masked entries.
targets, weight = heldout.targets, heldout.mask
y_bar = (targets * weight).sum((0, 1)) / weight.sum((0, 1))
fvu = float((((y_hat - targets) ** 2) * weight).sum() / (((targets - y_bar) ** 2) * weight).sum())
(HERE / "own_evaluation.json").write_text(json.dumps({"heldout_fvu": fvu}, indent=2) + "\n")
print(f"trained; held-out FVU {fvu:.4g} (torch's forward pass); wrote {HERE}")
