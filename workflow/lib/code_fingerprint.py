"""The library code a rule's script runs, as one fingerprint for the rule's params.

Snakemake reruns a job when its script changes (the code trigger) but cannot see the library
the script imports: a fix in ``src/rnnschur`` would leave yesterday's tables in place. A rule
carries ``code=fingerprint(...)`` in its params instead, so that an edit reruns exactly the jobs
whose results it can change (the params trigger):

- the modules of ``rnnschur`` the script imports, followed through their own imports
  (module-level and inside functions, so lazy imports count; of the top package's
  ``__init__`` only its module level, unless the script imports ``rnnschur`` itself: its lazy
  ``rnnschur.analyse`` is a user's entry point), every package ``__init__`` on the way, and
  any module named explicitly (a task's generator, which the registry imports by
  name at run time);
- each module as its syntax tree without docstrings: an edit of a comment, a docstring or the
  layout changes nothing, a change of code changes the fingerprint;
- for a module given with a function (a figure's drawing function in
  ``rnnschur.report.figures``, an analysis's summary in ``rnnschur.studies.beyond.summaries``),
  only that function, the module-level names it uses (functions, classes, constants, followed
  transitively) and the module's imports and other top-level statements, and only the modules
  those import, so that editing one figure reruns that figure alone and editing one study
  reruns no other study's summary.

Only what the workflow needs lives here (``workflow/lib``); the library never imports it.
"""

from __future__ import annotations

import ast
import functools
import hashlib
from pathlib import Path

PACKAGE = "rnnschur"


_BLOCKS = (ast.stmt, ast.excepthandler, ast.match_case)


def _statements(tree: ast.AST):
    """Every statement of ``tree`` (``tree`` first), with the except-handlers and match cases
    that hold statements: the nodes a docstring, a definition or an import can be, without
    visiting an expression (a fifth of the nodes ``ast.walk`` visits)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        for _, value in ast.iter_fields(node):
            if isinstance(value, list) and value and isinstance(value[0], _BLOCKS):
                todo.extend(reversed(value))


def _without_docstrings(tree: ast.AST) -> ast.AST:
    """``tree`` with the docstring of every module, class and function removed (in place)."""
    for node in _statements(tree):
        body = getattr(node, "body", None)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                if isinstance(body[0].value.value, str):
                    node.body = body[1:] or [ast.Pass()]
    return tree


@functools.cache
def _parse(path: Path) -> ast.Module:
    return _without_docstrings(ast.parse(path.read_text(), filename=str(path)))


@functools.cache
def _path(src: Path, module: str) -> Path | None:
    """The file of ``module`` under ``src`` (a module or a package's ``__init__``), or None."""
    base = src.joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


@functools.cache
def _imported(tree: ast.AST, src: Path) -> frozenset[str]:
    """The ``rnnschur`` modules ``tree`` imports (``from rnnschur import x`` names module
    ``rnnschur.x`` where it is one), with every package on the way. Cached by the tree (each
    module's is parsed once, :func:`_parse`): a workflow asks for some hundred fingerprints."""
    found = set()
    for node in _statements(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module]
            names += [
                f"{node.module}.{a.name}"
                for a in node.names
                if _path(src, f"{node.module}.{a.name}") is not None
            ]
        for name in names:
            if name == PACKAGE or name.startswith(PACKAGE + "."):
                parts = name.split(".")
                found.update(".".join(parts[: k + 1]) for k in range(len(parts)))
    return frozenset(m for m in found if _path(src, m) is not None)


def closure(
    script: Path, src: Path, extra: tuple[str, ...] = (), only: dict | None = None
) -> list[str]:
    """Every ``rnnschur`` module ``script`` runs: its imports, followed transitively, and
    ``extra`` (with their own imports); sorted. Of a module of ``only`` ({module: [function]}),
    only the imports of those functions' parts (:func:`_function_nodes`) are followed: another
    function's lazy import is not code the script runs."""
    only = only or {}
    seen: set[str] = set()
    own = _parse(script)
    bare = any(
        isinstance(n, ast.Import) and any(a.name == PACKAGE for a in n.names)
        for n in _statements(own)
    )
    todo = set(_imported(own, src)) | set(extra)
    for name in extra:
        parts = name.split(".")
        todo |= {".".join(parts[: k + 1]) for k in range(len(parts) - 1)}
    while todo:
        module = todo.pop()
        if module in seen or _path(src, module) is None:
            continue
        seen.add(module)
        tree = _parse(_path(src, module))
        if module in only:
            tree = ast.Module(body=_function_nodes(tree, only[module]), type_ignores=[])
        if module == PACKAGE and not bare:  # its module level only (a lazy user entry point)
            top = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
            tree = ast.Module(body=top, type_ignores=[])
        todo |= _imported(tree, src) - seen
    return sorted(seen)


def _function_nodes(tree: ast.Module, names: list[str]) -> list[ast.stmt]:
    """Functions of a module as the fingerprint sees them: the functions ``names``, the
    module-level definitions they name (followed transitively) and every top-level statement
    that defines nothing of its own (imports, a backend switch), in the module's order."""
    defined = {}
    other = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            defined[node.name] = node
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for leaf in ast.walk(target):
                    if isinstance(leaf, ast.Name):
                        defined[leaf.id] = node
        else:
            other.append(node)
    missing = [name for name in names if name not in defined]
    if missing:
        raise KeyError(f"{missing[0]!r} is not defined at the top level of the module")
    keep, todo = {}, list(names)
    while todo:
        current = todo.pop()
        node = defined[current]
        if id(node) in keep:
            continue
        keep[id(node)] = node
        todo += [n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id in defined]
    return [n for n in tree.body if id(n) in keep or n in other]


@functools.cache
def _dump(path: Path) -> str:
    """A whole module as the fingerprint sees it (its tree without docstrings, dumped)."""
    return ast.dump(_parse(path))


@functools.cache
def fingerprint(script: Path, src: Path, extra: tuple[str, ...] = (), functions: tuple = ()) -> str:
    """The fingerprint of the library code ``script`` runs (module docstring): the
    ``rnnschur`` modules of :func:`closure` (with ``extra``), each as its syntax tree without
    docstrings, except the modules of ``functions`` ((module, function) pairs), of which only
    those functions' parts count; 16 hex digits."""
    only: dict[str, list[str]] = {}
    for module, name in functions:
        only.setdefault(module, []).append(name)
    digest = hashlib.sha256()
    for module in closure(script, src, extra, only):
        tree = _parse(_path(src, module))
        if module in only:
            part = "\n".join(
                ast.dump(node) for name in only[module] for node in _function_nodes(tree, [name])
            )
        else:
            part = _dump(_path(src, module))
        digest.update(f"{module}\n{part}\n".encode())
    return digest.hexdigest()[:16]
