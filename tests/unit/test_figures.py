"""The block-profile heat map on a planted profile: one cell per task, construction, N_h and
block, holding the harm and the verdict's mark."""

import matplotlib

matplotlib.use("Agg")
import pandas as pd  # noqa: E402

from rnnschur import figures  # noqa: E402


def test_block_profile_heat_map_cells():
    rows = []
    for n_hidden, harm in ((56, 0.5), (72, 0.25)):  # two sizes of one task and construction
        for block, verdict in (("T_RR", "inconclusive"), ("T_CR", "fragile"), ("T_CC", "harmless")):
            rows.append(
                {
                    "task": "copy",
                    "construction": "dense_orthogonal",
                    "n_hidden": n_hidden,
                    "subset": block,
                    "harm_mean": harm if block == "T_CR" else 0.0,
                    "verdict": verdict,
                }
            )
    fig = figures.fig_block_profile(pd.DataFrame(rows))
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == ["copy · dense_orthogonal · N_h 56", "copy · dense_orthogonal · N_h 72"]
    texts = {t.get_text() for t in ax.texts}
    assert {"0.5 ▲", "0.25 ▲", "0 ○", "0 ?"} <= texts
    assert ax.images[0].get_array().shape == (2, 3)
