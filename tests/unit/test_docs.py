"""The documentation a newcomer reads: a README of at most 200 lines that links its topic pages,
each page with a table of contents, and no link to a file or a heading that is not there."""

import re
import shutil
import warnings

import pytest

from rnnschur.settings.schema import SCHEMA

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
    pages = [p for p in (REPO / "docs").glob("**/*.md") if "templates" not in p.parts]
    documents = [REPO / "README.md", REPO / "CONTRIBUTING.md", *pages]  # a template: README's
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


def test_the_readme_opens_with_the_confirmatory_result_in_one_screen():
    """README before its first figure: at most 300 words (as ``wc -w`` counts them), the
    preregistered fresh seeds' tally first, then the full-model FVUs beside the paper's, then
    one table of at most six columns whose rows take at most 200 characters, a word on each;
    Figures 1 and 2 right after; no internal id."""
    text = (REPO / "README.md").read_text()
    screen = text[: text.index("![")]
    assert len(screen.split()) <= 300, len(screen.split())
    assert screen.index("fresh seeds") < screen.index("FVU") < screen.index("| [claim](")
    assert re.search(r"of \d+ data claims,\s+\d+ reproduce", screen)
    rows = [line for line in screen.splitlines() if " | " in line and not line.startswith("---")]
    header, body = rows[0], rows[1:]
    assert header.count("|") + 1 <= 6 and all(line.count("|") == header.count("|") for line in body)
    assert max(len(line) for line in rows) <= 200
    tasks = {line.split(" | ")[0] for line in body}
    assert {"copy", "flip-flop", "sine", "context"} <= tasks
    words = ("**reproduces**", "**partly**", "**does not reproduce**", "**untestable**")
    assert all(any(w in line for w in words) for line in body)
    after = text[text.index("![") :].split("\n\n", 1)[0]
    assert "figures/fig1_copy_ablation_paper.png" in after
    assert "figures/fig2_neuro_ablation_paper.png" in after
    assert not re.search(r"\b(table1|copy|sine|flip_flop|context)_\w+", screen)  # no claim ids


def test_every_config_key_a_report_caption_names_is_in_the_config():
    """A caption that names ``section.key`` names a key of the config schema (captions once
    said ``claims.fragile_effect`` long after the key was gone)."""
    import yaml

    schema = yaml.safe_load(SCHEMA.read_text())
    named = set()
    for caption in (REPO / "workflow" / "report").glob("*.rst"):
        named |= set(re.findall(r"``([a-z_]+(?:\.[a-z_]+)+)``", caption.read_text()))
    keys = {k for k in named if not k.endswith((".md", ".csv", ".pdf", ".npz", ".json"))}
    assert len(keys) >= 5  # the captions do name keys
    for key in sorted(keys):
        node = schema
        for part in key.split("."):
            properties = node.get("properties", {})
            assert part in properties, f"{key}: not a key of the config schema"
            node = properties[part]


def framework_examples() -> dict[str, str]:
    """docs/your_network.md's code block after each ``<!-- framework-example: NAME -->``."""
    text = (REPO / "docs" / "your_network.md").read_text()
    found = re.findall(r"<!-- framework-example: (\w+) -->\s*```python\n(.*?)```", text, re.S)
    return dict(found)


@pytest.mark.parametrize("framework", ["torch", "nn4n", "psychrnn", "keras", "flax"])
def test_each_frameworks_example_runs_as_written_and_is_verified(framework, tmp_path, monkeypatch):
    """The page's setup block, then the framework's block, as written, in a fresh folder
    (holding a copy of examples/psychrnn): its network read from its own save file and
    verified against its framework's outputs. Flax only where it is installed."""
    if framework == "flax":
        pytest.importorskip("flax")
    blocks = framework_examples()
    assert set(blocks) == {"setup", "torch", "nn4n", "psychrnn", "keras", "flax"}
    shutil.copytree(REPO / "examples" / "psychrnn", tmp_path / "examples" / "psychrnn")
    monkeypatch.chdir(tmp_path)
    namespace = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an untrained network's score, a note on PsychRNN's file
        exec(blocks["setup"] + "\n" + blocks[framework], namespace)
    verification = namespace["result"].verification
    assert verification.verified and verification.error < 1e-5, verification.line()
