"""A Swift type's size counted with its extensions (README, "The two commands").

Moving code into `extension X` files keeps every file small while the type itself keeps growing. This counts, for
every type declared or extended at the top level of a file under Sources/, the lines of its declaration and of
every `extension` of it in every file (each block from its doc comment to its closing brace), and fails when a type
has more than LIMIT lines in all. Nested types count in the type around them; `extension A.B` counts as `A.B`.

The types that are over the limit today are listed in ALLOWED with their size now as a ceiling: one fails when it
grows past its ceiling, and the check says when one has shrunk, so the ceiling can come down with it.

    python scripts/lint/type_sizes.py [ROOT]      (scripts/lint/lint.sh runs it)
"""
from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path

LIMIT = 800

# Over LIMIT today, each with its size in lines now as its ceiling: lower a ceiling when its type shrinks, and
# remove the entry once the type is within LIMIT. Nothing new is added here: a type that outgrows LIMIT is split.
ALLOWED = {
    # The engine's list model (Sources/RefreshKit/List, nine files): it took in the simulated feed's answering with
    # the one feed path; being split into a value for a list's rows, which takes the feed's part out.
    "ListModel": 1113,
    # The session host's rules (Sources/RefreshSessions/Host, thirteen files).
    "SessionHost": 1576,
}

# A top-level declaration: attributes and modifiers, then the kind and the name (`extension A.B: P where …`).
DECLARATION = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*"
    r"(?:(?:public|package|internal|private|fileprivate|open|final|indirect|nonisolated)\s+)*"
    r"(struct|class|enum|actor|protocol|extension)\s+([A-Za-z_][\w.]*)")
# What may stand above a declaration and belongs to it: its doc comment and attributes.
PREAMBLE = re.compile(r"^(?:///|//|@)")


def blocks(path: Path):
    """(name, lines) of each top-level type declaration or extension in `path`: from its doc comment to the `}` at
    the start of a line that closes it (swift format puts a top-level block's closing brace there)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        match = DECLARATION.match(lines[index])
        if not match:
            index += 1
            continue
        start = index
        while start > 0 and PREAMBLE.match(lines[start - 1]):
            start -= 1
        end = index
        if not lines[index].rstrip().endswith("}"):  # not a one-line block (`extension X: P {}`)
            end = next((i for i in range(index + 1, len(lines)) if lines[i].startswith("}")), len(lines) - 1)
        yield match.group(2), end - start + 1
        index = end + 1


def sizes(root: Path) -> dict[str, dict[str, int]]:
    """Each type's lines, by file."""
    found: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for path in sorted((root / "Sources").rglob("*.swift")):
        if ".build" in path.parts:
            continue
        for name, count in blocks(path):
            found[name][str(path.relative_to(root))] += count
    return found


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2])
    problems, notes = [], []
    for name, files in sorted(sizes(root).items()):
        total = sum(files.values())
        ceiling = ALLOWED.get(name, LIMIT)
        parts = ", ".join(f"{Path(file).name} {count}" for file, count in sorted(files.items(), key=lambda f: -f[1]))
        if total > ceiling:
            allowance = f"its ceiling in {Path(__file__).name} is {ceiling}" if name in ALLOWED else f"at most {LIMIT}"
            problems.append(f"{name} is {total} lines with its extensions ({parts}); {allowance}")
        elif name in ALLOWED and total < ceiling:
            advice = f"lower its ceiling to {total}" if total > LIMIT else f"it is within {LIMIT}: remove it"
            notes.append(f"{name} is {total} lines now, under its ceiling of {ceiling}: {advice} in ALLOWED")
    for note in notes:
        print(f"type sizes: {note}")
    for problem in problems:
        print(f"type sizes: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
