"""The published pages' budget of words, and where their sentences are written: the pages that
docs/build_results.py generates (docs/quick.md, docs/results.md, docs/results/*.md) keep their
share of the 30,000 words README.md, docs/*.md and docs/results/*.md may hold together, no page
over 5,000, their long listings CSV tables they link (docs/data/); no library function
exists only to write the pages' text (that is docs/readings/'s), and none writes sentences at
all (a run's own are its templates', workflow/templates/)."""

import ast
import re
from pathlib import Path

import listings

from conftest import REPO

GENERATED_BUDGET, PAGE_BUDGET = 14_000, 5_000
"""The generated pages' share of the 30,000 words, and the most words one page may hold."""


def words(path: Path) -> int:
    """The words of a page as ``wc -w`` counts them (runs of characters between white space)."""
    return len(path.read_bytes().split())


def generated_pages() -> list[Path]:
    docs = REPO / "docs"
    return [docs / "quick.md", docs / "results.md", *sorted((docs / "results").glob("*.md"))]


def test_the_generated_pages_keep_their_share_of_the_word_budget():
    counts = {p.relative_to(REPO).as_posix(): words(p) for p in generated_pages()}
    assert len(counts) >= 10
    assert sum(counts.values()) <= GENERATED_BUDGET, counts
    assert {p: n for p, n in counts.items() if n > PAGE_BUDGET} == {}


def test_a_generated_page_links_its_long_tables_as_csv_files():
    """No Markdown table of more than :data:`listings.LONG_TABLE` rows on a generated page;
    each CSV a page links is there and turns back into a Markdown table."""
    for page in generated_pages():
        lines = page.read_text().splitlines()
        long = [
            lines[start]
            for start, end in listings.tables(lines)
            if end - start - 2 > listings.LONG_TABLE
        ]
        assert long == [], page.name
        for target in re.findall(r"\]\(([^)\s]+\.csv)\)", page.read_text()):
            rows = listings.read_csv(page.parent / target)
            assert len(rows) >= 2 and listings.markdown(rows)[1].startswith("|---"), target


def test_a_result_block_links_its_long_tables_as_csv_files():
    """The blocks docs/build_results.py writes into the hand-written pages: no table of more
    than :data:`listings.LONG_TABLE` rows, but in the blocks it keeps in place."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_results", REPO / "docs/build_results.py")
    build_results = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_results)
    checked = 0
    for page, names in build_results.BLOCK_FILES.items():
        text = (REPO / page).read_text()
        for name in set(names) - set(build_results.KEPT_IN_PLACE):
            lines = build_results.block_content(text, name).splitlines()
            spans = listings.tables(lines)
            assert all(end - start - 2 <= listings.LONG_TABLE for start, end in spans), name
            checked += 1
    assert checked >= 10


def page_only_text_functions(src: Path, writers: list[Path], users: list[Path]) -> list[str]:
    """The functions of the library in ``src`` (``rnnschur``) that return text (annotated
    ``-> str``), that a page writer of ``writers`` imports, and that no file of ``users``
    (the library itself, the workflow, the benchmarks) uses: text written for the pages
    alone."""
    imported = {}
    for path in writers:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rnnschur"):
                for alias in node.names:
                    imported[alias.name] = node.module
    used = set()
    for path in users:
        text = path.read_text()
        if path.suffix != ".py":  # a Snakefile or a rule file: its words
            used |= set(re.findall(r"\w+", text))
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Name):
                used.add(node.id)
            elif isinstance(node, ast.Attribute):
                used.add(node.attr)
    found = []
    for name, module in sorted(imported.items()):
        parts = module.split(".")[1:]
        path = src.joinpath(*parts).with_suffix(".py")
        if not path.is_file():
            path = src.joinpath(*parts, "__init__.py")
        if not path.is_file():
            continue
        for node in ast.parse(path.read_text()).body:
            if (
                isinstance(node, ast.FunctionDef)
                and node.name == name
                and isinstance(node.returns, ast.Name | ast.Constant)
                and getattr(node.returns, "id", getattr(node.returns, "value", None)) == "str"
                and name not in used
            ):
                found.append(f"{module}.{name}")
    return found


def library_users(root: Path) -> list[Path]:
    return [
        *(root / "src").rglob("*.py"),
        *(root / "workflow").rglob("*.py"),
        *(root / "workflow").rglob("*.smk"),
        root / "Snakefile",
        *(root / "bench").rglob("*.py"),
    ]


def test_no_library_function_writes_text_for_the_pages_alone():
    writers = [*(REPO / "docs").glob("*.py"), *(REPO / "docs").rglob("readings/*.py")]
    assert len(writers) >= 3
    src = REPO / "src" / "rnnschur"
    assert page_only_text_functions(src, writers, library_users(REPO)) == []
    assert not (src / "report" / "readings.py").exists()


SENTENCE = re.compile(r"(?:^|[.:;] )[A-Z][\w'’]*(?:[,;:]? [\w'’()−-]+){3,}\.(?:\s|$)")
"""A sentence in a string: a capitalised word and at least three more, then a full stop."""
MESSAGES = {"warn", "warning", "error", "info", "print", "exit"}
"""Calls whose text is a message to the person running the code, not a page's."""


