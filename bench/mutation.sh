#!/usr/bin/env bash
# Mutation testing of the science modules: mutmut changes one thing at a time (a flipped sign, an
# off-by-one, a changed constant) in schur.py, ablation.py, metrics.py, rnn.py, claims.py and the
# task generators, runs the unit tests against each mutant, and counts the mutants they kill.
# Not part of CI (it runs the unit tests hundreds of times); the configuration is
# [tool.mutmut] in pyproject.toml. Usage: bash bench/mutation.sh   (then `mutmut browse`)
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf mutants
mutmut run --max-children 2 || true
mutmut results --all true | awk '{print $NF}' | sort | uniq -c
