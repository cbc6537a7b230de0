"""The fixed-point study's cost, the search apart from the free runs, beside the training.

For each model a finished run's fixed_points jobs read (RESULTS/beyond/fixed_points/<task>/
<construction>/n<N_h>/seed<k>.csv), in one process, one model after another: the CPU seconds of
the fixed-point search (`fixed_points.find` under each input, intact and with each block
removed) and of the free runs (`attractors.find` from the held-out end states, perturbed copies
and the search's starts; the flip-flop's transition table; the copy task's replay orbits), as
`fixed_point_study.model_rows` runs them with the settings of presets/studies.yaml's
`fixed_points` (the quick studies layer keeps them). Per task, construction and N_h: the
median seconds per model of each, the training's CPU seconds per model (its bundles' benchmark
files, `bench/run_costs.py`) and the ratio (search + free runs) / training.

Usage: python bench/bench_attractors.py RESULTS   e.g. results/quick after
  snakemake -c1 --configfile presets/quick.yaml presets/studies.yaml presets/quick_studies.yaml
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(name, "1")  # one thread, as a job runs: CPU time is then its work
import pandas as pd  # noqa: E402
import yaml  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_costs import per_model  # noqa: E402

from rnnschur import io, tasks  # noqa: E402
from rnnschur.ablation import ablated  # noqa: E402
from rnnschur.schur import COUPLING_BLOCKS  # noqa: E402
from rnnschur.studies import attractors, fixed_point_study, fixed_points  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


def cpu(function, *args):
    """(the result, the CPU seconds of this process it took)."""
    start = time.process_time()
    out = function(*args)
    return out, time.process_time() - start


def model_costs(results: Path, path: Path, settings: dict) -> dict:
    """The search's and the free runs' CPU seconds of one model (module docstring)."""
    task, construction, size = (
        path.parent.parent.parent.name,
        path.parent.parent.name,
        path.parent.name,
    )
    seed = path.stem
    meta = json.loads(
        (results / "models" / task / construction / size / seed / "meta.json").read_text()
    )
    network, schur, heldout = io.load_model(
        results / "models" / task / construction / size / seed / "weights.npz",
        results / "schur" / task / construction / size / f"{seed}.npz",
        results / "data" / task / "heldout.npz",
    )
    generator, alpha = meta["generator"], settings["alpha"]
    study = fixed_point_study.Study.from_settings(settings | {"generator": generator})
    search = study.search
    run = attractors.FreeRun(study.max_period, study.free_run, search.unique, search.match)
    networks = {"none": network.W_hh} | {
        b: ablated(network.W_hh, schur, alpha, (b,)) for b in COUPLING_BLOCKS
    }
    visited = fixed_points.trajectories(network, network.W_hh, heldout.inputs[:64])
    starts = fixed_points.starts(visited, search, fixed_points.state_bounds(network))
    conditions = fixed_point_study.input_conditions(task, heldout.inputs, generator, study.n_cues)
    searching = running = 0.0
    for x in conditions.values():
        intact = None
        for ablation, W in networks.items():
            searching += cpu(fixed_points.find, network, W, x, starts, search)[1]
            own = fixed_points.trajectories(network, W, heldout.inputs[:64])
            orbits = fixed_point_study.orbit_starts(own, starts, search)
            found, seconds = cpu(attractors.find, network, W, x, orbits, run)
            running += seconds
            intact = found[0] if ablation == "none" else intact
            source = tasks.task_of(task)
            if source == "flip_flop" and not x.any():
                amplitude = generator.get("pulse_amplitude", 1.0)
                args = (network, W, intact, amplitude, run)
                running += cpu(attractors.transitions, *args)[1]
            if source == "copy" and not x.any():
                trials = heldout.inputs[: attractors.REPLAY_TRIALS]
                args = (network, W, trials, generator.get("n_symbols", 8), run)
                running += cpu(fixed_point_study.replay_columns, *args)[1]
    return {"task": task, "construction": construction, "N_h": int(size.lstrip("n")),
            "search_s": searching, "free_runs_s": running}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    args = parser.parse_args()
    studies = yaml.safe_load((REPO / "presets" / "studies.yaml").read_text())
    config = yaml.safe_load((REPO / "config.yaml").read_text())
    settings = studies["fixed_points"] | {"alpha": config["alpha"]}
    paths = sorted((args.results / "beyond" / "fixed_points").rglob("seed*.csv"))
    costs = pd.DataFrame([model_costs(args.results, p, settings) for p in paths])
    keys = ["task", "construction", "N_h"]
    table = costs.groupby(keys, sort=False).agg(
        models=("search_s", "size"), search_s=("search_s", "median"),
        free_runs_s=("free_runs_s", "median"),
    ).reset_index()  # fmt: skip
    training = per_model(args.results, "fixed_points")
    table = table.merge(training[[*keys, "train_cpu_s_per_model"]], on=keys)
    table["ratio"] = (table["search_s"] + table["free_runs_s"]) / table["train_cpu_s_per_model"]
    print(table.round(2).to_string(index=False))
    spent = (costs["search_s"] + costs["free_runs_s"]).sum()
    trained = (table["train_cpu_s_per_model"] * table["models"]).sum()
    print(f"all: (search + free runs) / training CPU = {spent / trained:.2f}; free runs "
          f"{costs['free_runs_s'].sum() / spent:.0%} of the study")  # fmt: skip


if __name__ == "__main__":
    main()
