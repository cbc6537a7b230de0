"""A user's own trained network: its arrays (:mod:`.arrays`), a torch state_dict or module
(:mod:`.convert`, :mod:`.torch_module`), its held-out set (:mod:`.heldout`), the proof that the
rollout reproduces it (:mod:`.verify`) and the analysis (:mod:`.analysis`; for notebooks
:func:`rnnschur.analyse`, :mod:`.api`). Nothing is imported with the package: torch only when a
torch file or module is read."""

OUTPUT_NAMES = (
    "schur.npz",
    "ablation.csv",
    "spectrum.csv",
    "verdicts.csv",
    "subspace_control.csv",
    "verification.json",
    "summary.md",
    "summary.html",
    "profile.pdf",
    "profile.png",
)
"""The files an analysis of one model writes (:meth:`rnnschur.external.analysis.Result.save`;
the workflow's rule ``external_analyse`` declares them from here), and ``readout_refit.csv``
with a fitting set (:data:`OPTIONAL_NAMES`)."""
OPTIONAL_NAMES = ("readout_refit.csv",)
