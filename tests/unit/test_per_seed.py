"""Per-seed values on disk (rnnschur.io.per_seed): a long table of their own, on planted
tables."""

import pandas as pd
import pytest

from rnnschur.io import per_seed


def planted():
    return pd.DataFrame(
        {
            "task": ["copy", "sine"],
            "mean": [0.5, 2.0],
            "per_seed": [{0: 0.4, 2: 0.6}, {1: 2.0}],
        }
    )


def test_per_seed_values_are_written_long_never_as_text_in_a_cell(tmp_path):
    """The main CSV keeps every other column, the long one has a row per row and seed."""
    per_seed.save(tmp_path / "t.csv", tmp_path / "t_per_seed.csv", planted(), ["task"])
    main = pd.read_csv(tmp_path / "t.csv")
    assert list(main.columns) == ["task", "mean"] and main["mean"].tolist() == [0.5, 2.0]
    long = pd.read_csv(tmp_path / "t_per_seed.csv")
    assert long.values.tolist() == [["copy", 0, 0.4], ["copy", 2, 0.6], ["sine", 1, 2.0]]


def test_a_structure_left_in_another_column_is_refused_before_anything_is_written(tmp_path):
    table = planted().assign(other=[[1, 2], [3]])
    with pytest.raises(ValueError, match="other"):
        per_seed.save(tmp_path / "t.csv", tmp_path / "t_per_seed.csv", table, ["task"])
    assert not list(tmp_path.iterdir())


def test_an_empty_table_writes_two_empty_tables(tmp_path):
    per_seed.save(tmp_path / "t.csv", tmp_path / "t_per_seed.csv", pd.DataFrame([]), ["task"])
    assert (tmp_path / "t.csv").is_file()
    assert list(pd.read_csv(tmp_path / "t_per_seed.csv").columns) == ["task", "seed", "value"]
