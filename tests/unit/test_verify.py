"""Proof before verdicts: each catalogue entry against an independent torch implementation of
its source's equations (written here, not copied from the library), a planted model of each
found by ``auto``, and a mismatched description refused."""

import numpy as np
import pytest
import torch
from torch import nn

from rnnschur.external import convert, verify
from rnnschur.network import Network
from rnnschur.network.catalogue import CATALOGUE, catalogue_names
from rnnschur.network.dynamics import Dynamics


class PaperRNN(nn.Module):
    """The paper's eqs. (1-2): h_t = tanh(W_xh x_t + W_hh h_{t-1}), y_t = W_hy h_t; no biases."""

    def __init__(self, n_in, n_hidden, n_out):
        super().__init__()
        self.rnn = nn.RNN(n_in, n_hidden, bias=False, batch_first=True)
        self.fc = nn.Linear(n_hidden, n_out, bias=False)

    def forward(self, x):
        return self.fc(self.rnn(x)[0])


class TorchRNN(PaperRNN):
    """torch.nn.RNN with its biases and an nn.Linear readout with its bias."""

    def __init__(self, n_in, n_hidden, n_out):
        nn.Module.__init__(self)
        self.rnn = nn.RNN(n_in, n_hidden, batch_first=True)
        self.fc = nn.Linear(n_hidden, n_out)


class TutorialCTRNN(nn.Module):
    """NeuroGym / Neuromatch tutorial: h = (1 - alpha) h + alpha relu(input2h(x) + h2h(h)),
    read by fc after the update."""

    def __init__(self, n_in, n_hidden, n_out, alpha):
        super().__init__()
        self.alpha = alpha
        self.input2h = nn.Linear(n_in, n_hidden)
        self.h2h = nn.Linear(n_hidden, n_hidden)
        self.fc = nn.Linear(n_hidden, n_out)

    def forward(self, x):
        h = torch.zeros(x.shape[0], self.h2h.in_features)
        out = []
        for t in range(x.shape[1]):
            h = h * (1 - self.alpha) + self.alpha * torch.relu(self.input2h(x[:, t]) + self.h2h(h))
            out.append(self.fc(h))
        return torch.stack(out, 1)


class SchuesslerNet(nn.Module):
    """Schuessler et al.'s RNN_Net for dt < 1, from their equations: the state h is recorded
    before each step's update h = (1 - dt) h + dt (tanh(h) W_hh^T + x W_ih^T) and decoded
    linearly; parameter names as theirs."""

    def __init__(self, n_in, n_hidden, n_out, dt):
        super().__init__()
        self.dt = dt
        self.rnn = nn.RNN(n_in, n_hidden, bias=False, batch_first=True)
        self.decoder = nn.Linear(n_hidden, n_out, bias=False)
        with torch.no_grad():
            self.rnn.weight_ih_l0.normal_(0, 1.0)
            self.rnn.weight_hh_l0.normal_(0, 1.5 / n_hidden**0.5)

    def forward(self, x, h_0=None, noise_std=0.0):
        h = torch.zeros(x.shape[0], self.rnn.hidden_size)
        recorded = []
        for t in range(x.shape[1]):
            recorded.append(h)
            f = torch.tanh(h) @ self.rnn.weight_hh_l0.T + x[:, t] @ self.rnn.weight_ih_l0.T
            h = (1 - self.dt) * h + self.dt * f
        return self.decoder(torch.stack(recorded, 1))


class PsychRNNBasic(nn.Module):
    """PsychRNN's Basic: state = (1 - alpha) state + alpha (relu(state) W_rec^T + x W_in^T +
    b_rec), output = relu(state) W_out^T + b_out after each update."""

    def __init__(self, n_in, n_hidden, n_out, alpha):
        super().__init__()
        self.alpha = alpha
        self.W_in = nn.Parameter(torch.randn(n_hidden, n_in) * 0.5)
        self.W_rec = nn.Parameter(torch.randn(n_hidden, n_hidden) * 1.2 / n_hidden**0.5)
        self.b_rec = nn.Parameter(torch.randn(n_hidden) * 0.1)
        self.W_out = nn.Parameter(torch.randn(n_out, n_hidden) / n_hidden**0.5)
        self.b_out = nn.Parameter(torch.randn(n_out) * 0.1)

    def forward(self, x):
        state = torch.zeros(x.shape[0], self.W_rec.shape[0])
        out = []
        for t in range(x.shape[1]):
            drive = torch.relu(state) @ self.W_rec.T + x[:, t] @ self.W_in.T + self.b_rec
            state = (1 - self.alpha) * state + self.alpha * drive
            out.append(torch.relu(state) @ self.W_out.T + self.b_out)
        return torch.stack(out, 1)


class Nn4nCTRNN(nn.Module):
    """nn4n's own CTRNN (time-first, its layers float32), given batch-first inputs."""

    def __init__(self, n_in, n_hidden, n_out, alpha):
        from nn4n.model import CTRNN

        super().__init__()
        dt = 100 * alpha
        self.net = CTRNN(dims=[n_in, n_hidden, n_out], dt=dt, tau=100, biases="normal")
        self.net.eval()

    def train(self, mode=True):  # nn4n's train() and eval() take no argument
        self.training = mode
        self.net.train() if mode else self.net.eval()
        return self

    def forward(self, x):
        return self.net(x.transpose(0, 1))[0].transpose(0, 1)


