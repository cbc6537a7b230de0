"""The fixed-point study's cost per model group beside the training it reads.

For each model a finished run's fixed_points jobs read (RESULTS/beyond/fixed_points/<task>/
<construction>/n<N_h>/seed<k>.csv), in one process, one model after another, the study itself
(`fixed_point_study.model_rows`, with the settings of presets/studies.yaml's `fixed_points`; the
quick studies layer keeps them) with the CPU seconds of its parts counted as it calls them: the
fixed-point search (`fixed_points.search_from` under each input, intact and with each block removed)
and the free runs (`attractors.find_all` from the held-out end states, perturbed copies and the
search's starts; the flip-flop's transition table; the copy task's replay orbits; the sine
task's cued oscillation). Per task, construction and N_h: the median seconds per model of each
and of the whole study, the training's CPU seconds per model and the ratio (search + free
runs) / training, against the target of at most `TARGET`. The training's CPU comes from its
bundles' benchmark files (`bench/run_costs.py`), which sample a job's CPU time and can
undercount it; with ``--train``, from training each group's bundles again in this process, as
rule train does and timed as the study is (the weights checked equal to the run's, so that the
training timed is the one the study reads), which then sets the ratio. It runs with the jobs'
pinned kernels (`rnnschur.settings.numerics`, the training's too) unless the environment sets
others: NumPy's native kernels can be faster.

Usage: python bench/bench_attractors.py RESULTS [--task TASK] [--train]   e.g. results/quick after
  snakemake -c1 --configfile presets/quick.yaml presets/studies.yaml presets/quick_studies.yaml
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import time
from contextlib import contextmanager
from pathlib import Path

for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(name, "1")  # one thread, as a job runs: CPU time is then its work
_spec = importlib.util.spec_from_file_location(  # read without importing the package (NumPy)
    "numerics", Path(__file__).resolve().parents[1] / "src/rnnschur/settings/numerics.py"
)
numerics = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(numerics)
for name, value in numerics.PORTABLE_KERNELS.items():  # the kernels the jobs (and the training
    os.environ.setdefault(name, value)  # it is held to) run with, before NumPy loads
import pandas as pd  # noqa: E402
import yaml  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_costs import per_model  # noqa: E402

from rnnschur import io  # noqa: E402
from rnnschur.studies import attractors, breaks, fixed_point_study  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
TARGET = 0.5
"""The most (search + free runs) / training the study may take per model group."""
PARTS = {
    "search_s": [(fixed_point_study, "search_from")],
    "free_runs_s": [
        (attractors, "find_all"),
        (breaks, "transitions"),
        (fixed_point_study, "replay_columns"),
        (fixed_point_study, "oscillations"),
    ],
}
"""The functions `model_rows` calls whose CPU time each part sums (none calls another)."""


@contextmanager
def counted(seconds: dict):
    """Every function of :data:`PARTS` wrapped, while inside, to add its CPU seconds to its
    part's entry of ``seconds``."""
    saved = []
    for part, functions in PARTS.items():
        for module, name in functions:
            original = getattr(module, name)
            saved.append((module, name, original))

            def wrapper(*args, _original=original, _part=part, **kwargs):
                start = time.process_time()
                try:
                    return _original(*args, **kwargs)
                finally:
                    seconds[_part] += time.process_time() - start

            setattr(module, name, wrapper)
    try:
        yield seconds
    finally:
        for module, name, original in saved:
            setattr(module, name, original)


def model_costs(results: Path, path: Path, settings: dict) -> dict:
    """The study's, its search's and its free runs' CPU seconds on one model (module
    docstring)."""
    task, construction, size = (
        path.parent.parent.parent.name,
        path.parent.parent.name,
        path.parent.name,
    )
    seed = path.stem
    model = results / "models" / task / construction / size / seed
    meta = json.loads((model / "meta.json").read_text())
    network, schur, heldout = io.load_model(
        model / "weights.npz",
        results / "schur" / task / construction / size / f"{seed}.npz",
        results / "data" / task / "heldout.npz",
    )
    study = fixed_point_study.Study.from_settings(settings | {"generator": meta["generator"]})
    with counted(dict.fromkeys(PARTS, 0.0)) as seconds:
        start = time.process_time()
        fixed_point_study.model_rows(network, schur, heldout, task, study)
        study_s = time.process_time() - start
    return {"task": task, "construction": construction, "N_h": int(size.lstrip("n")),
            "study_s": study_s} | seconds  # fmt: skip


