"""Checkpoint selection and the ablations along training."""

import numpy as np

from rnnschur import tasks
from rnnschur.ablation import Scoring
from rnnschur.studies.beyond.along_training import evaluate_checkpoints, select_checkpoints

STEPS = np.array([0, 100, 200, 300, 400])


def test_accuracy_milestones_steps_and_the_last_checkpoint():
    score = np.array([0.5, 0.7, 0.9, 0.85, 0.95])
    chosen = select_checkpoints(STEPS, score, [0.6, 0.7, 0.9, 0.99], [0, 250], True)
    assert chosen == [
        (0, [("step", 0)]),
        (1, [("milestone", 0.6), ("milestone", 0.7)]),  # both first reached at step 100
        (2, [("milestone", 0.9), ("step", 250)]),  # 0.99 is never reached: skipped
        (4, [("best", None), ("last", None)]),
    ]


def test_fvu_milestones_are_reached_from_above():
    fvu = np.array([1.2, 0.3, 0.05, 0.08, 0.01])
    chosen = select_checkpoints(STEPS, fvu, [0.5, 0.1, 0.01], [], False)
    assert chosen == [
        (1, [("milestone", 0.5)]),
        (2, [("milestone", 0.1)]),
        (4, [("milestone", 0.01), ("best", None), ("last", None)]),
    ]
    spiked = np.array([1.2, 0.3, 0.05, 0.5, 0.4])  # a late spike: the best is not the last
    assert select_checkpoints(STEPS, spiked, [], [], False) == [
        (2, [("best", None)]),
        (4, [("last", None)]),
    ]


def test_checkpoint_rows_follow_the_weights():
    rng = np.random.default_rng(0)
    n = 6
    stack = lambda *shape: rng.standard_normal((2, *shape)) / np.sqrt(n)  # noqa: E731
    checkpoints = {
        "step": np.array([0, 50]),
        "validation_score": np.array([0.9, 0.2]),
        "W_xh": stack(n, 3),
        "W_hh": stack(n, n),
        "W_hy": stack(3, n),
    }
    task = tasks.get("flip_flop")
    batch = task.generate(rng, 8, n_bits=3, length=10)
    selected = [(0, [("step", 0)]), (1, [("milestone", 0.5), ("last", None)])]
    rows = evaluate_checkpoints(checkpoints, selected, 0.9, batch, task, Scoring(0.01, 0.01))
    # One block of 8 subsets per reason; a checkpoint chosen twice repeats its block.
    assert len(rows) == 24 and [r["step"] for r in rows[::8]] == [0, 50, 50]
    assert [(r["selection"], r["selection_value"]) for r in rows[:16:8]] == [
        ("step", 0.0),
        ("milestone", 0.5),
    ]
    assert rows[16]["selection"] == "last" and np.isnan(rows[16]["selection_value"])
    assert {r["alpha"] for r in rows} == {0.9}
    assert rows[0]["subset"] == "none"
    assert rows[0]["score"] != rows[8]["score"]  # different weights, different full scores
    assert [r["score"] for r in rows[8:16]] == [r["score"] for r in rows[16:24]]
