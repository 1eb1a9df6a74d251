# The Markdown pages' links cannot rot: every relative link and picture names a file of the
# tree (and a heading where it names one), and every picture in docs/images/ is used.
# SPDX-License-Identifier: MIT
#
# Usage: test_links.py SOURCE_DIR
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checks  # noqa: E402
from checks import check  # noqa: E402


def tree_files(src):
    """Paths under src, skipping hidden folders and build trees (not part of the sources)."""
    for root, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if not d.startswith(".") and not d.startswith("build")]
        for f in files:
            yield os.path.join(root, f)


def prose(text):
    """The text without fenced code blocks and inline code, where paths are not links."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return re.sub(r"`[^`\n]*`", "", text)


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path):
    text = re.sub(r"^```.*?^```", "", open(path, encoding="utf-8").read(), flags=re.M | re.S)
    return {slug(h) for h in re.findall(r"^#+ (.*)$", text, re.M)}


def main(src):
    pages = [p for p in tree_files(src) if p.endswith(".md")]
    check(len(pages) >= 5, "Markdown pages found (%d)" % len(pages))
    links = 0
    for page in pages:
        name = os.path.relpath(page, src)
        text = prose(open(page, encoding="utf-8").read())
        for target in re.findall(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", text):
            if re.match(r"[a-z]+:", target):
                continue  # a web address, mailto:
            path, _, anchor = target.partition("#")
            full = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            links += 1
            if not check(os.path.exists(full) and full.startswith(os.path.abspath(src)),
                         "%s: link %s names a file of the tree" % (name, target)):
                continue
            if anchor and full.endswith(".md"):
                check(anchor in anchors(full), "%s: link %s names a heading of %s"
                      % (name, target, os.path.relpath(full, src)))
    check(links >= 20, "relative links checked (%d)" % links)

    images = os.path.join(src, "docs", "images")
    shown = os.listdir(images) if os.path.isdir(images) else []
    check(len(shown) > 0, "docs/images/ holds pictures (%d)" % len(shown))
    texts = [open(p, encoding="utf-8", errors="replace").read() for p in tree_files(src)
             if not p.startswith(images) and p.endswith((".md", ".py", ".sh", ".txt"))]
    for f in sorted(shown):
        check(any(f in t for t in texts), "docs/images/%s is used by a page or a tool" % f)


main(os.path.abspath(sys.argv[1]))
sys.exit(checks.summary())
