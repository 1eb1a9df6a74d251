#!/usr/bin/env python3
"""ncu --csv (one or more metrics) -> per kernel: launches, and every metric of its shortest
and longest launch (by gpu__time_duration.sum). With --index KERNEL_REGEX: print only the
0-based index (among the csv's launches of kernels matching it) of the longest launch."""
import csv, re, sys

rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
h = rows[0]
ki, ii, mi, vi, ui = (h.index(x) for x in ("Kernel Name", "ID", "Metric Name", "Metric Value", "Metric Unit"))
launch = {}
order = []
for r in rows[1:]:
    key = r[ii]
    if key not in launch:
        launch[key] = {"kernel": r[ki].split("(")[0], "m": {}}
        order.append(key)
    launch[key]["m"][r[mi]] = (r[vi], r[ui])
def dur(l):
    v, u = l["m"].get("gpu__time_duration.sum", ("0", "ns"))
    v = float(v.replace(",", ""))
    return v / 1e3 if u in ("ns", "nsecond") else v * 1e3 if u in ("ms", "msecond") else v
if len(sys.argv) > 3 and sys.argv[2] == "--index":
    pat = re.compile(sys.argv[3])
    sel = [k for k in order if pat.search(launch[k]["kernel"])]
    allsel = [k for k in order]
    best = max(sel, key=lambda k: dur(launch[k]))
    print(allsel.index(best))
    sys.exit(0)
prefix = sys.argv[2] if len(sys.argv) > 2 else ""
by = {}
for k in order:
    by.setdefault(launch[k]["kernel"][:60], []).append(launch[k])
for name, ls in by.items():
    ls.sort(key=dur)
    print(f"{prefix} {name}: {len(ls)} launches, median {dur(ls[len(ls)//2]):.1f} us")
    for tag, l in (("shortest", ls[0]), ("longest", ls[-1])):
        print(f"{prefix}   {tag}: " + ", ".join(f"{m} {v} {u}" for m, (v, u) in sorted(l["m"].items())))
