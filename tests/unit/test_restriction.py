"""Task restriction on planted per-solution readings (rnnschur.studies.restriction): two tasks whose
solutions are harmed by removing T_CC and two whose are not read task-restricted; every task
harmed reads universal; a description is a family of its own."""

import pandas as pd
import pytest

from rnnschur.io.text import fill, templates
from rnnschur.studies.restriction import restriction, restriction_markdown, task_readings
from rnnschur.studies.verdicts import Verdict

from conftest import REPO

MOSTLY = 0.8
MIN_MODELS = 3
LEGEND = fill(
    templates((REPO / "workflow" / "templates" / "task_restriction.md").read_text()),
    ("legend", {"mostly": MOSTLY, "min_models": MIN_MODELS}),
)
"""The workflow's rule under the table, filled as the rule task_restriction fills it."""


def rows(task, block, readings, construction="dense_orthogonal", n_hidden=64):
    """Ablation rows of one task's solutions, one per planted reading (seed = position)."""
    return [
        {
            "task": task, "construction": construction, "n_hidden": n_hidden, "seed": seed,
            "alpha": 0.9, "subset": block, "metric": "fvu", "score": 0.2, "delta_score": 0.1,
            "reading": reading, "learned": True,
        }
        for seed, reading in enumerate(readings)
    ]  # fmt: skip


def table(*parts):
    return pd.DataFrame([r for part in parts for r in part])


def test_harmed_and_unharmed_tasks_read_task_restricted():
    ablation = table(
        rows("a", "T_CC", ["stabilizer"] * 5),
        rows("b", "T_CC", ["stabilizer"] * 4 + ["undecided"]),  # 4 of 5: mostly
        rows("c", "T_CC", ["fragile"] * 5),
        rows("d", "T_CC", ["fragile"] * 4 + ["absent"] * 3),  # 4 of 4 tested
        rows("d", "T_CC", ["stabilizer"] * 5, n_hidden=32),  # a smaller N_h: not read
        rows("d", "T_CC", ["fragile"] * 5, construction="cayley"),  # another family
    )
    tasks = task_readings(ablation, 0.9, MOSTLY, MIN_MODELS)
    mine = tasks[tasks["construction"] == "dense_orthogonal"].set_index("task")
    assert mine["word"].to_dict() == {
        "a": Verdict.STABILIZER,
        "b": Verdict.STABILIZER,
        "c": Verdict.FRAGILE,
        "d": Verdict.FRAGILE,
    }
    assert mine.loc["d", ["n_learned", "n_absent", "n_tested", "fragile"]].tolist() == [7, 3, 4, 4]
    assert mine.loc["d", "n_hidden"] == 64
    # k = n = 5: the exact interval's lower end is (α/2)^(1/n)
    assert mine.loc["a", "stabilizer_low"] == pytest.approx(0.025 ** (1 / 5))
    across = restriction(tasks).set_index("construction")
    assert across.loc["dense_orthogonal", "word"] == Verdict.TASK_RESTRICTED
    assert across.loc["dense_orthogonal", "stabilizer_in"] == "a b"
    assert across.loc["dense_orthogonal", "fragile_in"] == "c d"
    assert across.loc["cayley", "word"] == Verdict.TOO_FEW_TASKS
    text = restriction_markdown(tasks, restriction(tasks), LEGEND)
    assert (
        "| — | dense_orthogonal | −T_CC | 4 | c, d | a, b | — | — | — | **task-restricted** |"
        in text
    )
    # the rule under the table, from the workflow's template, with the config's thresholds
    assert "when at least 80% of those tested read so" in text
    assert "(fewer than 3 of its learned solutions hold it)" in text


@pytest.mark.parametrize(
    ("a", "b", "word"),
    [
        (["fragile"] * 5, ["fragile"] * 5, Verdict.UNIVERSAL),
        (["stabilizer"] * 5, ["stabilizer"] * 5, Verdict.HARMLESS_ACROSS),
        (["fragile"] * 5, ["fragile"] * 3 + ["stabilizer"] * 2, Verdict.UNDECIDED),  # 3/5 < 0.8
        (["fragile"] * 5, ["absent"] * 5, Verdict.TOO_FEW_TASKS),
    ],
)
def test_the_word_across_tasks(a, b, word):
    tasks = task_readings(
        table(rows("a", "T_RR", a), rows("b", "T_RR", b)), 0.9, MOSTLY, MIN_MODELS
    )
    assert restriction(tasks)["word"].tolist() == [word]


def test_descriptions_are_families_not_seeds():
    """The atlas's instances <task>__<description>: each description read across its own tasks,
    never pooled: leaky harms both tasks (universal), discrete spares one (task-restricted)."""
    ablation = table(
        rows("a__leaky", "T_CR", ["fragile"] * 5),
        rows("b__leaky", "T_CR", ["fragile"] * 5),
        rows("a__discrete", "T_CR", ["stabilizer"] * 5),
        rows("b__discrete", "T_CR", ["fragile"] * 5),
    )
    across = restriction(task_readings(ablation, 0.9, MOSTLY, MIN_MODELS)).set_index("family")
    assert across.loc["leaky", "word"] == Verdict.UNIVERSAL
    assert across.loc["discrete", "word"] == Verdict.TASK_RESTRICTED
    # the tables name a family's tasks without its suffix: the family has its own column
    tasks = task_readings(ablation, 0.9, MOSTLY, MIN_MODELS)
    text = restriction_markdown(tasks, restriction(tasks), LEGEND)
    row = "| discrete | dense_orthogonal | −T_C→R | 2 | b | a | — | — | — | **task-restricted** |"
    assert row in text
    assert "| discrete | dense_orthogonal | a | 64 |" in text and "__" not in text


