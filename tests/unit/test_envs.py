"""The rules' software stack: each conda env holds what its script really imports, the envs agree
with pyproject.toml, and only training scripts need torch."""

import ast
import importlib.metadata
import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import numpy as np
import pytest
import yaml

from conftest import REPO

SRC = REPO / "src"
TRAINING_ENV = "train.yaml"
TORCH_ENVS = (TRAINING_ENV, "external.yaml")
"""The envs with torch: training's, and the import of a model trained elsewhere (a torch file)."""


def rule_scripts() -> dict[str, tuple[str, Path]]:
    """{rule: (conda env file name, script path)} from the rule files; the rules built in a loop
    over the analyses' registry (``rule:`` with ``name:``) once per analysis."""
    from rnnschur.studies.beyond.registry import ANALYSES

    rules = {}
    for smk in sorted((REPO / "workflow" / "rules").glob("*.smk")):
        for block in re.split(r"^\s*rule\b", smk.read_text(), flags=re.M)[1:]:
            name = block.split(":", 1)[0].strip() or re.search(r"name:\s*\n\s*(.+)", block)[1]
            env = re.search(r"conda:\s*\n\s*\"\.\./\.\./envs/([^\"]+)\"", block)
            script = re.search(r"script:\s*\n\s*\"\.\./([^\"]+)\"", block)
            if script:
                assert env, f"rule {name} runs a script but declares no conda env"
                for analysis in ANALYSES if "{params.analysis}" in script[1] else [None]:
                    path = script[1].replace("{params.analysis}", analysis or "")
                    # a rule made in a loop (``rule:`` with ``name:``) is known by its script
                    key = analysis or (Path(path).stem if block.startswith(":") else name)
                    rules[key] = (env[1], REPO / "workflow" / path)
    return rules


def _module_file(name: str) -> Path | None:
    """The file of an rnnschur module (package __init__ for a package), None otherwise."""
    parts = name.split(".")
    if parts[0] != "rnnschur":
        return None
    path = SRC.joinpath(*parts)
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


TORCH_ROUTES = {"rnnschur.external.torch_module", "neurogym"}
"""Modules that load torch and are imported, inside a function, only on the routes that need it
(a torch state_dict file, a user's live module; NeuroGym, which draws trials in the data and
training jobs only): an analysis job never takes them, which
test_only_training_scripts_need_torch and test_the_python_api_on_arrays_needs_no_torch show by
running the code with torch and NeuroGym blocked."""


def imported_top_levels(script: Path) -> set[str]:
    """Top-level names of every module imported anywhere (also inside functions) by ``script``
    and, transitively, by the rnnschur modules it imports; an import of :data:`TORCH_ROUTES`
    inside a function, the imports of a package's lazy ``__getattr__`` and those under ``if
    TYPE_CHECKING:`` (annotations only) are not followed."""
    seen, todo, names = set(), [script], set()
    while todo:
        path = todo.pop()
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        tree = ast.parse(path.read_text())
        functions = [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)]
        nested = {id(inner) for node in functions for inner in ast.walk(node)}
        # a package's module __getattr__ runs only when its attribute is used (rnnschur.analyse)
        lazy = {
            id(inner)
            for node in functions
            if node.name == "__getattr__"
            for inner in ast.walk(node)
        }
        # imports for type annotations alone never run
        typing_only = {
            id(inner)
            for node in ast.walk(tree)
            if isinstance(node, ast.If)
            and getattr(node.test, "id", getattr(node.test, "attr", None)) == "TYPE_CHECKING"
            for inner in ast.walk(node)
        }
        for node in ast.walk(tree):
            if id(node) in lazy or id(node) in typing_only:
                continue
            if id(node) in nested and isinstance(node, ast.ImportFrom):
                names_here = {f"{node.module}.{a.name}" for a in node.names} | {node.module}
                if names_here & TORCH_ROUTES:
                    continue
            if id(node) in nested and isinstance(node, ast.Import):
                if {a.name for a in node.names} & TORCH_ROUTES:
                    continue
            if isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                modules = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            else:
                continue
            for module in modules:
                names.add(module.split(".")[0])
                if (file := _module_file(module)) is not None:
                    todo.append(file)
    return names


