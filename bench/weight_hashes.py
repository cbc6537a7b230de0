"""Fingerprints of a run's trained weights: the tripwire for any change of the numbers.

For every ``weights.npz`` under ``RESULTS/models``: the sha256 of its arrays in sorted key order,
each in C order, concatenated; the first 12 hex digits, one line per model
(``<task>/<construction>/n<size>/seed<k> <hash>``).

Usage:
  python bench/weight_hashes.py RESULTS                 print the hashes
  python bench/weight_hashes.py RESULTS --write FILE    write them to FILE
  (tests/reference/quick_weights.sha256 holds the quick preset's)
  python bench/weight_hashes.py RESULTS --check FILE    compare with FILE; exit 1 on a difference
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rnnschur.io.provenance import run_hashes


def read_hashes(path: Path) -> dict[str, str]:
    lines = [line.split() for line in path.read_text().splitlines()]
    return {model: value for model, value in lines if not model.startswith("#")}


def compare(found: dict[str, str], expected: dict[str, str]) -> list[str]:
    """Lines naming each model whose hash differs, is missing or is not expected."""
    problems = [
        f"{model}: {found.get(model, 'missing')} (expected {value})"
        for model, value in expected.items()
        if found.get(model) != value
    ]
    return problems + [f"{model}: not in the reference" for model in found if model not in expected]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", type=Path)
    group.add_argument("--check", type=Path)
    args = parser.parse_args()
    found = run_hashes(args.results)
    if not found:
        print(f"{args.results}: no models/*/weights.npz", file=sys.stderr)
        return 2
    text = "".join(f"{model} {value}\n" for model, value in found.items())
    if args.write:
        args.write.parent.mkdir(parents=True, exist_ok=True)
        args.write.write_text(text)
    elif args.check:
        problems = compare(found, read_hashes(args.check))
        print("\n".join(problems) or f"all {len(found)} weight hashes equal {args.check}")
        return 1 if problems else 0
    else:
        print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