def test_models_that_did_not_learn_are_not_read():
    ablation = table(rows("a", "T_CC", ["fragile"] * 5), rows("b", "T_CC", ["stabilizer"] * 5))
    ablation.loc[ablation["task"] == "b", "learned"] = False
    across = restriction(task_readings(ablation, 0.9, MOSTLY, MIN_MODELS))
    assert across["word"].tolist() == [Verdict.TOO_FEW_TASKS]


def test_a_task_with_too_few_learned_solutions_enters_no_word():
    """Two of three tasks' solutions mostly stabilizers, the third's fragile but only two of
    them learned (below min_models = 3): harmless across tasks, the third named apart; with
    min_models = 2 it enters the word, which turns task-restricted."""
    ablation = table(
        rows("a", "T_CC", ["stabilizer"] * 5),
        rows("b", "T_CC", ["stabilizer"] * 4),
        rows("c", "T_CC", ["fragile"] * 2 + ["stabilizer"] * 3),
    )
    ablation.loc[(ablation["task"] == "c") & (ablation["seed"] >= 2), "learned"] = False
    tasks = task_readings(ablation, 0.9, MOSTLY, MIN_MODELS)
    c = tasks.set_index("task").loc["c"]
    assert c["word"] == Verdict.TOO_FEW
    assert c[["n_learned", "n_tested", "fragile"]].tolist() == [2, 2, 2]
    across = restriction(tasks).iloc[0]
    assert across["word"] == Verdict.HARMLESS_ACROSS and across["n_tasks"] == 2
    assert across["too_few_in"] == "c" and across["fragile_in"] == ""
    text = restriction_markdown(tasks, restriction(tasks), LEGEND)
    assert "| −T_CC | 2 | — | a, b | — | — | c | **harmless across tasks** |" in text
    assert "| c | 64 | −T_CC | 2 (0) | 2/2" in text and "| too few learned |" in text
    assert restriction(task_readings(ablation, 0.9, MOSTLY, 2))["word"].tolist() == [
        Verdict.TASK_RESTRICTED
    ]


def test_a_run_where_no_model_learned_reads_too_few_everywhere():
    """No model learned: every task reads too few learned models (named apart, not dropped),
    and no word across tasks is made of them."""
    ablation = table(rows("a", "T_CC", ["fragile"] * 3), rows("b", "T_CC", ["fragile"] * 3))
    ablation["learned"] = False
    tasks = task_readings(ablation, 0.9, MOSTLY, MIN_MODELS)
    across = restriction(tasks)
    assert (tasks["word"] == Verdict.TOO_FEW).all() and (tasks["n_learned"] == 0).all()
    assert across["word"].tolist() == [Verdict.TOO_FEW_TASKS]
    assert across["too_few_in"].tolist() == ["a b"] and across["n_tasks"].tolist() == [0]
    text = restriction_markdown(tasks, across, LEGEND)
    assert "| — | a, b | **too few tasks** |" in text


def test_a_block_held_by_fewer_than_min_models_solutions_reads_absent():
    """Three of five learned solutions hold the block: read; two: absent (too few to read)."""
    three = rows("a", "T_CC", ["stabilizer"] * 3 + ["absent"] * 2)
    two = rows("b", "T_CC", ["fragile"] * 2 + ["absent"] * 3)
    tasks = task_readings(table(three, two), 0.9, MOSTLY, MIN_MODELS).set_index("task")
    assert tasks["word"].to_dict() == {"a": Verdict.STABILIZER, "b": Verdict.ABSENT}
    assert tasks.loc["b", ["n_tested", "fragile"]].tolist() == [2, 2]


def test_the_table_gives_a_mixture_no_word_and_a_task_held_by_too_few_its_own():
    """Planted: one task mostly fragile, one whose solutions split, one whose block too few
    solutions hold: the across cell says no word (not *undecided*, one solution's word on the
    pages), the third task's cell *held by too few* (not *absent*, one solution's status)."""
    ablation = table(
        rows("a", "T_CC", ["fragile"] * 5),
        rows("b", "T_CC", ["fragile"] * 2 + ["stabilizer"] * 3),
        rows("c", "T_CC", ["fragile"] * 2 + ["absent"] * 3),
    )
    tasks = task_readings(ablation, 0.9, MOSTLY, MIN_MODELS)
    across = restriction(tasks)
    assert across["word"].tolist() == [Verdict.UNDECIDED]  # the CSV keeps the code's word
    text = restriction_markdown(tasks, across, LEGEND)
    assert "| −T_CC | 2 | a | — | b | c | — | no word |" in text
    assert "| c | 64 | −T_CC | 2 (3) | 2/2" in text and "| held by too few |" in text
    assert "undecided" not in text and "| absent |" not in text
