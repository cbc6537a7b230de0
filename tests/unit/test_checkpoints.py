"""Checkpoint selection and the ablations along training."""

import numpy as np

from rnnschur import tasks
from rnnschur.checkpoints import evaluate_checkpoints, select_checkpoints

STEPS = np.array([0, 100, 200, 300, 400])


def test_accuracy_milestones_steps_and_the_last_checkpoint():
    score = np.array([0.5, 0.7, 0.9, 0.85, 0.95])
    chosen = select_checkpoints(STEPS, score, [0.6, 0.7, 0.9, 0.99], [0, 250], True)
    assert chosen == [
        (0, "step 0"),
        (1, "score 0.6, score 0.7"),  # both first reached at step 100
        (2, "score 0.9, step 250"),  # 0.99 is never reached: skipped
        (4, "best, last"),
    ]


def test_fvu_milestones_are_reached_from_above():
    fvu = np.array([1.2, 0.3, 0.05, 0.08, 0.01])
    chosen = select_checkpoints(STEPS, fvu, [0.5, 0.1, 0.01], [], False)
    assert chosen == [(1, "score 0.5"), (2, "score 0.1"), (4, "score 0.01, best, last")]
    spiked = np.array([1.2, 0.3, 0.05, 0.5, 0.4])  # a late spike: the best is not the last
    assert select_checkpoints(STEPS, spiked, [], [], False) == [(2, "best"), (4, "last")]


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
    rows = evaluate_checkpoints(checkpoints, [(0, "a"), (1, "b")], 0.9, batch, task, 0.01, 0.01)
    assert len(rows) == 16 and [r["step"] for r in rows[::8]] == [0, 50]
    assert {r["alpha"] for r in rows} == {0.9}
    assert rows[0]["subset"] == "none" and rows[0]["checkpoint"] == "a"
    assert rows[0]["score"] != rows[8]["score"]  # different weights, different full scores
