"""θ's history told the same, true way on every page that tells it: θ and the harm share came
(2026-12-01, 22:37) after the paper-scale, the 10-seed and the 50-seed results had been
published on the raw score change (the 50-seed run on 2026-12-01 at 13:25)."""

import re

from conftest import REPO

RUNS_BEFORE_THETA = ("paper-scale", "10-seed", "50-seed")
"""The runs published on the raw score change before θ existed (git log: 5665a78, 36d7dfa;
θ at 9045904)."""


def history_paragraphs(text: str) -> list[str]:
    """The paragraphs of a page that tell when θ was set: they name θ and the raw score
    change."""
    paragraphs = re.split(r"\n\s*\n", text)
    return [p for p in paragraphs if "θ" in p and "raw score change" in p]


def untrue_pages(pages: dict[str, str]) -> list[str]:
    """The pages (name → text) that tell θ's history without a paragraph naming every run
    published before θ (a frozen page's dated note counts: its older paragraph stays)."""
    untrue = []
    for name, text in pages.items():
        told = history_paragraphs(text)
        if told and not any(all(run in p for run in RUNS_BEFORE_THETA) for p in told):
            untrue.append(name)
    return untrue


def pages_and_templates() -> dict[str, str]:
    docs = REPO / "docs"
    paths = [REPO / "README.md", *docs.glob("*.md"), *docs.glob("results/*.md")]
    paths += [*docs.glob("templates/*.md")]
    return {p.relative_to(REPO).as_posix(): p.read_text() for p in sorted(paths)}


def test_every_page_that_tells_thetas_history_names_the_runs_before_it():
    pages = pages_and_templates()
    told = [name for name, text in pages.items() if history_paragraphs(text)]
    assert {"docs/glossary.md", "docs/preregistration.md", "docs/templates/results.md"} <= set(told)
    assert untrue_pages(pages) == []


def test_a_page_that_forgets_the_50_seed_run_is_found():
    """Planted: the verdicts page's older sentence (θ after the paper-scale and 10-seed
    results) alone is found; with a dated note naming all three beside it, it is not."""
    old = (
        "The threshold θ was set from the paper's own readings after the paper-scale and "
        "10-seed results had been published on the raw score change.\n"
    )
    note = (
        "\nA note (2026-12-05): the 50-seed results had been published too, on the raw score "
        "change, before θ; θ came after the paper-scale, 10-seed and 50-seed results.\n"
    )
    assert untrue_pages({"page.md": old}) == ["page.md"]
    assert untrue_pages({"page.md": old + note}) == []
