"""What of the paper reproduces, read at the paper's own unit: one trained solution.

Each claim of :func:`rnnschur.studies.paper.claims.paper_claims` asks of every learned model "does
this solution show the paper's reading?":

- a claim about one block's harm (``Claim.reads_block``) takes that model's own reading of
  the block (:mod:`rnnschur.studies.solutions`): a solution *shows* "harmful" when it reads
  *fragile*, "harmless" when it reads *stabilizer*; the opposite reading (or *improves*)
  does not show it, *undecided* is counted apart and does not show it either;
- any other claim (an ordering, a spread over α, a compound statistic) takes the model's
  statistic: it shows a ``greater`` claim when the statistic exceeds the bound by more than
  the claim's tie margin (a tie is not an ordering), a ``within`` claim when the statistic
  lies within ±bound;
- a solution whose block holds less Schur mass than the floor is *absent*: counted apart,
  never as showing or failing the claim.

k solutions of the n tested (learned, the block present) show it; the exact
(Clopper–Pearson) interval of k/n is reported beside it, and the word comes from k/n alone
(config ``solutions``): *reproduces* at k/n ≥ ``reproduces``, *does not reproduce* at k/n ≤
``does_not``, *partly* between, *untestable* where fewer solutions can be tested than config
``learned.min_models`` (a word needs as many solutions at every level).

How the words move with their settings (:func:`word_sensitivity`): θ and the mass floor each
halved and doubled, every solution's reading re-read from its harm interval and mass
(:func:`reread`), each claim's word again.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rnnschur.ablation import label
from rnnschur.io.text import table_lines
from rnnschur.studies.paper import reported as paper
from rnnschur.studies.paper.claim_tables import basis_cell, basis_line
from rnnschur.studies.paper.claim_tests import basis_blocks, claim_models, satisfies
from rnnschur.studies.paper.claims import DATA, IMPLIED, PAPER_ALPHA, TASK_NAMES, Claim, cell, value
from rnnschur.studies.profile import sensitivity
from rnnschur.studies.solutions import reading
from rnnschur.studies.stats import clopper_pearson
from rnnschur.studies.verdicts import Thresholds, Verdict

SHOWS, DOES_NOT_SHOW, UNDECIDED, ABSENT = "shows", "does not show", "undecided", "absent"
"""What one solution says of a claim."""

GLOSSARY = "`docs/glossary.md` of the repository"
"""Where a run's own table says its words are defined (it has no page to link from)."""

QUANTITY_NAMES = {"accuracy": "acc", "delta_fvu": "ΔFVU", "s_delta_t": "S_ΔT", "n_R": "n_R"}
"""How the one-screen table names the quantities the paper prints."""


def solution_shows(claim: Claim, rows: pd.DataFrame, threshold: float, mass_floor: float) -> str:
    """What one learned model (its ablation rows, with the ``reading`` column of
    :func:`rnnschur.ablation.evaluate_ablations`) says of ``claim`` (module docstring):
    :data:`SHOWS`, :data:`DOES_NOT_SHOW`, :data:`UNDECIDED` or :data:`ABSENT`."""
    if claim.block and not value(rows, claim.block, "mass_removed") >= mass_floor:
        return ABSENT
    if claim.reads_block:
        if "reading" not in rows:
            raise ValueError("the ablation table has no 'reading' column (rule ablate writes it)")
        word = Verdict(str(cell(rows, claim.block, "reading")))
        wanted = Verdict.STABILIZER if claim.kind == "within" else Verdict.FRAGILE
        if word == Verdict.UNDECIDED:
            return UNDECIDED
        return SHOWS if word == wanted else DOES_NOT_SHOW
    statistic = claim.statistic(rows)
    if np.isnan(statistic):
        return UNDECIDED
    if claim.kind == "greater":
        return SHOWS if statistic > claim.bound + (claim.margin or 0.0) else DOES_NOT_SHOW
    return SHOWS if satisfies(statistic, claim.kind, claim.bound) else DOES_NOT_SHOW


