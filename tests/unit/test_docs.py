"""The documentation a newcomer reads: a README of at most 200 lines that links its topic pages,
each page with a table of contents, and no link to a file or a heading that is not there."""

import re

from conftest import REPO

PAGES = ("usage", "your_network", "paper", "tasks", "atlas", "beyond", "numerics")


def anchors(text: str) -> set[str]:
    """GitHub's anchors of a Markdown text's headings, and its explicit ``<a id="...">``."""
    return {
        re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
        for line in text.splitlines()
        if line.startswith("#")
    } | set(re.findall(r'<a id="([^"]+)"></a>', text))


def test_the_readme_is_short_and_links_every_topic_page():
    readme = (REPO / "README.md").read_text()
    assert len(readme.splitlines()) <= 200
    for page in PAGES:
        assert f"](docs/{page}.md)" in readme, page
        text = (REPO / "docs" / f"{page}.md").read_text()
        assert "**Contents**" in text and text.startswith("# "), page


def test_every_relative_link_finds_its_file_and_heading():
    documents = [REPO / "README.md", REPO / "CONTRIBUTING.md", *(REPO / "docs").glob("**/*.md")]
    broken = []
    for document in documents:
        for target in re.findall(r"\]\(([^)\s]+)\)", document.read_text()):
            if target.startswith(("http://", "https://")):
                continue
            path, _, anchor = target.partition("#")
            found = (document.parent / path) if path else document
            if not found.exists():
                broken.append(f"{document.name}: {target} (no such file)")
            elif anchor and found.suffix == ".md" and anchor not in anchors(found.read_text()):
                broken.append(f"{document.name}: {target} (no such heading)")
    assert not broken, broken
