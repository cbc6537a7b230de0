"""The one screen's sentences and the runs' one-screen tables side by side, from the
reproduction and confirmation tables (:mod:`rnnschur.studies.paper.reproduction`,
:mod:`rnnschur.studies.paper.confirmation`): README's first screen and docs/paper.md."""

from __future__ import annotations

import re

import pandas as pd

from rnnschur.ablation import label
from rnnschur.io.text import and_list
from rnnschur.studies.paper.claims import TASK_NAMES
from rnnschur.studies.paper.confirmation import CLAIM_WORDS
from rnnschur.studies.paper.reproduction import (
    DATA,
    _meaning_cell,
    claim_cell,
    solutions_cell,
    task_cell,
)
from rnnschur.studies.verdicts import Verdict


def claim_name(r) -> str:
    """'sine's “−T_RR changes little”' (the claim up to its first colon or parenthesis)."""
    return f"{TASK_NAMES.get(r.task, r.task)}'s “{_short(r)}”"


PLURAL = {
    Verdict.REPRODUCES: ("reproduces", "reproduce"),
    Verdict.PARTLY: ("reproduces partly", "reproduce partly"),
    Verdict.DOES_NOT: ("does not reproduce", "do not reproduce"),
    Verdict.UNTESTABLE: ("is untestable", "are untestable"),
}
"""A claim word as the verb of one claim and of several."""


WORD_ORDER = (Verdict.REPRODUCES, Verdict.PARTLY, Verdict.DOES_NOT, Verdict.UNTESTABLE)
"""The claim words from the paper's side to the other, as :func:`per_task` lists them."""


def per_task(table: pd.DataFrame, run: str) -> str:
    """One line per task of a run's one-screen table (``run``: its name): how many of its
    claims reproduce (those true by construction or implied by another counted apart), then
    each claim that does not fully, named, with its word, k/n and the solutions where its block
    is absent."""
    lines = [f"**Per task, at {run}:**"]
    for task, rows in table.groupby("task", sort=False):
        full = rows[rows["word"] == Verdict.REPRODUCES]
        bound = full[full["basis"] != DATA] if "basis" in full else full.iloc[:0]
        claims = "claim" if len(rows) == 1 else "claims"
        head = f"{len(full)} of {len(rows)} {claims} {PLURAL[Verdict.REPRODUCES][len(full) != 1]}"
        if len(bound):
            head += f" ({len(bound)} by construction or implied)"
        if 0 < len(full) <= 2:  # few: named, as the others are
            head += ": " + and_list(
                [f"“{_short(r)}” ({r.k}/{r.n_tested})" for r in full.itertuples()]
            )
        rest = []
        for word in WORD_ORDER[1:]:
            named = []
            for r in rows[rows["word"] == word].itertuples(index=False):
                absent = f", {_block_name(r)} absent in {r.n_absent}" if r.n_absent else ""
                named.append(f"“{_short(r)}” ({r.k}/{r.n_tested}{absent})")
            if named:
                rest.append(f"{word}: {and_list(named)}")
        text = head + ("; " + "; ".join(rest) if rest else "")
        lines.append(f"- **{TASK_NAMES.get(task, task)}**: {text}.")
    return "\n".join(lines)


def _short(r) -> str:
    """A claim's words up to its first colon or parenthesis."""
    return re.split(r": | \(", r.claim)[0]


def _block_name(r) -> str:
    """The claim's block as the paper names it ('T_C→R'), or 'the block'."""
    block = getattr(r, "block", "")
    return label(block).removeprefix("−") if isinstance(block, str) and block else "the block"


def side_by_side(tables: dict[str, pd.DataFrame]) -> str:
    """Several runs' one-screen tables as one (``tables``: run name → :func:`reproduction`
    table): task and claim, the paper's printed numbers, and per run a group of columns
    (ours, solutions showing it, word); '—' where a run has no row for the claim."""
    runs = list(tables)
    ids = list(dict.fromkeys(i for t in tables.values() for i in t["claim_id"]))
    rows = {run: {r.claim_id: r for r in t.itertuples(index=False)} for run, t in tables.items()}
    head = "| task, model | claim | the paper prints |"
    head += "".join(
        f" {run}: ours, median (range) | {run}: solutions showing it | {run}: word |"
        for run in runs
    )
    lines = [head, "|" + "---|" * (3 + 3 * len(runs))]
    for claim_id in ids:
        first = next(rows[run][claim_id] for run in runs if claim_id in rows[run])
        cells = [task_cell(first), claim_cell(first), first.paper]
        for run in runs:
            r = rows[run].get(claim_id)
            if r is None:
                cells += ["—", "—", "—"]
                continue
            ours = r.ours if _meaning_cell(r) == "—" else f"{r.ours}; {r.meaning}"
            cells += [ours, solutions_cell(r), f"**{r.word}**"]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(lines) + "\n"


