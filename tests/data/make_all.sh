#!/usr/bin/env bash
# Regenerate every numpy-made fixture: runs each tests/data/*/make.py (from
# its own folder) and each tools/gen_*_fixtures.py (into tests/fixtures/) with
# the project's venv python.
#
#   bash tests/data/make_all.sh            # uses $PYTHON, else .venv-ci/bin/python
#   PYTHON=/path/to/python bash tests/data/make_all.sh
#
# If neither exists, .venv-ci is created with numpy from PyPI (as .ci/run does).
# Review `git diff --stat` afterwards: fixtures should only change when a
# make.py changed or numpy's output did.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

py="${PYTHON:-}"
if [ -z "$py" ]; then
    py="$root/.venv-ci/bin/python"
    if [ ! -x "$py" ]; then
        python3 -m venv "$root/.venv-ci"
        "$py" -m pip install --quiet --disable-pip-version-check numpy
    fi
fi
py="$(command -v "$py")"
"$py" -c 'import numpy, sys; print("numpy", numpy.__version__, "on python", sys.version.split()[0])'

shopt -s nullglob
count=0
for script in tests/data/*/make.py; do
    echo "==== $script"
    (cd "$(dirname "$script")" && "$py" make.py)
    count=$((count + 1))
done

# Text fixtures of the header parser: tools/gen_<x>_fixtures.py prints
# tests/fixtures/<x>s.txt. Written through a temporary file so a failing
# generator never leaves a truncated fixture behind.
for tool in tools/gen_*_fixtures.py; do
    name="$(basename "$tool" .py)"
    name="${name#gen_}"
    out="tests/fixtures/${name%_fixtures}s.txt"
    echo "==== $tool > $out"
    mkdir -p tests/fixtures
    "$py" "$tool" > "$out.tmp"
    mv "$out.tmp" "$out"
    count=$((count + 1))
done

if [ "$count" -eq 0 ]; then
    echo "no tests/data/*/make.py or tools/gen_*_fixtures.py found" >&2
    exit 1
fi
echo "==== ran $count generator(s); review with: git status tests/data tests/fixtures"
