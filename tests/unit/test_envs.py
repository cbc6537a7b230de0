"""The conda environments of the rules stay true to pyproject.toml."""

import re
import tomllib

import yaml

from conftest import REPO


def requirements(lines):
    """{name: constraint}; conda's single '=' is read as pip's '=='."""
    out = {}
    for line in lines:
        name, constraint = re.match(r"^\s*([A-Za-z0-9_.-]+)\s*(.*?)\s*$", line).groups()
        out[name.lower()] = re.sub(r"^=(?!=)", "==", constraint)
    return out


def env_packages(name):
    env = yaml.safe_load((REPO / "envs" / name).read_text())
    lines = []
    for dep in env["dependencies"]:
        lines += dep["pip"] if isinstance(dep, dict) else [dep]
    return requirements(lines)


def test_envs_match_pyproject():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    pinned = requirements(project["dependencies"])
    train, analysis = env_packages("train.yaml"), env_packages("analysis.yaml")
    # Every runtime dependency of a job is in an environment, with the same constraint.
    for name, spec in pinned.items():
        if name in ("snakemake", "pygments", "pyyaml"):  # the workflow manager's side
            continue
        envs = [e for e in (train, analysis) if name in e]
        assert envs, f"{name} is in pyproject.toml but in no envs/*.yaml"
        for env in envs:
            assert env[name] == spec, f"{name}: pyproject {spec!r}, env {env[name]!r}"
    assert train["torch"] == "==2.13.0" and "torch" not in analysis
    assert train["python"] == analysis["python"] == "==3.11"
