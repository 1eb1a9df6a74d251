#!/usr/bin/env python3
"""Counts the SASS instructions of each force kernel's innermost loop, per interaction.

Usage: cuobjdump --dump-sass BINARY | python3 bench/sass_count.py
The innermost loop is the shortest backward branch whose body holds a MUFU.RSQ; the
interactions it does per trip are its MUFU.RSQ count plus its SHF count (one reciprocal
square root per pair: on the MUFU unit, or in software, whose bit-level first guess holds
the loop's only shift).
"""
import collections
import re
import sys

FUNC = re.compile(r"Function : (\S+)")
INSN = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)(.*?);")


def kernels(text):
    name, body = None, []
    for line in text.splitlines():
        m = FUNC.search(line)
        if m:
            if name:
                yield name, body
            name, body = m.group(1), []
            continue
        m = INSN.search(line)
        if m and name:
            body.append((int(m.group(1), 16), m.group(3), m.group(4)))
    if name:
        yield name, body


def inner_loop(body):
    best = None
    for addr, op, args in body:
        if op.startswith("BRA"):
            t = re.search(r"0x([0-9a-f]+)", args)
            if not t:
                continue
            target = int(t.group(1), 16)
            if target >= addr:
                continue
            ins = [b for b in body if target <= b[0] <= addr]
            if any(o.startswith("MUFU.RSQ") for _, o, _ in ins):
                if best is None or len(ins) < len(best):
                    best = ins
    return best


def main():
    text = sys.stdin.read()
    print("%-58s %6s %6s %8s  %s" % ("kernel", "insns", "pairs", "per pair", "opcode counts (whole loop)"))
    for name, body in kernels(text):
        if "accel" not in name and "potential" not in name:
            continue
        loop = inner_loop(body)
        if not loop:
            continue
        ops = collections.Counter(o.split(".")[0] for _, o, _ in loop)
        pairs = sum(1 for _, o, _ in loop if o.startswith("MUFU.RSQ") or o.startswith("SHF"))
        desc = " ".join("%s:%d" % kv for kv in ops.most_common())
        print("%-58s %6d %6d %8.3f  %s" % (name[:58], len(loop), pairs, len(loop) / pairs, desc))


if __name__ == "__main__":
    main()
