"""The package's shape (CONTRIBUTING, "Where things live"): at most ten rooms, each named in the
map with every module it holds, and imports that run down the layers only (the method ←
studies ← report ← external ← the command), with no circle between rooms."""

import ast
import re
from graphlib import CycleError, TopologicalSorter

import pytest

from rnnschur import tasks

from conftest import REPO

PACKAGE = REPO / "src" / "rnnschur"
FACES = {"__init__.py", "__main__.py"}
LAYER = {
    **dict.fromkeys(["settings", "network", "tasks", "schur", "ablation", "training", "io"], 0),
    "studies": 1,
    "report": 2,
    "external": 3,
    "__init__": 4,  # the package's face: rnnschur.analyse, imported on first use
    "__main__": 4,
}
"""Each room's layer: a room imports only rooms of its layer or below."""


def rooms() -> list[str]:
    """The top-level entries of src/rnnschur besides __init__ and __main__, as named: 'io/',
    'schur.py'."""
    return sorted(
        f"{p.name}/" if p.is_dir() else p.name
        for p in PACKAGE.iterdir()
        if p.name not in FACES
        and p.name != "__pycache__"
        and (p.is_dir() or p.suffix == ".py")
        or p.suffix in (".yaml", ".json")
    )


def the_map() -> str:
    """CONTRIBUTING's map of src/rnnschur: its bullet up to the next top-level bullet."""
    text = (REPO / "CONTRIBUTING.md").read_text()
    start = text.index("- `src/rnnschur/` —")
    end = text.index("\n- ", start + 1)
    return text[start:end]


def room_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def imports(path) -> list[tuple[str, bool]]:
    """(module imported, whether at the module's top level) for every rnnschur import of the
    file at ``path``, lazy ones and those under TYPE_CHECKING included; ``from a import b``
    names ``a.b`` where that is a module of the package, else ``a``."""
    package = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    package = package if path.name == "__init__.py" else package.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text())
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([base] if base else [])])
            names = [
                f"{base}.{a.name}" if module_path(f"{base}.{a.name}") else base for a in node.names
            ]
        else:
            continue
        found += [(name, id(node) in top) for name in names if name.startswith("rnnschur.")]
    return found


def module_path(module: str):
    base = PACKAGE.parent.joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def modules() -> dict[str, object]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def test_at_most_ten_rooms_each_named_in_the_map():
    found = rooms()
    assert len(found) <= 10, found
    named = set(re.findall(r"^  - `([\w.]+/?)`", the_map(), re.M))
    assert named == set(found), (sorted(named - set(found)), sorted(set(found) - named))


def test_the_map_names_every_module_of_every_room():
    """Every module of a room is named in the map (a task's generator module is one of the
    registry's, which the map names as such), and every file the map names exists."""
    text = the_map()
    quoted = re.findall(r"`([^`]+)`", text)
    named = {part for q in quoted for part in re.split(r"[./ (]", q)}
    generators = set(tasks.names())
    missing = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if path.parent != PACKAGE
        and path.name != "__init__.py"
        and path.stem not in named
        and not (path.parent.name == "tasks" and path.stem in generators)
    ]
    assert not missing, missing
    files = {p.name for p in PACKAGE.rglob("*") if p.is_file()}
    for name in (q.rsplit("/", 1)[-1] for q in quoted if q.endswith((".py", ".yaml"))):
        assert name in files, f"the map names {name}, which the package does not hold"


@pytest.mark.parametrize("module", sorted(modules()))
def test_no_import_runs_up_the_layers(module):
    """A room imports only rooms at its layer or below (lazy imports count)."""
    own = room_of(module)
    upward = [
        name
        for name, _ in imports(modules()[module])
        if LAYER[room_of(name)] > LAYER[own] and room_of(name) != "__init__"
    ]
    assert not upward, f"{module} imports {upward} (layer above {own})"


def test_no_circle_between_rooms_or_between_modules_at_import():
    """The rooms' imports (lazy ones too) form no circle, nor do the modules' top-level
    imports."""
    rooms_graph, modules_graph = {}, {}
    for module, path in modules().items():
        for name, at_top in imports(path):
            while name not in modules():
                name = name.rsplit(".", 1)[0]
            if room_of(name) != room_of(module) and room_of(name) != "__init__":
                rooms_graph.setdefault(room_of(module), set()).add(room_of(name))
            if at_top and name != module:
                modules_graph.setdefault(module, set()).add(name)
    for graph in (rooms_graph, modules_graph):
        try:
            tuple(TopologicalSorter(graph).static_order())
        except CycleError as error:
            pytest.fail(f"an import circle: {' -> '.join(error.args[1])}")
