"""The claims tested over seeds (:mod:`rnnschur.studies.paper.claim_tests`) as Markdown: the
claims table, a claim × variation (or N_h) grid, and the cells they share with the pages."""

from __future__ import annotations

import numpy as np
import pandas as pd

from rnnschur.io.text import table_lines
from rnnschur.studies.paper.claims import DATA, IMPLIED, TASK_NAMES
from rnnschur.studies.verdicts import Verdict


def basis_line(tolerance: float) -> str:
    """What *basis-dependent* beside a count of solutions means, at the ``tolerance`` the run
    checked."""
    return (
        f"A solution (seed) counted *basis-dependent*: removing its T_RR or T_CC alone at α "
        f"moves the harm by more than θ between random orders of its Schur modes whose moduli "
        f"lie within {tolerance:g}·ρ of each other, an order nothing in the network fixes; it "
        f"is counted as it reads in the canonical order (whether that order moves the claim's "
        f"own number is not checked)."
    )


def claims_grid_markdown(table: pd.DataFrame, column: str, basis: bool = False) -> str:
    """Claim × each value of ``column`` (a variation, an N_h): seeds agreeing and the verdict
    (— where that value does not train the claim's task). With ``basis`` (a study's own ledger,
    as the scale study's claims per N_h), a column says which claims are true by construction
    or implied by another where any is, as the claims table does: a claim whose basis differs
    between values of ``column`` takes a row per basis, side by side."""
    values = list(dict.fromkeys(table[column]))
    names = {"n_hidden": "N_h = {}"}
    with_basis = basis and bool(table["basis"].ne(DATA).any())
    header = ["claim", *(["basis"] if with_basis else [])]
    header += [names.get(column, "{}").format(v) for v in values]
    body = []
    order = {claim: k for k, claim in enumerate(dict.fromkeys(table["claim"]))}
    keys = ["claim", "basis"] if with_basis else ["claim"]
    groups = table.groupby(keys, sort=False)
    for key, rows in sorted(groups, key=lambda group: order[group[0][0]]):
        cell = {
            getattr(r, column): f"{r.n_agree}/{r.n_seeds} {r.verdict}"
            + (f" ({r.n_learned}/{r.n_trained} learned)" if r.n_learned < r.n_trained else "")
            for r in rows.itertuples()
        }
        first = [key[0], *([basis_cell(key[1])] if with_basis else [])]
        body.append(first + [cell.get(v, "—") for v in values])
    return "\n".join(table_lines(header, body)) + "\n"


def basis_cell(basis: str) -> str:
    """'data', 'by construction' or 'implied' (the note under the table says by which claim)."""
    if basis.startswith(IMPLIED):
        return IMPLIED.strip()
    return "data" if basis == DATA else basis.split(":")[0]


def paper_cell(r) -> str:
    """The paper's value of a claim's statistic and its agreement, e.g. '8.78: differs (0.066×)'
    or '0.0498: agrees'; '—' where the paper gives no number. Where it differs from our mean
    yet lies among our seeds' own values (the paper reads single solutions), it says so: '0.722:
    differs (1.2×), within our seeds' range'."""
    if not np.isfinite(r.paper_value):
        return "—"
    if r.agreement not in (Verdict.AGREES, Verdict.DIFFERS):
        return f"{r.paper_value:.3g}"  # fewer than two seeds: no interval to set it beside
    cell = f"{r.paper_value:.3g}: {r.agreement}"
    if r.agreement == Verdict.DIFFERS and np.isfinite(r.paper_factor):
        cell += f" ({r.paper_factor:.2g}×)"
    # the seeds' range (none in a claims table made before 0.6)
    low, high = getattr(r, "seed_min", np.nan), getattr(r, "seed_max", np.nan)
    if r.agreement == Verdict.DIFFERS and low <= r.paper_value <= high:
        cell += ", within our seeds' range"
    return cell


def claims_markdown(table: pd.DataFrame, basis_tolerance: float | None = None) -> str:
    """The claims table as Markdown: claim, basis, statistic, per-seed values, models learned
    of trained, agreement, interval, its minimum detectable effect, the paper's value and its
    agreement, sign test and verdict, with the seeds whose reading is basis-dependent beside
    it (and, where any is, what that means at ``basis_tolerance``, the run's largest). The
    claims of tasks the run does not train are named in one line below the table, not as
    rows."""
    header = ["task", "claim", "basis", "source", "N_h", "statistic", "per seed", "learned"]
    header += ["agree", "mean [interval]", "MDE", "paper", "sign p", "verdict"]
    rows = []
    tested = table[table["n_trained"] > 0]
    for r in tested.itertuples(index=False):
        seeds = ", ".join(f"{v:.3g}" for v in r.per_seed.values()) or "—"
        interval = "—" if np.isnan(r.mean) else f"{r.mean:.3g}"
        if np.isfinite(r.ci_low):
            interval += f" [{r.ci_low:.3g}, {r.ci_high:.3g}]"
        bound = f" {'>' if r.kind == 'greater' else 'within ±'} {r.bound:g}"
        minimum = f"{r.mde:.2g}" if np.isfinite(r.mde) else "—"
        rows.append(
            [
                TASK_NAMES.get(r.task, r.task),
                r.claim,
                basis_cell(r.basis),
                r.source,
                int(r.n_hidden),
                f"{r.statistic}{bound}",
                seeds,
                f"{r.n_learned}/{r.n_trained}",
                f"{r.n_agree}/{r.n_seeds}",
                interval,
                minimum,
                paper_cell(r),
                f"{r.sign_test_p:.3g}",
                f"**{r.verdict}**{_basis_seeds(r)}",
            ]
        )
    lines = table_lines(header, rows)
    untested = table[table["n_trained"] == 0]
    if len(untested):
        tasks = ", ".join(TASK_NAMES.get(t, t) for t in dict.fromkeys(untested["task"]))
        lines += [
            "",
            f"Not tested here ({len(untested)} claims): this run trains no {tasks} model.",
        ]
    flagged = getattr(tested, "n_basis_dependent", pd.Series(dtype=int)).fillna(0) > 0
    checked = getattr(tested, "n_basis_checked", pd.Series(dtype=int)).fillna(0) > 0
    if flagged.any() and basis_tolerance is not None:
        lines += ["", basis_line(basis_tolerance)]
    elif len(tested) and not checked.any():
        lines += [
            "",
            "This run did not check the basis dependence (beyond analysis `basis_dependence`): "
            "no seed is marked basis-dependent, which says nothing of whether one is.",
        ]
    words = dict(zip(table["claim_id"], table["claim"], strict=True))
    notes = tested[tested["basis"] != DATA].drop_duplicates("basis")
    if len(notes):
        lines += [
            "",
            *(f"- {r.claim}: {_basis_words(r.basis, words)}." for r in notes.itertuples()),
        ]
    return "\n".join(lines) + "\n"


def _basis_seeds(r) -> str:
    """' (2 of 10 seeds basis-dependent)' beside a verdict where any is; '' otherwise (and in a
    claims table made before the flag)."""
    flagged = getattr(r, "n_basis_dependent", 0)
    if not flagged or pd.isna(flagged):
        return ""
    return f" ({int(flagged)} of {int(r.n_basis_checked)} seeds basis-dependent)"


def _basis_words(basis: str, words: dict[str, str]) -> str:
    """A claim's basis with the claim it is implied by named in its words, not its id."""
    if basis.startswith(IMPLIED):
        return f"implied by «{words.get(basis[len(IMPLIED) :], basis[len(IMPLIED) :])}»"
    return basis
