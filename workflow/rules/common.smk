# Config access, input functions and target lists; the config is read and checked, once, by
# workflow/lib/workflow_setup.py (the checks are workflow/lib/config_checks.py's and, for the
# gap study's task instances, instances.py's).
import os
import sys
from pathlib import Path

# The workflow's own folder (presets, src, style): every path the workflow reads from its own tree
# starts here, so it runs with -s/-d from any folder and as a Snakemake module.
ROOT = Path(workflow.current_basedir).parents[1]

# The library in src/ is importable by every job, also in the rules' conda environments and on
# cluster nodes (jobs inherit this environment); an installed rnnschur is used when src/ is absent.
os.environ.update(
    PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT / "src"), os.environ.get("PYTHONPATH")]))
)
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "workflow" / "lib")]
from rnnschur import external as external_names  # noqa: E402
from rnnschur import tasks as task_registry  # noqa: E402
from rnnschur.studies.beyond.registry import ANALYSES  # noqa: E402
from rnnschur.external import OUTPUT_NAMES as EXTERNAL_OUTPUT_NAMES  # noqa: E402
from rnnschur.external.task import EXTERNAL as EXTERNAL_TASK  # noqa: E402
from rnnschur.report.figures import WHERE as FIGURE_MODULES  # noqa: E402  (no matplotlib)
from rnnschur.report.registry import FIGURES as FIGURE_REGISTRY  # noqa: E402
from rnnschur.training.constructions import CONSTRUCTIONS  # noqa: E402

import config_checks as config_lib  # noqa: E402
import instances  # noqa: E402
import workflow_setup  # noqa: E402
from code_fingerprint import fingerprint  # noqa: E402

workflow_setup.patch_scheduler(workflow, ROOT)
NEUROGYM_TASKS = workflow_setup.load_config(config, workflow, ROOT)
GAP_STUDY = instances.expand_gap_study(config)  # its models: task instances <task>__<variation>
# a model trained elsewhere: task instance external__<name>, one model, its N_h read from its file
EXTERNAL = instances.expand_external(config)
STYLE = config_lib.style_settings(ROOT / "workflow" / "style.mplstyle")  # every figure's param


def template(name):
    """The text of the sentence template workflow/templates/``name``, a param of the rule that
    fills it: an edit of its sentences reruns that rule, a run moved elsewhere nothing. Given
    as a function, so that snakemake does not read its {fields} as wildcards."""
    text = (ROOT / "workflow" / "templates" / name).read_text()
    return lambda wildcards: text


LIBRARY = Path(task_registry.__file__).resolve().parents[2]  # the rnnschur the jobs import


def code(script, task=None, functions=(), parts=()):
    """The fingerprint of the library code a rule's ``script`` runs (workflow/lib/
    code_fingerprint.py), a param of every rule: an edit of that code reruns the rule's jobs.
    ``task``: its generator module counts too (the registry imports it by name); ``functions``:
    figures, of whose modules only these functions count (one figure's edit reruns it alone);
    ``parts``: (module, function) pairs of which, likewise, only the function counts."""
    extra = ()
    if task is not None:
        name = task_registry.task_of(task)
        generator = f"tasks.{name if name in task_registry.names() else '_neurogym'}"
        extra = ("rnnschur." + ("external.task" if name == EXTERNAL_TASK else generator),)
    figures = tuple((FIGURE_MODULES[f], f) for f in functions)  # a job imports its own alone
    figures += tuple(parts)
    extra += tuple(module for module, _ in figures)
    return fingerprint(ROOT / "workflow" / "scripts" / script, LIBRARY, extra, figures)


R = config["results_dir"].rstrip("/")
GPUS_PER_TRAINING = 1 if config["device"].startswith("cuda") else 0


def per_model(base):
    """A per-model job's resource (mem_mb or runtime in minutes) for its N_h
    (rnnschur.settings.schema.job_estimate)."""
    return lambda wildcards: config_lib.job_estimate(base, int(wildcards.size))


TASKS = config["run_tasks"]

# Tasks scored by FVU (Figure 2 and the example rollouts): the paper's neuroscience tasks and any
# task added with SCORE = "fvu".
FVU_TASKS = [t for t in TASKS if task_registry.score_of(t) == "fvu"]


def task_config(task):
    return config["tasks"][task]


def trial_source(task):
    """What draws a task's trials, in the params of its data and training jobs (a change of it
    reruns them): its generator's settings, or a NeuroGym task's env and kwargs (which its
    generate and dims take and ignore; rnnschur.tasks.get makes the task of them)."""
    if task in NEUROGYM_TASKS:
        return {"neurogym": task_config(task)["neurogym"]}
    return task_config(task)["generator"]


