"""A user's own trained network: read into one :class:`rnnschur.Network` (:mod:`.reading`) from
its arrays (:mod:`.arrays`), a torch state_dict or module (:mod:`.convert`,
:mod:`.torch_module`), a Keras or Flax file; its held-out set (:mod:`.heldout`), the proof that the
rollout reproduces it (:mod:`.verify`), its score as a task (:mod:`.task`), the settings
(:mod:`.settings`), the analysis and its result (:mod:`.analysis`; for notebooks
:func:`rnnschur.analyse`, :mod:`.api`) and the result's prose (:mod:`.summary`). Nothing is
imported with the package: torch only when a torch file or module is read."""

TABLE_NAMES = (
    "schur.npz",
    "ablation.csv",
    "spectrum.csv",
    "verdicts.csv",
    "subspace_control.csv",
    "verification.json",
    "analysis.json",
)
"""What the analysis of one model computes (the workflow's job ``external_tables``, from the
per-model rules' files; :meth:`rnnschur.external.result.Result.save_tables`)."""
FIGURE_NAMES = ("profile.pdf", "profile.png")
"""Its profile figure, drawn from ``ablation.csv`` (job ``external_profile``)."""
SUMMARY_NAMES = ("summary.md", "summary.html")
"""Its summaries, from the tables and the figure (job ``external_summary``)."""
OUTPUT_NAMES = TABLE_NAMES + FIGURE_NAMES + SUMMARY_NAMES
"""Every file an analysis of one model writes (:meth:`rnnschur.external.result.Result.save`;
the workflow's rules declare theirs from the three lists above), ``readout_refit.csv`` with
a fitting set and ``fixed_points.csv`` when asked for (:data:`OPTIONAL_NAMES`)."""
OPTIONAL_NAMES = ("readout_refit.csv", "fixed_points.csv")
