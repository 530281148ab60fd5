#!/usr/bin/env python3
"""A flame graph, as an SVG, of `perf script` output read from stdin.

    perf script -i perf.data | scripts/flamegraph.py --title "courtsided, 16 keepers x 32" > graph.svg

Each sample's stack is folded root first under its thread's role (Swift's cooperative pool, the
log writer, the I/O thread, ...), Swift symbols are demangled with `swift demangle --simplified`,
and every frame is a box as wide as its share of the samples (hover for the count). Debian does
not package Brendan Gregg's FlameGraph scripts, and this is all of them the project needs: folding
and one picture, with no dependency beyond Python.
"""
import argparse
import collections
import html
import re
import shutil
import subprocess
import sys

HEADER = re.compile(r"^(\S.*?)\s+(\d+)(?:/(\d+))?\s+")
FRAME = re.compile(r"^\s+[0-9a-f]+\s+(.+?)\s+\((.*)\)$")


def role(thread):
    """The thread's role from its name, as courtside-bench names them."""
    if "qos" in thread:
        return "pool"
    if thread.startswith("ZMQbg"):
        return "libzmq"
    return thread


def samples(lines):
    """Yields (thread, [frame, ...] leaf first) for each sample of perf script's output."""
    thread, frames = None, []
    for line in lines:
        line = line.rstrip("\n")
        if not line.strip():
            if thread is not None:
                yield thread, frames
            thread, frames = None, []
        elif not line[0].isspace():
            match = HEADER.match(line)
            thread, frames = (match.group(1) if match else line.split()[0]), []
        else:
            match = FRAME.match(line)
            if match:
                symbol = re.sub(r"\+0x[0-9a-f]+$", "", match.group(1))
                if symbol == "[unknown]":
                    symbol = "[" + match.group(2).rsplit("/", 1)[-1] + "]"
                frames.append(symbol)
    if thread is not None:
        yield thread, frames


def demangler(symbols):
    """A map of each mangled Swift symbol to its simplified name (unchanged without swift)."""
    mangled = sorted(s for s in symbols if s.startswith(("$s", "_$s")))
    if not mangled or not shutil.which("swift"):
        return {}
    out = subprocess.run(
        ["swift", "demangle", "--simplified"], input="\n".join(mangled), capture_output=True, text=True
    ).stdout.split("\n")
    return dict(zip(mangled, out)) if len(out) >= len(mangled) else {}


def fold(stream):
    stacks = collections.Counter()
    for thread, frames in samples(stream):
        stacks[(role(thread),) + tuple(reversed(frames))] += 1
    names = demangler({frame for stack in stacks for frame in stack})
    folded = collections.Counter()
    for stack, count in stacks.items():
        folded[tuple(names.get(frame, frame) for frame in stack)] += count
    return folded


def tree(folded):
    root = {"count": 0, "children": {}}
    for stack, count in folded.items():
        root["count"] += count
        node = root
        for frame in stack:
            node = node["children"].setdefault(frame, {"count": 0, "children": {}})
            node["count"] += count
    return root


def colour(name):
    """Warm colours, steady per name, so one function reads the same across the picture."""
    h = sum(ord(c) for c in name)
    return "rgb(%d,%d,%d)" % (205 + h % 50, 90 + (h * 7) % 120, 40 + (h * 13) % 50)


def svg(root, title, width=1800, row=17):
    boxes, depth = [], 0
    total = max(root["count"], 1)

    def walk(node, name, x, level):
        nonlocal depth
        w = node["count"] * width / total
        if w < 0.3:
            return
        depth = max(depth, level)
        boxes.append((name, x, level, w, node["count"]))
        child_x = x
        for child_name, child in sorted(node["children"].items()):
            walk(child, child_name, child_x, level + 1)
            child_x += child["count"] * width / total

    walk(root, "all", 0, 0)
    height = (depth + 1) * row + 40
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="monospace" font-size="11">'
        % (width, height),
        '<rect width="100%%" height="100%%" fill="#fdfdf6"/><text x="4" y="16" font-size="14">%s (%d samples)</text>'
        % (html.escape(title), total),
    ]
    for name, x, level, w, count in boxes:
        y = height - (level + 1) * row - 4
        label = html.escape(name)
        share = 100.0 * count / total
        out.append(
            '<g><title>%s: %d samples, %.2f%%</title><rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s" rx="2"/>'
            % (label, count, share, x, y, w, row - 1, colour(name))
        )
        chars = int(w / 6.6)
        if chars >= 3:
            text = name if len(name) <= chars else name[: chars - 2] + ".."
            out.append('<text x="%.1f" y="%d">%s</text>' % (x + 2, y + row - 5, html.escape(text)))
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--title", default="flame graph")
    parser.add_argument("--folded", help="also write the folded stacks (one 'a;b;c count' a line) here")
    args = parser.parse_args()
    folded = fold(sys.stdin)
    if not folded:
        sys.exit("flamegraph.py: no samples on stdin (is it perf script's output?)")
    if args.folded:
        with open(args.folded, "w") as f:
            for stack, count in sorted(folded.items()):
                f.write(";".join(stack) + " %d\n" % count)
    sys.stdout.write(svg(tree(folded), args.title))


if __name__ == "__main__":
    main()
