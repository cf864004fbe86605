#!/usr/bin/env bash
# Regenerate every numpy-made fixture under tests/data: runs each
# tests/data/*/make.py (from its own folder) with the project's venv python.
#
#   bash tests/data/make_all.sh            # uses $PYTHON, else .venv-ci/bin/python
#   PYTHON=/path/to/python bash tests/data/make_all.sh
#
# If neither exists, .venv-ci is created with numpy from PyPI (as .ci/run does).
# Review `git diff --stat tests/data` afterwards: fixtures should only change
# when a make.py changed or numpy's output did.
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
scripts=(tests/data/*/make.py)
if [ ${#scripts[@]} -eq 0 ]; then
    echo "no tests/data/*/make.py found" >&2
    exit 1
fi
for script in "${scripts[@]}"; do
    dir="$(dirname "$script")"
    echo "==== $script"
    (cd "$dir" && "$py" make.py)
done
echo "==== regenerated ${#scripts[@]} fixture folder(s)"
