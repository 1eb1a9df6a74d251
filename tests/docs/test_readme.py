# The README cannot rot: its set-up commands are the ones CI runs, and the manual's option
# table (docs/usage.md, "Options") lists exactly the options of `galaxy --help`.
# SPDX-License-Identifier: MIT
#
# Usage: test_readme.py setup SOURCE_DIR
#        test_readme.py options SOURCE_DIR GALAXY
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checks  # noqa: E402
from checks import check  # noqa: E402


def code_blocks(text):
    """The fenced code blocks of a Markdown text, in order, without their fences."""
    return [m.group(1) for m in re.finditer(r"^```[^\n]*\n(.*?)^```", text, re.M | re.S)]


def setup(src):
    readme = open(os.path.join(src, "README.md"), encoding="utf-8").read()
    ci = open(os.path.join(src, ".ci", "run"), encoding="utf-8").read()
    blocks = code_blocks(readme)
    check(len(blocks) >= 3, "README has at least 3 code blocks (got %d)" % len(blocks))
    if checks.failures:
        return
    view, test = (b.strip().split(" && ") for b in blocks[:2])
    configure = "cmake -S . -B build -DCMAKE_BUILD_TYPE=Release"
    build = "cmake --build build -j"
    check("\n" not in blocks[0].strip() and "\n" not in blocks[1].strip(),
          "each set-up command is one line (one paste)")
    check(view == ["scripts/install-deps", configure, build, "./build/galaxy"],
          "1st block installs, configures, builds, starts the viewer: %s" % view)
    check(test == ["scripts/install-deps test", configure, build,
                   "ctest --test-dir build -j$(nproc) --output-on-failure"],
          "2nd block installs (test group), configures, builds, runs ctest, one test per "
          "core: %s" % test)
    check(blocks[2].strip() == ("./build/galaxy --headless --follow -n 12288 --dt 0.025 "
                                "--frames 24 --substeps 48 --screenshot out.png"),
          "3rd block is the picture without a display: %r" % blocks[2].strip())
    # Right after the first command: what its last step does without a display.
    after = readme.split(blocks[0], 1)[1].split("```", 2)[1]
    check("cannot open display" in after and "headless" in after,
          "the first command is followed by what it does without a display: %r" % after.strip())
    deps = open(os.path.join(src, "scripts", "install-deps"), encoding="utf-8").read()
    check(re.search(r"^\s*test\)", deps, re.M) is not None, "scripts/install-deps has a test group")
    # CI runs the README's second block itself, through the same extraction ...
    got = subprocess.run([os.path.join(src, "scripts", "readme-block"), "2"],
                         capture_output=True, text=True, timeout=30)
    check(got.returncode == 0 and got.stdout.strip() == blocks[1].strip(),
          "scripts/readme-block 2 prints the README's second block")
    check(re.search(r"^readme_test=\$\(scripts/readme-block 2\)$", ci, re.M) is not None,
          ".ci/run takes its test command from scripts/readme-block 2")
    check(re.search(r'^bash -c "\$readme_test"', ci, re.M) is not None,
          ".ci/run runs that command")
    # ... and keeps no copy of it that could drift.
    for line in (configure, build, "ctest --test-dir build "):
        check(line not in ci, ".ci/run has no own copy of '%s'" % line.strip())


def skip_reasons(src):
    """tests/skip_reasons.sh, which ctest runs after the tests, on a log of the form ctest
    writes while it runs (LastTest.log.tmp): each skipped test's last 'SKIP: ' line, tests
    grouped by reason; nothing of a test that passed with a note."""
    import tempfile
    with tempfile.TemporaryDirectory() as build:
        logs = os.path.join(build, "Testing", "Temporary")
        os.makedirs(logs)
        entries = (("test_a", "checking\nSKIP: no usable CUDA device"),
                   ("test_b", "SKIP (a part): not here\n3 passed, 0 failed"),
                   ("test_c", "SKIP: no usable CUDA device\n"),
                   ("test_d", "a line\nSKIP: data.tab not found (get it)"))
        with open(os.path.join(logs, "LastTest.log.tmp"), "w") as f:
            for k, (name, out) in enumerate(entries, 1):
                f.write("%d/4 Testing: %s\n%d/4 Test: %s\nCommand: \"x\"\nOutput:\n%s\n%s\n"
                        "<end of output>\nTest time =   0.01 sec\n%s\nTest Passed.\n\n"
                        % (k, name, k, name, "-" * 58, out, "-" * 58))
        got = subprocess.run(["sh", os.path.join(src, "tests", "skip_reasons.sh"), build],
                             capture_output=True, text=True, timeout=30)
    want = ("Why tests were skipped:\n  no usable CUDA device: test_a, test_c\n"
            "  data.tab not found (get it): test_d\n")
    check(got.returncode == 0 and got.stdout == want,
          "tests/skip_reasons.sh prints the reasons of skipped tests only: %r" % got.stdout)


def help_options(galaxy):
    out = subprocess.run([galaxy, "--help"], capture_output=True, text=True, timeout=30).stdout
    names = set()
    for line in out.splitlines():
        m = re.match(r"  (-[^\s,]+)(?:, (-[^\s,]+))?", line)
        if m:
            names.update(n for n in m.groups() if n)
    return names


def manual_options(src):
    """The option names in the first column of the Options table of docs/usage.md."""
    manual = open(os.path.join(src, "docs", "usage.md"), encoding="utf-8").read()
    part = re.split(r"^#{2,3} Options\n", manual, maxsplit=1, flags=re.M)
    if len(part) < 2:
        return set()
    names = set()
    for line in part[1].split("\n#", 1)[0].splitlines():
        if not line.startswith("|") or line.startswith("|---"):
            continue
        first = re.split(r"(?<!\\)\|", line)[1]  # the option column
        names.update(re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", first))
    return names


def options(src, galaxy):
    shown, documented = help_options(galaxy), manual_options(src)
    check(len(shown) > 10, "galaxy --help lists options (%d)" % len(shown))
    check(len(documented) > 10, "docs/usage.md's Options table lists options (%d)" % len(documented))
    check(not shown - documented, "every --help option is in docs/usage.md's table; missing: %s"
          % sorted(shown - documented))
    check(not documented - shown, "every docs/usage.md table option is in --help; extra: %s"
          % sorted(documented - shown))


if sys.argv[1] == "setup":
    setup(sys.argv[2])
    skip_reasons(sys.argv[2])
else:
    options(sys.argv[2], sys.argv[3])
print("%s" % ("FAILED" if checks.failures else "all checks passed"))
sys.exit(1 if checks.failures else 0)
