"""One small vocabulary: every verdict word the code can write comes from
``rnnschur.studies.verdicts.Verdict``; the glossary's headline words are the two sets the
headline tables use (a claim's words and one solution's reading); the published pages
(README, docs/*.md, docs/results/*.md) use at most 15 verdict words, each defined in the
glossary.

A word is *used* where a page sets it as a verdict: in italics or bold, in quotes, or as a
table cell (alone, or before a count or a note)."""

import re
import sys

import pytest
from readings.reproduction import WORD_ORDER
from readings.words import PAGE_WORDS, SECONDARY

from rnnschur.studies.solutions import NOT_READ, READINGS
from rnnschur.studies.verdicts import Verdict

from conftest import REPO

MOST_WORDS = 15
"""The issue's budget: verdict words on all the published pages together."""
GENERATED = re.compile(r"<!-- ([\w-]+):start -->.*?<!-- \1:end -->", re.S)
"""A block the results script writes (docs/build_results.py)."""


HAND_WRITTEN = (
    "README.md",
    *(
        f"docs/{name}.md"
        for name in (
            "usage",
            "your_network",
            "paper",
            "tasks",
            "atlas",
            "beyond",
            "numerics",
            "glossary",
            "preregistration",
        )
    ),
)
"""The pages written by hand (their marked blocks aside); docs/quick.md, docs/results.md and
docs/results/ are written whole by docs/build_results.py."""


def published_pages() -> list:
    docs = REPO / "docs"
    return [REPO / "README.md", *sorted(docs.glob("*.md")), *sorted(docs.glob("results/*.md"))]


def used_words(text: str, words) -> set[str]:
    """The verdict words among ``words`` that ``text`` sets as verdicts."""
    found = set()
    for word in words:
        w = re.escape(word)
        marked = rf"(?<![\w*])(\*\*?|“|\"){w}(\*\*?|”|\")(?![\w*])"
        cell = rf"\|\s*(\d+/\d+\s+)?{w}(?=\s*(\||\(|\d|:|$))"
        if re.search(marked, text, re.I | re.M) or re.search(cell, text, re.I | re.M):
            found.add(word)
    return found


def glossary_headline() -> list[str]:
    """The words of the glossary's headline tables, in order (``| **word** | ... |`` rows of
    its first section)."""
    text = (REPO / "docs" / "glossary.md").read_text()
    section = text.split("## The headline words", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| \*\*([^*]+)\*\* \|", section, re.M)


def defined_in_glossary() -> set[str]:
    """The words the glossary defines: set in bold."""
    text = (REPO / "docs" / "glossary.md").read_text()
    return {w.lower() for w in re.findall(r"\*\*([^*]+)\*\*", text)}


def test_the_readings_and_the_claims_words_are_verdicts():
    """The one home: a solution's reading and a claim's word are members of Verdict."""
    assert set(READINGS) <= set(Verdict) and set(WORD_ORDER) <= set(Verdict)
    assert not set(READINGS) & set(WORD_ORDER)


MOST_HEADLINE = 8
"""The issue's budget: the words of the glossary's headline tables, both sets together."""


def test_the_glossary_headline_is_the_claim_words_and_the_readings():
    """The glossary's headline tables list exactly the words the code gives a claim and one
    solution's reading of its interval, each once, at most eight in all (4 + 4); the status
    *absent* (no interval read) is defined once beside them, not in a headline table."""
    headline = glossary_headline()
    assert len(headline) == len(set(headline))
    assert set(headline) == {str(w) for w in (*WORD_ORDER, *READINGS)}
    assert len(headline) <= MOST_HEADLINE
    assert str(NOT_READ) not in headline and str(NOT_READ) in defined_in_glossary()


def test_a_ninth_headline_word_breaks_the_budget(tmp_path, monkeypatch):
    """Planted: the glossary with the status *absent* back in the readings' table has nine
    headline words, and the check above fails on it."""
    glossary = (REPO / "docs" / "glossary.md").read_text()
    row = "| **undecided** | the interval straddles θ or −θ |\n"
    assert row in glossary
    planted = glossary.replace(row, row + "| **absent** | the block holds less mass |\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "glossary.md").write_text(planted)
    monkeypatch.setattr(sys.modules[__name__], "REPO", tmp_path)
    assert len(glossary_headline()) == MOST_HEADLINE + 1
    with pytest.raises(AssertionError):
        test_the_glossary_headline_is_the_claim_words_and_the_readings()


def test_the_counting_rule_on_a_planted_page():
    """Italics, bold, quotes and table cells count; the same letters in running prose do not."""
    page = (
        "The block is *fragile*; **partly** read; “holds” here.\n"
        "| copy | reproduces | 3/3 |\n| x | too few learned models (2) |\n"
        "| y | 2/3 underpowered |\n"
        "An empty folder fails to load; nothing improves undecidedly.\n"
    )
    words = [str(w) for w in Verdict]
    assert used_words(page, words) == {
        "fragile",
        "partly",
        "holds",
        "reproduces",
        "too few learned models",
        "underpowered",
    }


def test_the_hand_written_pages_use_only_glossary_words():
    """Outside the results script's blocks, every verdict word a page uses is defined in the
    glossary, and together they stay within the budget."""
    words = [str(w) for w in Verdict]
    defined = defined_in_glossary()
    used = set()
    for page in HAND_WRITTEN:
        used |= used_words(GENERATED.sub("", (REPO / page).read_text()), words)
    assert used <= defined, sorted(used - defined)
    assert len(defined & set(words)) <= MOST_WORDS, sorted(defined & set(words))


def read_pages() -> dict[str, str]:
    """Each published page's text, by its path in the repository."""
    return {page.relative_to(REPO).as_posix(): page.read_text() for page in published_pages()}


def published_words(pages: dict[str, str]) -> set[str]:
    """The verdict words that ``pages`` (name → text) set, together."""
    words = [str(w) for w in Verdict]
    return set().union(*(used_words(text, words) for text in pages.values()))


def within_budget(used: set[str]) -> bool:
    """At most :data:`MOST_WORDS` words, each defined in the glossary."""
    return len(used) <= MOST_WORDS and used <= defined_in_glossary()


def test_the_published_pages_use_at_most_15_verdict_words():
    used = published_words(read_pages())
    assert within_budget(used), sorted(used - defined_in_glossary())


@pytest.mark.parametrize("secondary", [str(w) for w in SECONDARY])
def test_a_secondary_word_planted_on_a_page_breaks_the_budget(secondary):
    """Each word the pages leave to the CSV tables, planted as a table cell on a page, is
    caught: the glossary does not define it."""
    pages = read_pages()
    assert within_budget(published_words(pages))  # as published: within
    pages["docs/paper.md"] += f"\n| flip_flop | −T_CC | **{secondary}** |\n"
    assert not within_budget(published_words(pages))


def test_the_page_words_are_the_glossarys():
    """The page writer's 15 words (what it leaves on a page) are the ones the glossary
    defines."""
    words = {str(w) for w in Verdict}
    assert {str(w) for w in PAGE_WORDS} == defined_in_glossary() & words
    assert len(PAGE_WORDS) == MOST_WORDS