def training_cpu(results: Path, task: str, construction: str, size: int) -> float:
    """CPU seconds per model of training the group's models again in this process, in their
    bundles and with the settings each model's ``meta.json`` records (as rule train wrote it);
    each model's weights must equal the run's."""
    import numpy as np

    from rnnschur import tasks
    from rnnschur.network.dynamics import Dynamics
    from rnnschur.settings.seeds import job_rng
    from rnnschur.training.train import TrainSettings, train_bundle

    folder = results / "models" / task / construction / f"n{size}"
    metas = sorted(
        (json.loads((p / "meta.json").read_text()) for p in folder.glob("seed*")),
        key=lambda meta: meta["seed"],
    )
    spent, first = 0.0, 0
    while first < len(metas):  # a bundle: the next bundle_size seeds (blocks of seeds by value)
        bundle = metas[first : first + metas[first]["summary"]["bundle_size"]]
        first += len(bundle)
        meta, seeds = bundle[0], [m["seed"] for m in bundle]
        settings = meta["effective_training"] | {
            "curriculum": tuple(meta["effective_training"]["curriculum"])
        }
        generator = meta["generator"]
        heldout = io.load_batch(
            results / "data" / task / "heldout.npz", *tasks.get(task).dims(**generator)
        )
        rngs = [job_rng(meta["base_seed"], task, construction, size, s) for s in seeds]
        names = [f"{task}/{construction}/n{size}/seed{s}" for s in seeds]
        start = time.process_time()
        models = train_bundle(
            task, generator, construction, size, TrainSettings(**settings), rngs, heldout,
            names, Dynamics.from_config(meta["model"]),
        )  # fmt: skip
        spent += time.process_time() - start
        for seed, model in zip(seeds, models, strict=True):
            run = np.load(folder / f"seed{seed}" / "weights.npz")
            if not np.array_equal(run["W_hh"], model.W_hh):
                raise SystemExit(f"{folder}/seed{seed}: trained again, W_hh differs from the run's")
    return spent / len(metas)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("--task", help="only this task's models")
    parser.add_argument(
        "--train", action="store_true", help="time the training again in this process"
    )
    args = parser.parse_args()
    studies = yaml.safe_load((REPO / "presets" / "studies.yaml").read_text())
    config = yaml.safe_load((REPO / "config.yaml").read_text())
    settings = studies["fixed_points"] | {"alpha": config["alpha"], "ablation": config["ablation"]}
    paths = sorted(
        (args.results / "beyond" / "fixed_points" / (args.task or "")).rglob("seed*.csv")
    )
    costs = pd.DataFrame([model_costs(args.results, p, settings) for p in paths])
    keys = ["task", "construction", "N_h"]
    costs["spent_s"] = costs["search_s"] + costs["free_runs_s"]
    table = costs.groupby(keys, sort=False).agg(
        models=("search_s", "size"), search_s=("search_s", "median"),
        free_runs_s=("free_runs_s", "median"), study_s=("study_s", "median"),
        spent_s=("spent_s", "sum"),
    ).reset_index()  # fmt: skip
    training = per_model(args.results, "fixed_points")
    table = table.merge(training[[*keys, "train_cpu_s_per_model"]], on=keys)
    denominator = "train_cpu_s_per_model"
    if args.train:
        table["train_in_process_s"] = [
            training_cpu(args.results, r.task, r.construction, r.N_h) for r in table.itertuples()
        ]
        denominator = "train_in_process_s"
    trained = table[denominator] * table["models"]
    table["ratio"] = table["spent_s"] / trained
    table["meets"] = table["ratio"] <= TARGET
    print(f"kernels: {numerics.kernel_settings()}; the ratio's training: {denominator}")
    print(table.drop(columns="spent_s").round(2).to_string(index=False))
    spent = costs["spent_s"].sum()
    print(f"all: (search + free runs) / training CPU = {spent / trained.sum():.2f}; "
          f"groups at most {TARGET}: {int(table['meets'].sum())} of {len(table)}; free runs "
          f"{costs['free_runs_s'].sum() / spent:.0%} of search + free runs; the whole study "
          f"{costs['study_s'].sum() / trained.sum():.2f} of the training")  # fmt: skip


if __name__ == "__main__":
    main()
