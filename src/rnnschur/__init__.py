"""rnnschur: ordered real Schur ablations of trained tanh RNNs (arXiv 2606.18457).

``rnnschur.analyse(model, heldout, description, ...)`` runs the paper's analysis on a network
trained elsewhere (:mod:`rnnschur.external.api`); ``rnnschur.Network`` is one network (its
weights, offsets and how it computes, :class:`rnnschur.network.Network`) and
``rnnschur.Description`` how its user describes the computation, fields left open
(:class:`rnnschur.network.dynamics.Description`). They are imported on first use, so that
``import rnnschur`` alone loads nothing.
"""

__version__ = "0.9.0"


def __getattr__(name: str):
    if name == "analyse":
        from rnnschur.external.api import analyse

        return analyse
    if name == "Network":
        from rnnschur.network import Network

        return Network
    if name == "Description":
        from rnnschur.network.dynamics import Description

        return Description
    raise AttributeError(f"module 'rnnschur' has no attribute {name!r}")
