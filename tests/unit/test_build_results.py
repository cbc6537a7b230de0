"""`python docs/build_results.py --check DIR` on planted runs: the published tables themselves,
and one with a changed number."""

import importlib.util

from conftest import REPO

spec = importlib.util.spec_from_file_location("build_results", REPO / "docs" / "build_results.py")
build_results = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build_results)


def published_table(lines: list[str], header_start: str) -> list[str]:
    start = next(k for k, line in enumerate(lines) if line.startswith(header_start))
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return lines[start:end]


def test_check_reports_equal_and_the_row_that_differs(tmp_path, capsys):
    document = tmp_path / "results.md"
    table = ["| claim | value |", "|---|---|", "| copy −T_CC harmless | 0.012 |", "| sine | 1.5 |"]
    document.write_text("# Results\n\n" + "\n".join(table) + "\n\ntext\n")
    run = tmp_path / "run"
    (run / "tables").mkdir(parents=True)
    (run / "tables" / "claims.md").write_text("\n".join(table) + "\n")
    assert build_results.check(run, document) == 0
    assert "equal (2 rows compared" in capsys.readouterr().out

    changed = [*table[:3], "| sine | 1.25 |"]
    (run / "tables" / "claims.md").write_text("\n".join(changed) + "\n")
    assert build_results.check(run, document) == 1
    out = capsys.readouterr().out
    assert "claims.md row 2 (sine): largest numeric difference 0.25" in out
    assert "1 rows differ" in out


def test_the_published_document_agrees_with_itself(tmp_path, capsys):
    """Every checked table of docs/results.md, written out as a run's table, checks equal."""
    lines = (REPO / "docs" / "results.md").read_text().splitlines()
    (tmp_path / "tables").mkdir()
    header = published_table(lines, "| claim ")
    (tmp_path / "tables" / "claims.md").write_text("\n".join(header) + "\n")
    assert build_results.check(tmp_path, REPO / "docs" / "results.md") == 0


def test_claims_block_lists_only_the_claims_a_run_tested(tmp_path):
    (tmp_path / "tables").mkdir()
    rows = [
        {"claim": "copy claim", "source": "Figure 1", "n_agree": 0, "n_seeds": 0},
        {"claim": "sine claim", "source": "Figure 2", "n_agree": 7, "n_seeds": 10},
    ]
    import pandas as pd

    pd.DataFrame([r | {"verdict": "holds" if r["n_seeds"] else "not run"} for r in rows]).to_csv(
        tmp_path / "tables" / "claims.csv", index=False
    )
    block = build_results.verdict_summary(tmp_path)
    assert "| sine claim | Figure 2 | 7/10 | **holds** |" in block
    assert "copy claim" not in block and "not run" not in block
