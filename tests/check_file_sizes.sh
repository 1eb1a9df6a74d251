#!/usr/bin/env bash
# Source files of src/ stay small enough to read in one sitting: none above 600 lines.
# SPDX-License-Identifier: MIT
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
limit=600
over=$(find "$root/src" -name '*.[ch]' -exec wc -l {} + | awk -v l=$limit '$2 != "total" && $1 > l')
if [ -n "$over" ]; then
    echo "files of src/ above $limit lines (split them by concern):"
    echo "$over"
    exit 1
fi
echo "every file of src/ has at most $limit lines"
