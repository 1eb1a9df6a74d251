#!/usr/bin/env bash
# Runs check_snapshots.py with a Python that has h5py (pyenv's python3 may not; Debian's
# /usr/bin/python3 with python3-h5py does). No such Python: skipped (77).
set -u
here="$(cd "$(dirname "$0")" && pwd)"
for py in python3 /usr/bin/python3; do
    if command -v "$py" >/dev/null 2>&1 && "$py" -c "import h5py, numpy" 2>/dev/null; then
        exec "$py" "$here/check_snapshots.py" "$@"
    fi
done
echo "skipped: no python3 with h5py and numpy (install python3-h5py)"
exit 77
