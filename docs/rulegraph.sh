#!/usr/bin/env bash
# Regenerate docs/rulegraph.svg, the rule graph shown in the README (needs Graphviz's `dot`).
set -euo pipefail
cd "$(dirname "$0")/.."
snakemake --rulegraph --quiet all 2>/dev/null | dot -Tsvg > docs/rulegraph.svg.tmp
mv docs/rulegraph.svg.tmp docs/rulegraph.svg
echo "wrote docs/rulegraph.svg"