def basis_dependent(claim: Claim, seed: int, basis: pd.DataFrame | None) -> float:
    """1 if one of the claim's :func:`basis_blocks` reads *basis-dependent* in the solution of
    ``seed`` (``basis``: the claim's model's rows of ``basis_dependence_models.csv`` at one
    tolerance), 0 if none does or the claim reads no such block, NaN where the solution was not
    checked."""
    blocks = basis_blocks(claim)
    if not blocks:
        return 0.0
    if basis is None:
        return np.nan
    rows = basis[(basis["seed"] == seed) & basis["block"].isin(blocks)]
    if rows.empty:
        return np.nan
    return float((rows["reading"] == Verdict.BASIS_DEPENDENT).any())


def claim_word(k: int, n: int, reproduces: float, does_not: float, min_models: int) -> Verdict:
    """The word of a claim from k of n tested solutions showing it (config ``solutions``;
    ``min_models``: config ``learned.min_models``, the fewest tested solutions a word needs)."""
    if n < max(min_models, 1):
        return Verdict.UNTESTABLE
    if k / n >= reproduces:
        return Verdict.REPRODUCES
    return Verdict.DOES_NOT if k / n <= does_not else Verdict.PARTLY


def printed_value(claim: Claim, subset: str, quantity: str) -> str:
    """The paper's number for ``subset`` and ``quantity`` as the paper prints it where the
    claim reads it (its Table 1 where the claim is one of Table 1, else its first mention; its
    words where it gives no number), '—' where it reports nothing."""
    wanted = (claim.task, claim.construction, PAPER_ALPHA, subset, quantity)
    entries = [e for e in paper.REPORTED if (e[0], e[1], e[3], e[4], e[5]) == wanted]
    entries.sort(key=lambda e: not e[8].startswith(claim.source.split(" (")[0]))
    if not entries:
        return "—"
    number, note = entries[0][6], entries[0][8]
    if np.isnan(number):
        return note.split(": ", 1)[-1]
    if quantity == "n_R":
        return f"{number:.0f}"
    return "1.00" if claim.task == "copy" and number == 1.0 else f"{number:g}"


def _quantity(subset: str, quantity: str) -> str:
    name = QUANTITY_NAMES.get(quantity, quantity)
    return name if subset == "none" else f"{label(subset)} {name}"


def _spread(values: np.ndarray) -> str:
    """'median (min–max)' at three significant digits; the value alone for one solution."""
    values = values[np.isfinite(values)]
    if not len(values):
        return "—"
    if len(values) == 1 or values.min() == values.max():
        return f"{np.median(values):.3g}"
    return f"{np.median(values):.3g} ({values.min():.3g}–{values.max():.3g})"


def meaning(claim: Claim, models: list[pd.DataFrame]) -> str:
    """What the claim's ablations do in the task's own terms (the ablation table's
    ``functional`` column: bits or decisions right, the frequency's error), median over the
    solutions tested (``models``: each one's rows; those where the block is present, as the
    claim's own numbers), full model first: 'bit accuracy: full
    1.00, −T_CC 0.991'; '' where the task has no functional score or its score is one already
    (the copy task's accuracy)."""
    if not models or "functional" not in models[0] or claim.task == "copy":
        return ""
    names = pd.concat(models)["functional_score"].dropna().unique()
    if not len(names):
        return ""
    subsets = ["none", *dict.fromkeys(s for s, _ in claim.printed if s != "none")]
    parts = []
    for subset in subsets:
        values = [value(model, subset, "functional") for model in models]
        median = np.nanmedian(values) if np.isfinite(values).any() else np.nan
        parts.append(f"{'full' if subset == 'none' else label(subset)} {median:.3g}")
    return f"{names[0]}: {', '.join(parts)}"


def basis_note(claim: Claim, claims: list[Claim]) -> str:
    """'' for a claim about the data; 'true by construction', or 'implied by “<the other
    claim's words>”': what the one-screen table says beside a claim no network could fail."""
    if claim.basis == DATA:
        return ""
    if claim.basis.startswith(IMPLIED):
        other = claim.basis.removeprefix(IMPLIED)
        words = next((c.words for c in claims if c.claim_id == other), other)
        return f"implied by “{words}”"
    return "true by construction"


def claim_cell(r) -> str:
    """The claim in the paper's words, with its :func:`basis_note` where it has one."""
    note = getattr(r, "basis_note", "")
    return f"{r.claim} *({note})*" if isinstance(note, str) and note else r.claim