def neurogym_spec(task):
    """A NeuroGym task's checked spec {env, kwargs, dims}, a model trained elsewhere's
    {score} (None for any other task), in the params of each analysis job of it:
    rnnschur.tasks.get(task, params.neurogym)."""
    return NEUROGYM_TASKS.get(task) or task_config(task).get("external")


def learned_criteria():
    """{task: criterion of learned} (rnnschur.studies.learned: the top-level learned block, then the
    task's own)."""
    shared = {k: v for k, v in config["learned"].items() if k != "min_models"}
    return {t: {**shared, **s.get("learned", {})} for t, s in config["tasks"].items()}


def verdict_settings():
    """rnnschur.studies.verdicts.Thresholds of every verdict (config verdicts, ablation.mass_floor)."""
    return {**config["verdicts"], "mass_floor": config["ablation"]["mass_floor"]}


def training_settings(task, construction):
    """The task's training settings with the construction's overrides applied."""
    return instances.training_settings(config, task, construction)


def models(task):
    """(construction, size, seed) of every model of a task."""
    c = task_config(task)
    return [(k, n, s) for k in c["constructions"] for n in c["sizes"] for s in c["seeds"]]


def model_files(pattern, tasks=None):
    """``pattern`` with {task}, {construction}, {size}, {seed} filled for every model."""
    return [
        pattern.format(task=t, construction=k, size=n, seed=s)
        for t in (TASKS if tasks is None else tasks)
        for k, n, s in models(t)
    ]


def representative_models(tasks=None):
    """Per task and construction: the largest N_h and the first seed."""
    return [
        (t, k, max(task_config(t)["sizes"]), task_config(t)["seeds"][0])
        for t in (TASKS if tasks is None else tasks)
        for k in task_config(t)["constructions"]
    ]


def representative_files(pattern, tasks=None):
    """``pattern`` with {task}, {construction}, {size}, {seed} filled for each representative."""
    return [
        pattern.format(task=t, construction=k, size=n, seed=s)
        for t, k, n, s in representative_models(tasks)
    ]


MODEL = "{task}/{construction}/n{size}/seed{seed}"


TABLES = f"{R}/tables"
FIGURES = f"{R}/figures"


def figure_names():
    """The figures this run draws: each of the registry's whose need the run meets, and one per
    beyond-the-paper analysis where they run."""
    meets = {
        "models": True,
        "copy": "copy" in TASKS,
        "fvu": bool(FVU_TASKS),
        "gap study": bool(GAP_STUDY),
        "atlas": bool(config.get("atlas")),
    }
    names = [name for name, figure in FIGURE_REGISTRY.items() if meets[figure.needs]]
    if config["beyond_models"] != "none":
        names += [f"fig_{name}" for name in beyond_analyses()]
    return names


def all_targets():
    """Every file `snakemake` makes by default: the outputs of the stages' table rules (read from
    the rules themselves, after every rule file is included), the figures of the registries, the
    atlas's page and the external models' summaries."""
    external = [
        EXTERNAL_FILES[key].format(name=name)
        for name in config["external_models"]
        for key in ("summary_md", "summary_html", "profile_pdf")
    ]
    if not TASKS:
        return external
    table_rules = ["collect_ablations", "collect_models", "paper_vs_reproduced", "claims"]
    table_rules += ["reproduction"]
    table_rules += ["confirmation"] if config["confirmation"]["predictions"] else []
    table_rules += ["block_profile", "task_restriction"]
    table_rules += ["gap_attribution"] if GAP_STUDY else []
    table_rules += ["table1"] if "copy" in TASKS else []
    table_rules += ["atlas", "atlas_page"] if config.get("atlas") else []
    if config["beyond_models"] != "none":
        table_rules += [f"{name}_summary" for name in beyond_analyses()]
    tables = [str(path) for name in table_rules for path in getattr(rules, name).output]
    figures = [f"{FIGURES}/{name}.{ext}" for name in figure_names() for ext in ("pdf", "png")]
    return tables + figures + external


# the tasks whose trials the workflow draws (rules heldout, fitting); an external model's are its own
DRAWN_TASKS = "|".join(dict.fromkeys([*task_registry.names(), *NEUROGYM_TASKS, *TASKS, *GAP_STUDY]))


wildcard_constraints:
    task="|".join([DRAWN_TASKS, *EXTERNAL]),
    construction="|".join([*CONSTRUCTIONS, EXTERNAL_TASK]),
    size=r"\d+",
    seed=r"\d+",
    variation=r"[A-Za-z0-9_]+",
    name=r"[A-Za-z0-9_]+",