def third_party(names: set[str]) -> set[str]:
    """Distribution names (lower case) of the third-party modules among ``names``."""
    distributions = importlib.metadata.packages_distributions()
    out = set()
    for name in names - set(sys.stdlib_module_names) - {"rnnschur", "__future__"}:
        assert name in distributions, f"module {name} belongs to no installed distribution"
        out |= {d.lower() for d in distributions[name]}
    return out


def requirements(lines) -> dict[str, str]:
    """{name: constraint}; conda's single '=' is read as pip's '=='."""
    out = {}
    for line in lines:
        name, constraint = re.match(r"^\s*([A-Za-z0-9_.-]+)\s*(.*?)\s*$", line).groups()
        out[name.lower()] = re.sub(r"^=(?!=)", "==", constraint)
    return out


def env_packages(name: str) -> dict[str, str]:
    env = yaml.safe_load((REPO / "envs" / name).read_text())
    lines = []
    for dep in env["dependencies"]:
        lines += dep["pip"] if isinstance(dep, dict) else [dep]
    return requirements(lines)


def test_the_rule_files_are_parsed():
    rules = rule_scripts()
    assert {"train", "ablate", "schur", "figure", "fig_beyond", "claims"} <= set(rules)
    assert rules["train"][0] == TRAINING_ENV and rules["ablate"][0] == "analysis.yaml"
    # The parser sees imports inside functions and through rnnschur modules.
    assert "torch" in imported_top_levels(rules["train"][1])
    assert "scipy" in imported_top_levels(rules["ablate"][1])  # via rnnschur.schur


@pytest.mark.parametrize("rule", sorted(rule_scripts()))
def test_each_rule_env_lists_every_package_its_script_imports(rule):
    env, script = rule_scripts()[rule]
    listed = set(env_packages(env))
    needed = third_party(imported_top_levels(script))
    assert needed <= listed, f"rule {rule}: envs/{env} lacks {sorted(needed - listed)}"


def constraint_pins(name: str = "constraints.txt") -> dict[str, str]:
    lines = [ln for ln in (REPO / name).read_text().splitlines() if ln and not ln.startswith("#")]
    return requirements(lines)


def test_envs_match_the_constraints_exactly():
    pinned = constraint_pins()
    for name, spec in pinned.items():
        assert spec.startswith("=="), f"constraints.txt pins {name} loosely: {spec!r}"
    envs = {n: env_packages(n) for n in ("train.yaml", "analysis.yaml", "external.yaml")}
    for env_name, env in envs.items():
        assert env["python"] == "==3.11", env_name
        for name, spec in env.items():
            if name in ("python", "pip"):
                continue
            assert name in pinned, f"envs/{env_name} has {name}, constraints.txt does not"
            assert spec == pinned[name], (
                f"{name}: constraints {pinned[name]!r}, {env_name} {spec!r}"
            )
    # Every runtime dependency of a job is in some env (the workflow manager's own are not).
    workflow_side = {"snakemake", "pygments"}
    readers_and_tests = {
        "h5py",
        "msgpack",
        "keras",
        "snakedeploy",
        "flax",
        "jax",
        "jaxlib",
        "optax",
    }
    workflow_side |= readers_and_tests  # the extras keras, flax and test: no job imports them
    missing = set(pinned) - workflow_side - {name for env in envs.values() for name in env}
    assert not missing, f"in constraints.txt but in no envs/*.yaml: {sorted(missing)}"