def reproduction(
    ablation: pd.DataFrame,
    claims: list[Claim],
    thresholds: Thresholds,
    words: dict,
    basis: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """One row per claim whose models the run trained: task, construction, N_h, the claim, its
    basis (:func:`rnnschur.studies.paper.claim_tables.basis_cell`), the paper's printed numbers
    and ours (per quantity, median and range over the solutions tested, those where the block
    is present; over every learned one where none is), the solutions learned, absent, tested,
    undecided and showing the claim (k of n), the Clopper–Pearson interval of k/n at the thresholds'
    ``level`` and the word (:func:`claim_word`, ``words``: config ``solutions`` with
    ``min_models``, config ``learned.min_models``); θ and the
    mass floor from ``thresholds``. ``basis``: ``basis_dependence_models.csv`` at one
    tolerance, where the run checked it; ``n_basis_dependent`` counts the solutions tested
    whose reading of a block the claim reads is basis-dependent (:func:`basis_dependent`), of
    the ``n_basis_checked`` that were checked (every one tested, for a claim that reads
    neither T_RR nor T_CC); ``basis_checked``: whether the run checked it at all."""
    out = []
    for claim in claims:
        n_hidden, rows = claim_models(ablation, claim)
        if rows.empty:
            continue
        own = None
        if basis is not None:
            same = (basis["task"] == claim.task) & (basis["construction"] == claim.construction)
            own = basis[same & (basis["n_hidden"] == n_hidden)]
        learned = rows[rows["learned"].astype(bool)] if "learned" in rows else rows
        models = [model for _, model in learned.groupby("seed", sort=True)]
        said = [
            solution_shows(claim, model, thresholds.threshold, thresholds.mass_floor)
            for model in models
        ]
        n_absent = said.count(ABSENT)
        n = len(said) - n_absent
        k = said.count(SHOWS)
        low, high = clopper_pearson(k, n, thresholds.level)
        tested = [m for m, says in zip(models, said, strict=True) if says != ABSENT] or models
        flags = [
            basis_dependent(claim, int(m["seed"].iloc[0]), own)
            for m, says in zip(models, said, strict=True)
            if says != ABSENT
        ]
        printed, ours = [], []
        for subset, quantity in claim.printed:
            values = np.array([value(model, subset, quantity) for model in tested], float)
            name = _quantity(subset, quantity)
            printed.append(f"{name} {printed_value(claim, subset, quantity)}")
            ours.append(f"{name} {_spread(values)}")
        out.append(
            {
                "meaning": meaning(claim, tested),  # the solutions that "ours" reads
                "claim_id": claim.claim_id,
                "task": claim.task,
                "construction": claim.construction,
                "n_hidden": n_hidden,
                "source": claim.source,
                "claim": claim.words,
                "basis": basis_cell(claim.basis),
                "basis_note": basis_note(claim, claims),
                "block": claim.block or "",
                "paper": "; ".join(printed) or "—",
                "ours": "; ".join(ours) or "—",
                "n_trained": rows["seed"].nunique(),
                "n_learned": len(said),
                "n_absent": n_absent,
                "n_tested": n,
                "n_undecided": said.count(UNDECIDED),
                "k": k,
                "cp_low": low,
                "cp_high": high,
                "word": claim_word(
                    k, n, words["reproduces"], words["does_not"], words["min_models"]
                ),
                "basis_checked": basis is not None,
                "n_basis_checked": int(np.isfinite(flags).sum()),
                "n_basis_dependent": int(np.nansum(flags)),
            }
        )
    return pd.DataFrame(out)


def reread(ablation: pd.DataFrame, threshold: float, mass_floor: float) -> pd.DataFrame:
    """``ablation`` (an ``ablation.csv`` table) with each row's ``reading`` made again at
    ``threshold`` and ``mass_floor`` from its harm interval (``harm_low``, ``harm_high``) and
    ``mass_removed`` (:func:`rnnschur.studies.solutions.reading`); the intact network's rows
    keep theirs."""
    intact = ablation["subset"] == "none"
    again = [
        reading(low, high, mass, threshold, mass_floor)
        for low, high, mass in zip(
            ablation["harm_low"], ablation["harm_high"], ablation["mass_removed"], strict=True
        )
    ]
    return ablation.assign(
        reading=ablation["reading"].where(intact, pd.Series(again, index=ablation.index))
    )


SENSITIVITY_KEYS = ["task", "claim_id"]
"""The columns that name a claim in the sensitivity table."""


def word_sensitivity(
    ablation: pd.DataFrame,
    make_claims,
    thresholds: Thresholds,
    words: dict,
    basis: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Each claim's word (:func:`reproduction`) as configured and with θ and the mass floor
    each halved and doubled (:func:`rnnschur.studies.profile.sensitivity`): every
    solution's reading re-read at the changed setting (:func:`reread`) and the claims made
    again at its θ (``make_claims(threshold)``). The basis flags stay those of the configured
    θ. One row per claim (:data:`SENSITIVITY_KEYS`), ``moves`` where a word differs."""

    def words_at(t: Thresholds) -> pd.DataFrame:
        again = reread(ablation, t.threshold, t.mass_floor)
        table = reproduction(again, make_claims(t.threshold), t, words, basis)
        if table.empty:  # a run of no model a claim is about (the atlas's)
            return pd.DataFrame(columns=[*SENSITIVITY_KEYS, "verdict"])
        return table.rename(columns={"word": "verdict"})

    return sensitivity(words_at, SENSITIVITY_KEYS, thresholds)


def task_cell(r) -> str:
    """'copy, dense orthogonal (N_h = 72)': the task and the model the claim is about."""
    name = f"{TASK_NAMES.get(r.task, r.task)}, {r.construction.replace('_', ' ')}"
    return f"{name} (N_h = {int(r.n_hidden)})"


def _meaning_cell(r) -> str:
    return r.meaning if isinstance(r.meaning, str) and r.meaning else "—"


def solutions_cell(r) -> str:
    """'k/n' of the solutions tested, with the absent and undecided ones named."""
    cell = f"{r.k}/{r.n_tested}"
    extra = [f"{r.n_learned} of {r.n_trained} learned"] if r.n_learned < r.n_trained else []
    extra += [f"{r.n_absent} absent"] if r.n_absent else []
    extra += [f"{r.n_undecided} undecided"] if r.n_undecided else []
    flagged, checked = getattr(r, "n_basis_dependent", 0), getattr(r, "n_basis_checked", 0)
    if flagged:
        of = f" of {checked} checked" if checked < r.n_tested else ""
        extra += [f"{flagged} basis-dependent{of}"]
    return cell + (f" ({', '.join(extra)})" if extra else "")


def rule_line(words: dict, glossary: str) -> str:
    """The word rule in one line, under every table that uses it (``glossary``: where the
    words are defined, as the page that shows the line can point to it)."""
    return (
        f"A claim *reproduces* when at least {words['reproduces']:.0%} of the solutions tested "
        f"(learned, the block present) show the paper's reading, *does not reproduce* at "
        f"{words['does_not']:.0%} or fewer, *partly* between; *untestable* with fewer than "
        f"{words['min_models']} tested. Words: {glossary}."
    )


def reproduction_markdown(
    table: pd.DataFrame,
    words: dict,
    glossary: str,
    level: float = 0.05,
    basis_tolerance: float | None = None,
) -> str:
    """The one-screen table of one run: task, claim, the paper's printed numbers, ours
    (median and range over solutions), k/n solutions, the exact interval and the word, with
    the rule under it (``glossary``: where the words are defined) and, where the run checked
    the basis dependence at ``basis_tolerance``, what *basis-dependent* means."""
    header = ["task", "claim", "the paper prints", "ours: median (range)"]
    header += ["what it means (median)", "solutions showing it"]
    header += [f"{1 - level:.0%} interval of k/n", "word"]
    rows = [
        [
            task_cell(r),
            claim_cell(r),
            r.paper,
            r.ours,
            _meaning_cell(r),
            solutions_cell(r),
            "—" if np.isnan(r.cp_low) else f"{r.cp_low:.2f}–{r.cp_high:.2f}",
            f"**{r.word}**",
        ]
        for r in table.itertuples(index=False)
    ]
    lines = table_lines(header, rows)
    rules = rule_line(words, glossary)
    if basis_tolerance is not None:
        rules += " " + basis_line(basis_tolerance)
    return "\n".join(lines) + "\n\n" + rules + "\n"
