"""The networks of the field this project checked against their own code (:data:`CATALOGUE`),
and every description there is (:func:`every_description`), the candidates a model's own
outputs are matched against (:mod:`rnnschur.external.verify`). Each is a
:class:`rnnschur.network.dynamics.Dynamics` without its leak.
"""

from __future__ import annotations

from dataclasses import dataclass

from rnnschur.network.dynamics import KINDS, NONLINEARITIES, READOUTS, TIMINGS, Dynamics


@dataclass(frozen=True)
class CatalogueEntry:
    """A network of the field as a description without its leak (:meth:`with_leak` adds it):
    the update, φ, the readout and the timing, and the code it was checked against."""

    name: str
    kind: str
    nonlinearity: str
    readout: str
    timing: str
    source: str

    def with_leak(self, leak: float = 1.0) -> Dynamics:
        """The description this entry is at leak a.

        Parameters
        ----------
        leak : float
            a = dt/τ ∈ (0, 1] of the update (1: no leak).

        Returns
        -------
        Dynamics
            The entry's update, φ, readout and timing with that leak.
        """
        return Dynamics(self.kind, leak, self.nonlinearity, self.readout, self.timing)


CATALOGUE = (
    CatalogueEntry(
        "paper",
        "discrete",
        "tanh",
        "rate",
        "after",
        "the paper's eqs. (1-2): h_t = tanh(W_xh x_t + W_hh h_{t-1}), y_t = W_hy h_t",
    ),
    CatalogueEntry(
        "torch_rnn",
        "discrete",
        "tanh",
        "rate",
        "after",
        "torch.nn.RNN (h_t = tanh(W_ih x_t + b_ih + W_hh h_{t-1} + b_hh), its output h_t) "
        "with an nn.Linear readout; nonlinearity='relu' gives discrete relu",
    ),
    CatalogueEntry(
        "neurogym_ctrnn",
        "leaky",
        "relu",
        "rate",
        "after",
        "the CTRNN of the NeuroGym and Neuromatch tutorials (input2h, h2h: h = (1 - alpha) h "
        "+ alpha relu(input2h(x) + h2h(h)), alpha = dt/tau; fc reads the new h)",
    ),
    CatalogueEntry(
        "schuessler_rnn_net",
        "leaky_current",
        "tanh",
        "state",
        "before",
        "Schuessler et al. 2024, frschu/aligned_oblique_in_rnns notebooks/rnn_model_dt.py, "
        "RNN_Net.rnn_forward: h = (1 - dt) h + dt (W_hh tanh(h) + W_ih x), the state recorded "
        "before each step's update and read by the linear decoder (dt < 1)",
    ),
    CatalogueEntry(
        "psychrnn_basic",
        "leaky_current",
        "relu",
        "rate",
        "after",
        "PsychRNN's Basic model, murraylab/PsychRNN psychrnn/backend/models/basic.py: state = "
        "(1 - alpha) state + alpha (relu(state) W_rec^T + x W_in^T + b_rec), output = "
        "relu(state) W_out^T + b_out after each update",
    ),
    CatalogueEntry(
        "nn4n_ctrnn",
        "leaky_current",
        "relu",
        "rate",
        "after",
        "nn4n 1.1's CTRNN (PyPI nn4n, nn4n/layer/recurrent_layer.py): v = (1 - alpha) v + alpha "
        "(hidden_layer(relu(v)) + input_layer(u)), alpha = dt/tau, readout_layer reads relu(v) "
        "after each update; the form of PsychRNN's Basic, with two biases to sum (b_h = "
        "input_layer.bias + hidden_layer.bias). Its state_dict does not store dt and tau; "
        "its save file does (kwargs)",
    ),
)
"""The networks of the field this project checked against their own code."""


def every_description() -> tuple[CatalogueEntry, ...]:
    """Every update × φ × readout × timing there is, each named after the catalogue's entry it
    equals where one does (the first: ``paper`` before ``torch_rnn``).

    Returns
    -------
    tuple of CatalogueEntry
        24 entries: 3 updates × 3 φ × 2 timings, the ``leaky_current`` update also with a
        ``state`` readout; unnamed ones have ``name`` "".
    """
    named = {}
    for entry in CATALOGUE:
        named.setdefault((entry.kind, entry.nonlinearity, entry.readout, entry.timing), entry)
    out = []
    for kind in KINDS:
        for nonlinearity in NONLINEARITIES:
            for readout in READOUTS if kind == "leaky_current" else ("rate",):
                for timing in TIMINGS:
                    key = (kind, nonlinearity, readout, timing)
                    out.append(named.get(key) or CatalogueEntry("", *key, ""))
    return tuple(out)


def catalogue_name(dynamics: Dynamics) -> str | None:
    """The name of the catalogue's first entry ``dynamics`` is (any leak).

    Parameters
    ----------
    dynamics : Dynamics
        A network's description.

    Returns
    -------
    str or None
        The entry's name, None where the catalogue has no entry of that form.
    """
    names = catalogue_names(dynamics)
    return names[0] if names else None


def catalogue_names(dynamics: Dynamics) -> tuple[str, ...]:
    """Every catalogue entry of the form ``dynamics`` is (any leak): PsychRNN's Basic and nn4n's
    CTRNN share one.

    Parameters
    ----------
    dynamics : Dynamics
        A network's description.

    Returns
    -------
    tuple of str
        The entries' names in catalogue order (empty: none).
    """
    key = (dynamics.kind, dynamics.nonlinearity, dynamics.readout, dynamics.timing)
    return tuple(
        entry.name
        for entry in CATALOGUE
        if (entry.kind, entry.nonlinearity, entry.readout, entry.timing) == key
    )
