"""Long signatures stay few and explained: at most 12 functions outside the task generators
take more than five parameters, and each says in its docstring why it takes no value object
(bench/long_signatures.py lists them)."""

import importlib.util
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("long_signatures", ROOT / "bench/long_signatures.py")
long_signatures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(long_signatures)


def test_at_most_twelve_long_signatures_each_explained():
    rows = long_signatures.long_signatures()
    assert len(rows) <= 12, rows
    unexplained = [(path, name) for _, path, name, why in rows if not why]
    assert not unexplained


def test_the_count_sees_a_planted_long_signature(tmp_path, monkeypatch):
    planted = tmp_path / "src" / "rnnschur" / "planted.py"
    planted.parent.mkdir(parents=True)
    planted.write_text(
        textwrap.dedent(
            '''
            def six(a, b, c, d, e, f):
                """No reason given."""

            def five(a, b, c, d, e):
                pass

            class K:
                def method(self, a, b, c, d, e):
                    pass
            '''
        )
    )
    monkeypatch.setattr(long_signatures, "ROOT", tmp_path)
    assert long_signatures.long_signatures() == [(6, "src/rnnschur/planted.py", "six", False)]
