"""`make lint` fails on a badly formatted file: scripts/lint/lint.sh run over scratch trees laid out like the
repository (Sources/, e2e/, web/js/, web/test/, examples/), first clean, then each with one file spoiled on
purpose, with the repository's settings (.swift-format, pyproject.toml) and the real tools (swift format, ruff,
node).

No server is needed: the test writes files and runs the lint.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT = ROOT / "scripts" / "lint" / "lint.sh"

CLEAN = {
    "Sources/Demo/Greeting.swift": 'public func greeting(_ name: String) -> String {\n    "Hello, \\(name)"\n}\n',
    "e2e/support.py": 'def greeting(name: str) -> str:\n    return f"Hello, {name}"\n',
    "web/js/greeting.js": "export function greeting(name) {\n  return `Hello, ${name}`;\n}\n",
    "web/js/page/index.js": "import { greeting } from '../greeting.js';\n\nexport const title = greeting('page');\n",
    # A comment that says why, with no figure.
    "Sources/RefreshKit/Reason.swift": (
        '/// Inlined: a call on every touch (docs/PERFORMANCE.md, "Inlining on an input\'s path").\n'
        "public let reason = 1\n"
    ),
    "web/js/refreshkit.js": "export { greeting } from './greeting.js';\n",
    "examples/hello.js": "import { greeting } from '/js/refreshkit.js';\n\nexport default greeting('example');\n",
    "web/test/greeting.test.js": (
        "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\n"
        "import { greeting } from '../js/greeting.js';\n\n"
        "test('greets', () => assert.equal(greeting('a'), 'Hello, a'));\n"
    ),
}


def swift_type(declaration: str, member: str, count: int) -> str:
    """A formatted Swift block of `count` members (`let a0 = 0`, …): `count` + 2 lines."""
    return f"{declaration} {{\n" + "".join(f"    {member}{i} = {i}\n" for i in range(count)) + "}\n"


# Each spoiled tree: the files changed or added, the tool that must object, and what its report must name.
SPOILED = {
    "swift layout": (
        {"Sources/Demo/Greeting.swift": 'public func greeting(_ name:String)->String{ "Hello, \\(name)" }\n'},
        "swift format", "Greeting.swift",
    ),
    "swift line length": (
        {"Sources/Demo/Long.swift": "public let long = \"" + "x" * 130 + "\"\n"},
        "swift format", "Long.swift",
    ),
    "python layout": (
        {"e2e/support.py": 'def greeting(name: str) -> str:\n    return f"Hello, {name}"   \n\n\n\n'},
        "ruff", "support.py",
    ),
    "python unused import": (
        {"e2e/tool.py": "import os\nimport sys\n\nprint(sys.argv)\n"},
        "ruff", "tool.py",
    ),
    "python import order": (
        {"e2e/tool.py": "import sys\nimport os\n\nprint(sys.argv, os.sep)\n"},
        "ruff", "tool.py",
    ),
    "js syntax": (
        {"web/js/greeting.js": "export function greeting(name) {\n  return `Hello, ${name}`;\n"},
        "check-js", "web/js/greeting.js",
    ),
    "js missing module": (
        {"web/js/page/index.js": "import { greeting } from '../greting.js';\n\nexport const title = greeting('x');\n"},
        "check-js", "web/js/page/index.js",
    ),
    "js missing export": (
        {"web/js/page/index.js": "import { greet } from '../greeting.js';\n\nexport const title = greet('x');\n"},
        "check-js", "does not provide an export named 'greet'",
    ),
    "js bare package": (
        {"web/js/page/index.js": "import { greeting } from 'greeting';\n\nexport const title = greeting('x');\n"},
        "check-js", "'greeting': a page module imports relative or root paths only",
    ),
    "comment quotes an instruction count": (
        {"Sources/RefreshKit/Demo.swift": (
            "// Inlined: as a call it cost 25 instructions a touch more (callgrind_host).\npublic let demo = 1\n")},
        "comment-counts", "Sources/RefreshKit/Demo.swift:1: quotes an instruction count",
    ),
    "comment quotes a before and after": (
        {"Sources/RefreshWire/Demo.swift": "public let demo = 1  // a frame 501 -> 476 per call\n"},
        "comment-counts", "Sources/RefreshWire/Demo.swift:1: quotes a before -> after figure",
    ),
    "comment quotes a count over two lines": (
        {"Sources/RefreshSessions/Demo.swift": (
            "/// Read in place: a copy costs ~110\n/// instructions.\npublic let demo = 1\n")},
        "comment-counts", "Sources/RefreshSessions/Demo.swift:1: quotes",
    ),
    "comment counts cache lines in words": (
        {"Sources/RefreshKit/Demo.swift": "/// Kept apart: one cold line less per input.\npublic let demo = 1\n"},
        "comment-counts", "Sources/RefreshKit/Demo.swift:1: quotes a count of cache lines",
    ),
    "comment counts copies": (
        {"Sources/RefreshWire/Demo.swift": "// Passed by address: two `memcpy`s less a frame.\npublic let demo = 1\n"},
        "comment-counts", "Sources/RefreshWire/Demo.swift:1: quotes a count of copies",
    ),
    "comment counts comparisons": (
        {"Sources/RefreshWire/Demo.swift": (
            "/// Eight bytes at a time: 5 comparisons for a `move`.\npublic let demo = 1\n")},
        "comment-counts", "Sources/RefreshWire/Demo.swift:1: quotes a count of operations",
    ),
    "comment quotes a size in the server": (
        {"Sources/RefreshServer/Demo.swift": "/// Boxed: a frame is some 260 bytes.\npublic let demo = 1\n"},
        "comment-counts", "Sources/RefreshServer/Demo.swift:1: quotes a measured size",
    ),
    "js import cycle": (
        {"web/js/greeting.js": (
            "import { title } from './page/index.js';\n\n"
            "export function greeting(name) {\n  return `Hello, ${name} (${title})`;\n}\n"
        )},
        "check-js", "import cycle: greeting.js → page/index.js → greeting.js",
    ),
    "js example past the front door": (
        {"examples/hello.js": "import { greeting } from '/js/greeting.js';\n\nexport default greeting('example');\n"},
        "check-js", "examples/hello.js: imports '/js/greeting.js': an example imports '/js/refreshkit.js' only",
    ),
    "js names twice": (
        {"web/js/page/greeting.js": "export const again = 1;\n"},
        "check-js", "page modules share the file name greeting.js",
    ),
    "a tracker's issue number cited": (
        {"e2e/tool.py": '"""Refuses a private address (' + "issue" + ' #70)."""\n'},
        "tracker", "e2e/tool.py:1:",
    ),
    "a type over 800 lines with its extensions": (
        {
            "Sources/Demo/Big.swift": swift_type("struct Big", "let a", 500),
            "Sources/Demo/Big+More.swift": swift_type("extension Big", "static let b", 310),
        },
        "type sizes", "Big is 814 lines with its extensions (Big.swift 502, Big+More.swift 312)",
    ),
    "an allowed type past its ceiling": (
        {"Sources/Demo/ListModel.swift": swift_type("struct ListModel", "let a", 1200)},
        "type sizes", "ListModel is 1202 lines with its extensions",
    ),
}


def write_tree(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def lint(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT), str(root)], cwd=ROOT, capture_output=True, text=True, timeout=50)


def test_a_clean_tree_passes(tmp_path):
    write_tree(tmp_path, CLEAN)
    result = lint(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("case", SPOILED, ids=list(SPOILED))
def test_a_spoiled_file_fails_the_lint(tmp_path, case):
    changes, tool, named = SPOILED[case]
    write_tree(tmp_path, {**CLEAN, **changes})
    result = lint(tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert f"lint: failed: {tool}" in output, output
    assert named in output, output
