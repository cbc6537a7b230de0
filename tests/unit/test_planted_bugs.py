"""bench/planted_bugs.py plants each bug by replacing one text of the source: every such text
still occurs exactly once (a refactor that moves the code must move its bug too, or the bench
raises on that bug instead of testing it)."""

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("planted_bugs", ROOT / "bench/planted_bugs.py")
planted_bugs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(planted_bugs)


@pytest.mark.parametrize("k", range(len(planted_bugs.BUGS)))
def test_each_planted_bug_finds_its_text_once(k):
    path, old, new, what = planted_bugs.BUGS[k]
    assert old != new, what
    assert (ROOT / path).read_text().count(old) == 1, f"bug {k} ({what}) in {path}"
