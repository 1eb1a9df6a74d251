#!/usr/bin/env bash
# Runs a snapshot check with a Python that has the modules it needs: python3 on PATH (a
# virtual environment's; pyenv's may lack them) or Debian's /usr/bin/python3. None: skipped
# (77), which CTest reports as not run, never as passed.
# Usage: with_python.sh "MODULE ..." SCRIPT ARGS... (SCRIPT relative to this folder)
# SPDX-License-Identifier: MIT
set -u
here="$(cd "$(dirname "$0")" && pwd)"
modules=$1 script=$2
shift 2
imports=$(echo "$modules" | tr ' ' ',')
for py in python3 /usr/bin/python3; do
    if command -v "$py" >/dev/null 2>&1 && "$py" -c "import $imports" 2>/dev/null; then
        exec "$py" "$here/$script" "$@"
    fi
done
echo "SKIP: no python3 with $modules (Debian: python3-h5py; pynbody: pip install pynbody," \
    "in a virtual environment)"
exit 77
