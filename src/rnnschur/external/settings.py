"""What one analysis of a user's model reads: the command's options and
:func:`rnnschur.analyse`'s keywords, each a config key of the workflow's schema with its default
(:func:`rnnschur.settings.schema.default`) and bounds, so a model analysed from a notebook or the
command is read with the settings a workflow run would use."""

from __future__ import annotations

import dataclasses
import functools
import math
import numbers
from dataclasses import dataclass

import numpy as np

from rnnschur.external.task import SCORES
from rnnschur.network.dynamics import SPLITS
from rnnschur.schur import check_alpha
from rnnschur.settings.schema import field as schema_field
from rnnschur.settings.schema import out_of_bounds


@dataclass(frozen=True)
class Settings:
    """What :func:`analyse` uses: the command's options; each default the config schema's for
    the same key (:func:`rnnschur.settings.schema.default`), as a workflow run reads it."""

    score: str = "fvu"
    alpha: float = schema_field("alpha")
    alpha_grid: tuple[float, ...] = schema_field("alpha_grid")
    epsilon: float = schema_field("ablation.epsilon")
    mass_floor: float = schema_field("ablation.mass_floor")
    threshold: float = schema_field("verdicts.threshold")
    level: float = schema_field("verdicts.level")
    n_boot: int = schema_field("solutions.bootstrap")
    subspace_components: int = schema_field("subspace_control.n_components")
    subspace_draws: int = schema_field("subspace_control.n_draws")
    subspace_trials: int = schema_field("subspace_control.n_trials")
    subspace_variance: float = schema_field("subspace_control.variance")
    seed: int = schema_field("base_seed")
    split: str = schema_field("schur_split")
    validation_fraction: float = schema_field("readout_refit.validation_fraction")
    ridge_grid: tuple[float, ...] = schema_field("readout_refit.ridge_grid")
    fixed_points: bool = (
        False  # the fixed-point study (rnnschur.studies.fixed_points), intact and ablated
    )

    @classmethod
    def from_config(cls, config: dict, score: str) -> Settings:
        """The settings of a workflow run's ``config`` for an external model scored by ``score``
        (its entry's): each field read at its config key (a list as a tuple)."""
        given = {}
        for field in dataclasses.fields(cls):
            if "key" in field.metadata:
                value = functools.reduce(dict.get, field.metadata["key"].split("."), config)
                given[field.name] = tuple(value) if isinstance(value, list) else value
        return cls(score=score, **given)

    def config(self) -> dict:
        """The settings as the config gives them: ``{block: {key: value}}`` at each field's
        config key (a tuple as a list), the inverse of :meth:`from_config`."""
        config: dict = {}
        for field in dataclasses.fields(self):
            if "key" in field.metadata:
                *blocks, key = field.metadata["key"].split(".")
                node = functools.reduce(lambda at, block: at.setdefault(block, {}), blocks, config)
                value = getattr(self, field.name)
                node[key] = list(value) if isinstance(value, tuple) else value
        return config

    def __post_init__(self) -> None:
        if self.score not in SCORES:
            raise ValueError(f"score={self.score!r}: must be one of {SCORES}")
        numbers = {
            "alpha": self.alpha,
            "epsilon": self.epsilon,
            "mass_floor": self.mass_floor,
            "threshold": self.threshold,
        }
        numbers |= {f"alpha_grid[{i}]": a for i, a in enumerate(self.alpha_grid)}
        numbers |= {f"ridge_grid[{i}]": lam for i, lam in enumerate(self.ridge_grid)}
        for name, value in numbers.items():
            if not _real(value) or not math.isfinite(value) or value < 0:
                raise TypeError(f"{name}={value!r}: must be a finite number ≥ 0")
        counts = {
            "subspace_components": self.subspace_components,
            "subspace_draws": self.subspace_draws,
            "subspace_trials": self.subspace_trials,
            "n_boot": self.n_boot,
            "seed": self.seed,
        }
        for name, value in counts.items():
            if not isinstance(value, int | np.integer) or isinstance(value, bool) or value < 0:
                raise TypeError(f"{name}={value!r}: must be a whole number ≥ 0")
        if self.split not in SPLITS:
            raise ValueError(f"split={self.split!r}: must be one of {SPLITS}")
        for field in dataclasses.fields(self):  # the config's bounds, from its schema
            if "key" in field.metadata and field.name != "seed":
                value = getattr(self, field.name)
                if (reason := out_of_bounds(field.metadata["key"], value)) is not None:
                    raise ValueError(f"{field.name}={value!r}: {reason}")
        check_alpha(self.alpha, self.alpha_grid)
        if len(set(self.alpha_grid)) < len(self.alpha_grid):
            repeated = sorted({a for a in self.alpha_grid if list(self.alpha_grid).count(a) > 1})
            raise ValueError(f"alpha_grid={list(self.alpha_grid)}: α {repeated} given twice")
        for name in ("level", "subspace_variance"):
            value = getattr(self, name)
            if not (_real(value) and 0 < value < 1):
                raise ValueError(f"{name}={value!r}: must lie in (0, 1)")
        if not (_real(self.validation_fraction) and 0 < self.validation_fraction < 1):
            fraction = self.validation_fraction
            raise ValueError(f"validation_fraction={fraction!r}: must lie in (0, 1)")
        if not self.ridge_grid:
            raise ValueError("ridge_grid=(): give at least one ridge strength")
        if not isinstance(self.fixed_points, bool):
            raise TypeError(f"fixed_points={self.fixed_points!r}: must be True or False")


def _real(value) -> bool:
    """True for a real number (not a bool, a string or None)."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def per_model_settings(settings: Settings) -> dict:
    """The settings of the per-model functions, as the workflow's jobs of an external model read
    them from the config (config ``ablation`` scored on the model's own mask, ``verdicts``,
    ``subspace_control``, ``readout_refit``): the same numbers make the same tables."""
    config = settings.config()
    ablation = {**config["ablation"], "fvu_steps": "masked"}
    return {
        "ablation": ablation,
        "verdicts": config["verdicts"],
        "subspace_control": {
            **config["subspace_control"],
            "alpha": settings.alpha,
            "ablation": ablation,
        },
        "readout_refit": {"alpha": settings.alpha, "ablation": ablation, **config["readout_refit"]},
    }