def lead(tables: dict[str, pd.DataFrame]) -> str:
    """At most five sentences from the numbers of several runs' one-screen tables: per run,
    how many claims take each word (those that reproduce whatever the networks do, by
    construction or implied by another claim, named apart); the claims that do not reproduce
    in any run that tests them; and the blocks absent in most solutions of a run."""
    sentences = []
    for run, t in tables.items():
        counts = t["word"].value_counts()
        parts = [
            f"{counts[w]} {verbs[int(counts[w] > 1)]}" for w, verbs in PLURAL.items() if w in counts
        ]
        bound = t[(t["word"] == Verdict.REPRODUCES) & (t.get("basis", DATA) != DATA)]
        if len(bound) and parts:  # claims no network could fail: counted apart
            parts[0] += f" ({len(bound)} of them true by construction or implied by another claim)"
        sentences.append(f"Of the {len(t)} claims read at {run}, {and_list(parts)}.")
    both = pd.concat(tables.values())
    tested = both[both["word"] != Verdict.UNTESTABLE]
    shown = set(tested.loc[tested["word"] != Verdict.DOES_NOT, "claim_id"])
    never = tested[~tested["claim_id"].isin(shown)].drop_duplicates("claim_id")
    if len(never):
        names = [claim_name(r) for r in never.itertuples(index=False)]
        sentences.append(f"No run reproduces {and_list(names)}.")
    absent = both[both["n_absent"] > both["n_learned"] / 2]
    if len(absent):
        worst = absent.sort_values("n_learned").drop_duplicates("claim_id", keep="last")
        names = [
            f"{_block_name(r)} in {r.n_absent} of {r.n_learned} solutions for {claim_name(r)}"
            for r in worst.itertuples(index=False)
        ]
        sentences.append(f"Absent (below the mass floor): {and_list(names)}.")
    return " ".join(sentences[:5])


def _direction(fresh: str, predicted: str) -> str:
    """'nearer the paper' where the fresh word sits on the paper's side of the predicted one,
    'further from the paper' on the other, 'another word' where one of them is untestable."""
    if fresh not in CLAIM_WORDS or predicted not in CLAIM_WORDS:
        return "another word"
    nearer = CLAIM_WORDS.index(fresh) < CLAIM_WORDS.index(predicted)
    return "nearer the paper" if nearer else "further from the paper"


def confirmation_lead(table: pd.DataFrame, preregistration: str) -> str:
    """Sentences for the one screen, from a :func:`confirm` table: how many claims got the
    predicted word again (of all, and of those that rest on data), the confirmed ones that do
    not reproduce (the paper's reading failing again) named, each not confirmed with its fresh
    and predicted counts and whether it moved toward the paper or away, and for how many the
    predicted fraction lies in the fresh interval (``preregistration``: the link to the
    document that fixed them)."""
    confirmed = table["outcome"] == Verdict.CONFIRMED
    data = table["basis"] == "data"
    text = (
        f"**Confirmed on seeds no run had used** ({preregistration}, written before they were "
        f"trained): {int(confirmed.sum())} of {len(table)} predicted words are confirmed on the "
        f"fresh solutions, {int((confirmed & data).sum())} of the {int(data.sum())} claims that "
        "rest on data (the others are true by construction or implied by another)"
    )
    failing = table[confirmed & (table["word"] == Verdict.DOES_NOT)]
    if len(failing):
        names = [claim_name(r) for r in failing.itertuples(index=False)]
        text += f", among them the paper's readings that fail again: {'; '.join(names)}"
    missed = table[table["outcome"] == Verdict.NOT_CONFIRMED]
    if len(missed):
        parts = [
            f"{claim_name(r)} ({r.word}, {r.k}/{r.n_tested}; predicted {r.predicted}, "
            f"{r.predicted_k}/{r.predicted_n}: {_direction(r.word, r.predicted)})"
            for r in missed.itertuples(index=False)
        ]
        text += ". Not confirmed: " + "; ".join(parts)
    untestable = table[table["outcome"] == Verdict.UNTESTABLE]
    if len(untestable):
        text += f"; {len(untestable)} untestable (too few fresh solutions tested)"
    judged = table["consistent"].notna()
    inside = table["consistent"].fillna(False).astype(bool)
    missed_inside = int((inside & (table["outcome"] == Verdict.NOT_CONFIRMED)).sum())
    return (
        text + f". The predicted fraction k/n lies inside the fresh solutions' exact interval for "
        f"{int(inside.sum())} of {int(judged.sum())} claims ({missed_inside} of the "
        f"{len(missed)} not confirmed): with ten solutions one moves k/n by 0.1, so a word near "
        "the 0.2 or 0.8 cut can flip by chance."
    )


def fresh_basis_line(table: pd.DataFrame, names: dict[str, str]) -> str:
    """Beside a confirmation: how many of the fresh solutions tested read basis-dependent, per
    claim where any does (``names``: claim id → the claim in a few words, README's), from the
    fresh run's one-screen table (``reproduction.csv``); that the run did not check it, where
    it did not. Checked after the preregistration, so exploratory."""
    if not table.get("basis_checked", pd.Series([False])).astype(bool).any():
        return "These fresh solutions were not checked for basis dependence."
    some = table[table["n_basis_dependent"] > 0]
    named = [
        f"{TASK_NAMES.get(r.task, r.task)} {names.get(r.claim_id, _short(r))} "
        f"({r.n_basis_dependent}/{r.n_basis_checked})"
        for r in some.itertuples(index=False)
    ]
    return (
        "*Basis-dependent* fresh solutions (checked after the preregistration): "
        f"{and_list(named) if named else 'none'}{'; none elsewhere' if named else ''}."
    )
