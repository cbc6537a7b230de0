"""rnnschur: ordered real Schur ablations of trained tanh RNNs (arXiv 2606.18457)."""

__version__ = "0.5.0"