PSYCHRNN_KEYS = "W_xh=W_in,W_hh=W_rec,W_hy=W_out,b_h=b_rec,b_y=b_out"
NN4N_KEYS = (
    "W_xh=net.recurrent_layer.input_layer.weight,W_hh=net.recurrent_layer.hidden_layer.weight,"
    "W_hy=net.readout_layer.weight,"
    "b_h=net.recurrent_layer.input_layer.bias+net.recurrent_layer.hidden_layer.bias,"
    "b_y=net.readout_layer.bias"
)
ENTRIES = {
    # catalogue name: (module, its leak, --keys or None for the detected layout)
    "paper": (lambda: PaperRNN(3, 12, 2), 1.0, None),
    "torch_rnn": (lambda: TorchRNN(3, 12, 2), 1.0, None),
    "neurogym_ctrnn": (lambda: TutorialCTRNN(3, 12, 2, alpha=0.2), 0.2, None),
    "schuessler_rnn_net": (lambda: SchuesslerNet(3, 12, 2, dt=0.2), 0.2, None),
    "psychrnn_basic": (lambda: PsychRNNBasic(3, 12, 2, alpha=0.1), 0.1, PSYCHRNN_KEYS),
    "nn4n_ctrnn": (lambda: Nn4nCTRNN(3, 12, 2, alpha=0.2), 0.2, NN4N_KEYS),
}


def model_and_outputs(name, tmp_path, seed=0):
    """The entry's module as the library's arrays, held-out inputs and its own outputs."""
    make, leak, keys = ENTRIES[name]
    torch.manual_seed(seed)
    net = make().eval()
    path = tmp_path / f"{name}.pt"
    torch.save(net.state_dict(), path)
    model = Network.from_arrays(
        convert.from_state_dict(path, convert.parse_keys(keys) if keys else None)
    )
    inputs = np.random.default_rng(seed).standard_normal((40, 30, 3)).astype(np.float32)
    with torch.no_grad():
        outputs = net(torch.from_numpy(inputs)).double().numpy()
    return model, inputs, outputs, leak


def test_catalogue_covers_the_entries_tested_here():
    assert {entry.name for entry in CATALOGUE} == set(ENTRIES)


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_each_catalogue_entry_reproduces_its_source(name, tmp_path):
    model, inputs, outputs, leak = model_and_outputs(name, tmp_path)
    entry = next(e for e in CATALOGUE if e.name == name)
    result = verify.check(model, entry.with_leak(leak), verify.OwnOutputs(inputs, outputs))
    assert result.verified, result.line()
    assert result.error < 1e-5  # float32 rounding of the module, nothing more


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_auto_finds_each_planted_entry_and_its_leak(name, tmp_path):
    model, inputs, outputs, leak = model_and_outputs(name, tmp_path, seed=3)
    found = verify.auto(model, verify.OwnOutputs(inputs, outputs))
    assert found.verified and found.found_by == "auto"
    assert found.dynamics.leak == leak  # the shortest decimal, exactly
    # nn.RNN without biases is the paper's network, nn4n's CTRNN has PsychRNN's form
    assert name in catalogue_names(found.dynamics)
    entry = next(e for e in CATALOGUE if e.name == name)
    assert (found.dynamics.kind, found.dynamics.readout, found.dynamics.timing) == (
        entry.kind,
        entry.readout,
        entry.timing,
    )


def test_a_mismatched_description_is_refused_naming_the_one_that_fits(tmp_path):
    model, inputs, outputs, _ = model_and_outputs("schuessler_rnn_net", tmp_path)
    wrong = Dynamics("leaky_current", 0.2, "tanh")  # the old current form: φ readout, after
    with pytest.raises(verify.RolloutMismatch) as error:
        verify.require_reproduced(model, wrong, verify.OwnOutputs(inputs, outputs))
    text = str(error.value)
    assert "relative RMS error" in text and "No ablation was run" in text
    assert "[schuessler_rnn_net]" in text.split("do reproduce them:")[1]


def test_no_description_fits_a_nonlinear_readout(tmp_path):
    model, inputs, outputs, _ = model_and_outputs("paper", tmp_path)
    with pytest.raises(verify.RolloutMismatch, match="no network description reproduces"):
        verify.auto(model, verify.OwnOutputs(inputs, np.tanh(3 * outputs)))


def test_tolerance_boundary_is_the_relative_rms_error():
    """Planted: outputs off by a known relative RMS error, just inside and outside 1e-3."""
    rng = np.random.default_rng(5)
    model = Network(
        rng.standard_normal((6, 2)), 0.3 * rng.standard_normal((6, 6)), rng.standard_normal((2, 6))
    )
    inputs = rng.standard_normal((10, 8, 2))
    exact = verify.outputs_as(model, Dynamics(), inputs)
    direction = rng.standard_normal(exact.shape)
    direction *= np.sqrt(np.mean(exact**2) / np.mean(direction**2))  # relative RMS 1
    inside = verify.check(model, Dynamics(), verify.OwnOutputs(inputs, exact + 0.99e-3 * direction))
    outside = verify.check(
        model, Dynamics(), verify.OwnOutputs(inputs, exact + 1.01e-3 * direction)
    )
    # relative to the outputs given (exact + δ), so within 1e-3 of the planted ratio
    assert inside.error == pytest.approx(0.99e-3, rel=1e-3) and inside.verified
    assert outside.error == pytest.approx(1.01e-3, rel=1e-3) and not outside.verified
    assert "not verified" in verify.check(model, Dynamics(), verify.OwnOutputs(inputs, None)).line()