def sentence_writers(src: Path) -> list[str]:
    """The functions of the library in ``src`` that write sentences: annotated ``-> str``,
    building no table (no call of ``markdown`` or ``table_lines``: a table's one line of key is
    the table's), with a :data:`SENTENCE` among their strings, their docstring, exceptions,
    assertions and :data:`MESSAGES` aside."""
    found = []
    for path in sorted(src.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for function in ast.walk(tree):
            returns = getattr(function, "returns", None)
            if not isinstance(function, ast.FunctionDef) or getattr(returns, "id", "") != "str":
                continue
            aside, table = set(), False
            if ast.get_docstring(function) is not None:
                aside.add(id(function.body[0].value))
            for node in ast.walk(function):
                called = isinstance(node, ast.Call) and getattr(
                    node.func, "attr", getattr(node.func, "id", "")
                )
                if isinstance(node, ast.Raise | ast.Assert) or (
                    called and (called in MESSAGES or called.endswith("Error"))
                ):
                    aside |= {id(inner) for inner in ast.walk(node)}
                table = table or called in ("markdown", "table_lines")
            strings = [
                node.value
                for node in ast.walk(function)
                if isinstance(node, ast.Constant) and isinstance(node.value, str)
            ]
            ids = [
                id(node)
                for node in ast.walk(function)
                if isinstance(node, ast.Constant) and isinstance(node.value, str)
            ]
            if not table and any(
                SENTENCE.search(s) for s, i in zip(strings, ids, strict=True) if i not in aside
            ):
                module = ".".join(path.relative_to(src.parent).with_suffix("").parts)
                found.append(f"{module}.{function.name}")
    return found


def test_no_library_function_writes_sentences():
    """The atlas's sentences and the paper-vs-reproduced lines are the rule scripts' templates'
    (workflow/templates/), filled with the numbers the library computes."""
    assert sentence_writers(REPO / "src" / "rnnschur") == []


def test_the_rule_finds_a_planted_sentence(tmp_path):
    """Planted: a library function returning a sentence is found, used by the workflow or not;
    one that builds a table under its key line, or raises the sentence, is not."""
    src = tmp_path / "rnnschur"
    (src / "report").mkdir(parents=True)
    (src / "report" / "words.py").write_text(
        "def summary(n: int) -> str:\n"
        '    """What it says."""\n'
        "    return 'No claim of the paper holds here.'\n\n\n"
        "def keyed(n: int) -> str:\n"
        "    return markdown(n) + 'Each row is one claim of the paper.'\n\n\n"
        "def refused(n: int) -> str:\n"
        "    raise ValueError('The value is not a number here.')\n\n\n"
        "def fine(n: int) -> str:\n"
        "    return f'{n} claims'\n"
    )
    assert sentence_writers(src) == ["rnnschur.report.words.summary"]


def test_the_rule_finds_a_planted_sentence_writer(tmp_path):
    """Planted: a library function returning a sentence that only a page writer imports is
    found; the same function used by a workflow script is not."""
    src = tmp_path / "src" / "rnnschur"
    (src / "report").mkdir(parents=True)
    (src / "report" / "words.py").write_text(
        "def summary(n: int) -> str:\n    return f'{n} claims hold'\n\n\n"
        "def table(n: int) -> list:\n    return [n]\n"
    )
    writer = tmp_path / "docs" / "build.py"
    writer.parent.mkdir()
    writer.write_text("from rnnschur.report.words import summary, table\n")
    script = tmp_path / "workflow" / "scripts" / "job.py"
    script.parent.mkdir(parents=True)
    script.write_text("x = 1\n")
    (tmp_path / "Snakefile").write_text("rule all:\n")
    users = library_users(tmp_path)
    assert page_only_text_functions(src, [writer], users) == ["rnnschur.report.words.summary"]
    script.write_text("from rnnschur.report.words import summary\n\nprint(summary(3))\n")
    assert page_only_text_functions(src, [writer], library_users(tmp_path)) == []
