"""rnnschur: ordered real Schur ablations of trained tanh RNNs (arXiv 2606.18457).

``rnnschur.analyse(model, heldout, network, ...)`` runs the paper's analysis on a network
trained elsewhere (:mod:`rnnschur.external.api`), described by a ``rnnschur.Network``
(:class:`rnnschur.external.verify.Network`); both are imported on first use, so that
``import rnnschur`` alone loads nothing.
"""

__version__ = "0.5.0"


def __getattr__(name: str):
    if name == "analyse":
        from rnnschur.external.api import analyse

        return analyse
    if name == "Network":
        from rnnschur.external.verify import Network

        return Network
    raise AttributeError(f"module 'rnnschur' has no attribute {name!r}")
