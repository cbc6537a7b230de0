"""The functions of the library, the rule scripts and the workflow's helpers that take more than
five parameters (the task generators apart: a generator's parameters are the task's, one per
config key), and whether their docstring says why they take no value object.

    python bench/long_signatures.py
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 5


def long_signatures():
    """[(parameters, file, function, reason given)] of every function over :data:`LIMIT`."""
    rows = []
    for path in sorted([*ROOT.glob("src/rnnschur/**/*.py"), *ROOT.glob("workflow/**/*.py")]):
        if path.parent.name == "tasks" and path.name != "__init__.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                a = node.args
                names = [x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
                names = [n for n in names if n not in ("self", "cls")]
                if len(names) > LIMIT:
                    doc = ast.get_docstring(node) or ""
                    why = "parameters, not a value object" in doc
                    rows.append((len(names), str(path.relative_to(ROOT)), node.name, why))
    return sorted(rows, reverse=True)


if __name__ == "__main__":
    rows = long_signatures()
    for n, path, name, why in rows:
        print(f"{n:3d}  {path}:{name}{'  (says why)' if why else ''}")
    print(f"{len(rows)} functions take more than {LIMIT} parameters")