def test_pyproject_ranges_admit_the_pins_and_the_lowest_versions():
    """The core and workflow dependencies are ranges; constraints.txt pins each one inside its
    range, and constraints-lowest.txt pins the core ones at their lower bounds."""
    from packaging.requirements import Requirement

    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    core = [Requirement(r) for r in project["dependencies"]]
    workflow = [Requirement(r) for r in project["optional-dependencies"]["workflow"]]
    pinned, lowest = constraint_pins(), constraint_pins("constraints-lowest.txt")
    assert {r.name for r in core} == {"numpy", "scipy", "pandas", "matplotlib", "pyyaml"}
    assert not {"torch", "snakemake", "neurogym"} & {r.name for r in core}
    for requirement in core + workflow:
        assert requirement.name in pinned, requirement
        assert requirement.specifier.contains(pinned[requirement.name][2:]), requirement
    for requirement in core:
        version = lowest[requirement.name][2:]
        assert requirement.specifier.contains(version), (requirement, version)
        bound = next(s.version for s in requirement.specifier if s.operator == ">=")
        assert version.startswith(bound + "."), (requirement, version)


BLOCK_TORCH = """
import importlib.abc, runpy, sys
class NoTorch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("torch", "neurogym"):  # neurogym imports torch
            raise ImportError(f"{name} imported by an analysis job")
sys.meta_path.insert(0, NoTorch())
exec(sys.stdin.read())
"""


def script_imports(script: Path) -> str:
    """The module-level import statements of a rule script, as source."""
    tree = ast.parse(script.read_text())
    return "\n".join(
        ast.unparse(node) for node in tree.body if isinstance(node, ast.Import | ast.ImportFrom)
    )


def run_blocked(source: str, **env) -> subprocess.CompletedProcess:
    """``source`` run with torch and neurogym imports blocked."""
    return subprocess.run(
        [sys.executable, "-c", BLOCK_TORCH],
        input=source,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(SRC), **env},
    )


def test_only_training_scripts_need_torch():
    analysis = {r: s for r, (env, s) in rule_scripts().items() if env not in TORCH_ENVS}
    assert len(analysis) > 20
    result = run_blocked("\n".join(script_imports(s) for s in analysis.values()), MPLBACKEND="Agg")
    assert result.returncode == 0, result.stderr[-3000:]
    # The hook does block them: torch and NeuroGym fail.
    assert "torch imported by an analysis job" in run_blocked("import torch").stderr
    assert "neurogym imported by an analysis job" in run_blocked("import neurogym").stderr
    for env_name in {env for env, _ in rule_scripts().values()} - set(TORCH_ENVS):
        assert "torch" not in env_packages(env_name)


def test_the_python_api_on_arrays_needs_no_torch(tmp_path):
    """rnnschur.analyse on an .npz model and held-out set, with torch and NeuroGym blocked."""
    rng = np.random.default_rng(0)
    np.savez(
        tmp_path / "m.npz",
        W_xh=rng.standard_normal((6, 2)),
        W_hh=0.4 * rng.standard_normal((6, 6)),
        W_hy=rng.standard_normal((1, 6)),
    )
    np.savez(
        tmp_path / "h.npz",
        inputs=rng.standard_normal((8, 5, 2)),
        targets=rng.standard_normal((8, 5, 1)),
    )
    source = (
        "import rnnschur\n"
        f"r = rnnschur.analyse({str(tmp_path / 'm.npz')!r}, {str(tmp_path / 'h.npz')!r})\n"
        f"r.save({str(tmp_path / 'out')!r})\n"
    )
    result = run_blocked(source, MPLBACKEND="Agg")
    assert result.returncode == 0, result.stderr[-3000:]
    assert (tmp_path / "out" / "verdicts.csv").is_file()


def test_the_library_never_imports_snakemake():
    """Every module of rnnschur (but the torch-only ones) imports with snakemake unimportable."""
    source = textwrap.dedent(
        """\
        import importlib, pkgutil, sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] == "snakemake":
                    raise ImportError("snakemake imported by the library")
        sys.meta_path.insert(0, Block())
        import rnnschur
        for m in pkgutil.walk_packages(rnnschur.__path__, "rnnschur."):
            if m.name.split(".")[-1] not in ("torch_module", "__main__"):
                importlib.import_module(m.name)
        print("imported", len(sys.modules))
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", source],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(SRC), "MPLBACKEND": "Agg"},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "imported" in result.stdout
