#!/usr/bin/env bash
# Runs check_snapshots_pynbody.py with a Python that has pynbody (python3 on PATH, e.g. a
# virtual environment's, or /usr/bin/python3). None: skipped (77), which CTest reports as
# not run, never as passed.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
for py in python3 /usr/bin/python3; do
    if command -v "$py" >/dev/null 2>&1 && "$py" -c "import pynbody, h5py" 2>/dev/null; then
        exec "$py" "$here/check_snapshots_pynbody.py" "$@"
    fi
done
echo "skipped: no python3 with pynbody (pip install pynbody, in a virtual environment)"
exit 77
