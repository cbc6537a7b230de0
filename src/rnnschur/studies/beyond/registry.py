"""The beyond-the-paper analyses: the registry from which the workflow derives their rules.

An analysis ``<name>`` (a key of :data:`ANALYSES`) is, by convention:

- one job per model, rule ``<name>``, script ``workflow/scripts/<name>.py``, reading the model
  files its entry names (``reads``) and writing ``beyond/<name>/<model>.csv``;
- their tidy table over models, ``tables/<name>.csv`` (rule ``collect_beyond``);
- a summary over seeds, ``summaries.<name>(table, settings)``, written by rule
  ``<name>_summary`` to ``tables/<name>_summary.{csv,md}`` and, for every further table it
  returns, ``tables/<name>_<key>.csv``;
- a figure, ``figures.fig_<name>(table)``, drawn by rule ``fig_<name>`` from the table
  its entry names (``figure_reads``) to ``figures/fig_<name>.{pdf,png}``;
- its settings, the config key ``<name>`` (an object; ``{}`` where it has none).

Adding one means: its library function, its rule script, a summary and a figure function, an
entry here, and its config key in the schema. This module imports nothing heavy: the workflow
reads it when it builds its rules.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Analysis:
    """What the workflow needs to know of one analysis.

    reads : the per-model files its job reads, of ``weights``, ``schur``, ``heldout``,
        ``checkpoints``.
    uses : the shared settings its job reads besides its own, of ``alpha``, ``ablation``
        (epsilon, mass floor, scored steps), ``base_seed``, ``stream`` (the task's random
        stream), ``generator`` and ``checkpoints`` (the task's), so that a change to another
        reruns nothing.
    tables : further tables its summary returns besides ``summary``.
    figure_reads : the table its figure draws: ``""`` for ``tables/<name>.csv``, else the key of
        one of ``tables``.
    summary_uses : the shared settings its summary reads besides its own, of ``verdicts``
        (the thresholds and the mass floor), ``learned`` (each task's criterion) and
        ``min_models``.
    mem_mb, runtime : resources of one job (MB, minutes).
    summary_caption, figure_caption : the report's captions.
    """

    reads: tuple[str, ...]
    uses: tuple[str, ...]
    mem_mb: int
    runtime: int
    summary_caption: str
    figure_caption: str
    tables: tuple[str, ...] = ()
    figure_reads: str = ""
    summary_uses: tuple[str, ...] = ()


ANALYSES = {
    "checkpoint_ablation": Analysis(
        reads=("checkpoints", "heldout"),
        uses=("alpha", "ablation", "checkpoints", "schur_split"),
        mem_mb=1000,
        runtime=10,
        summary_caption=(
            "Ablations along training, summary (beyond the paper): per task, construction and "
            "milestone, the mean step at which the seeds of the largest N_h first reached it and "
            "the mean held-out score of the full network and of each single-block ablation there."
        ),
        figure_caption=(
            "Ablations along training (beyond the paper). Held-out score of every ablation set on "
            "checkpoints of each run (initialisation, the first checkpoint reaching each "
            "configured milestone of the validation score, and the last one) against the training "
            "step; one line per seed of the largest N_h, one panel per task and construction. The "
            "paper shows one stopping point only."
        ),
    ),
    "subspace_control": Analysis(
        reads=("weights", "schur", "heldout"),
        uses=("alpha", "ablation", "base_seed", "stream"),
        mem_mb=2000,
        runtime=20,
        tables=("verdicts",),
        figure_reads="verdicts",
        summary_caption=(
            "Subspace control summary (beyond the paper): per task, construction, ablation set, "
            "subspace and side, the mean overlap of ΔW (and the chance level dim/N_h), the mean "
            "harm of the ablation and of its controls (matched overlap, inside the subspace, in "
            "its complement), and in how many models the ablation's harm is within the configured "
            "factor of its overlap-matched controls ('explained'); per model in "
            "subspace_control_verdicts.csv."
        ),
        figure_caption=(
            "Subspace control (beyond the paper). For each single-block Schur ablation of each "
            "model of the largest N_h (coloured by construction, marker by block): the harm "
            "(accuracy lost, or FVU gained) against the share of ‖ΔW‖²_F on a subspace: the top "
            "principal components of the held-out hidden states, the fewest components reaching "
            "the configured variance, and the readout row space of W_hy; input side ΔW P and "
            "output side P ΔW. Grey crosses: mean harm of random perturbations with the same norm "
            "and the same overlap (joined to their ablation); grey dots at overlap 1 and 0: "
            "perturbations of the same norm confined to the subspace or to its complement."
        ),
    ),
    "readout_refit": Analysis(
        reads=("weights", "schur", "heldout", "fitting"),
        uses=("alpha", "ablation", "base_seed", "stream"),
        mem_mb=2000,
        runtime=10,
        summary_caption=(
            "Readout refit summary (beyond the paper): held-out score with the fixed and with the "
            "refit ridge readout per task, construction and ablation set, mean and SEM over the "
            "seeds of the largest N_h."
        ),
        figure_caption=(
            "Readout refit (beyond the paper). Held-out score of every ablation set with the "
            "original readout W_hy (filled) and with a ridge readout refit on the ablated "
            "network's hidden states (open; regularisation chosen on a validation split of a "
            "separate fitting set), mean over the seeds of the largest N_h. A refit that recovers "
            "the score means the perturbed dynamics still hold the task."
        ),
    ),
    "fixed_points": Analysis(
        reads=("weights", "schur", "heldout"),
        uses=("alpha", "generator", "ablation"),
        mem_mb=1000,
        runtime=15,
        tables=("fates",),
        summary_uses=("learned",),
        summary_caption=(
            "Fixed points (beyond the paper), per task, construction, N_h, input condition and "
            "coupling block removed at α, over the learned models of each: the median number of "
            "stable points intact and ablated, and in how many solutions the removal keeps every "
            "stable point, moves one (the nearest ablated stable point lies farther than "
            "fixed_points.match but reads out the same signs) or loses one; for the sine task the "
            "median oscillation frequency against the cued one; the attractors the free run "
            "settles on (points, period-k cycles up to fixed_points.max_period, oscillations) "
            "and in how many solutions the removal keeps them all; the flip-flop's transitions "
            "between attractors kept, of all; the copy task's replay orbits kept, of all."
        ),
        figure_caption=(
            "Fixed points (beyond the paper). One model per task (the first learned seed of the "
            "largest N_h): its held-out trajectories (grey) in their top two principal "
            "components, with the stable points (filled), saddles (crosses), cycles (diamonds "
            "joined) and oscillations (a line) found under zero input, intact and with each "
            "coupling block removed at α, each network with its own trajectories; a second "
            "solution where its attractors differ."
        ),
    ),
    "basis_dependence": Analysis(
        reads=("weights", "schur", "heldout"),
        uses=("alpha", "ablation", "base_seed"),
        mem_mb=2000,
        runtime=10,
        tables=("models",),
        figure_reads="models",
        summary_uses=("verdicts", "learned"),
        summary_caption=(
            "Basis dependence (beyond the paper): per task, construction, N_h, tolerance and "
            "block (T_RR, T_CC), over the learned models: how many hold less than the mass floor "
            "of it (absent) and how many are basis-dependent, their T_RR or T_CC harm share "
            "spreading by more than θ over random orders of the diagonal blocks whose moduli lie "
            "within the tolerance (relative to ρ) of each other; the median and largest spread."
        ),
        figure_caption=(
            "Basis dependence (beyond the paper). Per learned model (x), the harm share of "
            "removing T_RR and T_CC in the canonical order of the moduli (dot) and its range "
            "over random orders of the near-equal moduli (bar), at each tolerance; the band "
            "±θ about the canonical value: a bar beyond it is basis-dependent."
        ),
    ),
    "basis_sensitivity": Analysis(
        # the held-out set only for io.load_model's checks (the weights' digest among them)
        reads=("weights", "schur", "heldout"),
        uses=("alpha", "base_seed"),
        mem_mb=1000,
        runtime=10,
        summary_caption=(
            "Basis sensitivity summary (beyond the paper): medians over seeds of κ(V), Henrici's "
            "departure from normality, ‖N‖_F/‖T‖_F, the eigen-vs-Schur difference of the −T_C→R "
            "ablation, and the amplification of a 1e-8 perturbation of W through the eigen and the "
            "Schur routes."
        ),
        figure_caption=(
            "Schur against eigen coordinates (beyond the paper). (a) Condition number of the "
            "eigenvector matrix against Henrici's departure from normality, one point per trained "
            "W. (b) Amplification of a random 1e-8 relative perturbation of W through the −T_C→R "
            "ablation computed in eigen coordinates (orthogonalising the C eigenvectors against "
            "the R eigenspace) and in Schur coordinates; the two are the same map in exact "
            "arithmetic. (c) The Schur route's amplification for every ablation set. (d) "
            "Difference of the two routes at the unperturbed W against the condition number."
        ),
    ),
    "dose_response": Analysis(
        reads=("weights", "schur", "heldout", "fitting"),
        uses=("alpha", "ablation", "base_seed"),
        summary_uses=("verdicts", "learned", "min_models"),
        mem_mb=2000,
        runtime=30,
        tables=("curves",),
        figure_reads="curves",
        summary_caption=(
            "Dose-response summary (beyond the paper): per task, construction, N_h and coupling "
            "block, the excess harm of removing a fraction ε of the block over random "
            "perturbations of the same Frobenius norm that keep every eigenvalue (mean over the "
            "ε grid of the block's harm share minus the spectrum-keeping controls' mean; per "
            "seed, then over seeds with its t interval and "
            "minimum detectable effect), its verdict (load-bearing, a symmetry direction, like "
            "any perturbation of its size, or undecided), the excess over each control kind "
            "and its operator norm over the block's (the other couplings matched in operator "
            "norm too, reported, not judged), ε₅₀ of the block and of the controls, and the "
            "share of the harm at full removal that a refit readout recovers."
        ),
        figure_caption=(
            "Dose-response (beyond the paper). Harm share against the fraction ε of the block "
            "removed (T − ε ΔT_S), one panel per task and block, mean over the learned seeds of "
            "the first construction at the largest N_h; grey: the 5–95 % band of random "
            "perturbations of the same norm that keep every eigenvalue (other couplings "
            "zeroed; the block with its singular vectors drawn at random), their mean dashed. "
            "A block curve above the band carries "
            "the task; below it, a direction the task does not see."
        ),
    ),
}
