"""Per-seed values as long tables of their own, never as text in a CSV cell.

A summary table (the claims, the paper's numbers beside ours, the gap study) keeps each row's
per-seed values in memory as a dict {seed: value} (column ``per_seed``); on disk they are a
second table, one row per row and seed: the row's keys, ``seed`` and ``value``."""

from __future__ import annotations

import os

import pandas as pd

from rnnschur import io

MODEL_KEYS = ("task", "construction", "n_hidden", "seed")
"""A trained model's identity, the columns every per-model table opens with (its task or task
instance, construction, N_h and seed index); ``[*MODEL_KEYS]`` where pandas wants a list."""


def long_values(table: pd.DataFrame, keys: list[str], column: str = "per_seed") -> pd.DataFrame:
    """The values of ``table``'s ``column`` (per row a dict {seed: value}) as a long table: one
    row per row and seed, its ``keys``, ``seed`` and ``value``."""
    rows = (
        [
            {**{k: getattr(r, k) for k in keys}, "seed": int(seed), "value": float(value)}
            for r in table.itertuples(index=False)
            for seed, value in getattr(r, column).items()
        ]
        if column in table
        else []
    )
    return pd.DataFrame(rows, columns=[*keys, "seed", "value"])


def save(
    path: str | os.PathLike,
    values_path: str | os.PathLike,
    table: pd.DataFrame,
    keys: list[str],
    column: str = "per_seed",
) -> None:
    """Write ``table`` without its per-seed ``column`` to ``path`` and that column as a long
    table (:func:`long_values`, by ``keys``) to ``values_path``, each atomically; a structure
    left in another column (a dict, a list) is refused before anything is written."""
    flat = table.drop(columns=column, errors="ignore")  # an empty table has no columns
    for name in flat.columns:
        cells = flat[name]
        if cells.dtype.kind == "O" and any(isinstance(v, dict | list | tuple | set) for v in cells):
            raise ValueError(f"{path}: column {name!r} holds structures; write it long")
    io.save_csv(values_path, long_values(table, keys, column))
    io.save_csv(path, flat)
