"""No comment in the engine, the wire, the session host or the server quotes a measurement.

Code comments say WHY the code is shaped as it is and cite the section of docs/PERFORMANCE.md that holds the
reason ("docs/PERFORMANCE.md, \"Cold lines\""); the figures themselves (instruction counts, cycle counts, cache
lines missed, timings, before -> after numbers) belong in docs/PERFORMANCE.md and in commit messages, where they
can be dated and remeasured. A count copied into a comment goes stale unseen with the next compiler or change.

This check reads the `//` comments (whole-line and trailing) of the Swift files under MODULES and fails on a line
that matches one of PATTERNS (a number of instructions or cycles, of cache lines missed or of data or code, a
number on each side of an arrow, a profiler's name followed by a figure, a time taken or per unit of work, a cost
in numbers, a count of comparisons, stores or calls saved, an estimated size in bytes, a share of a core), naming
`file:line`, what it quotes, and the line; a figure split over two comment lines is found on the first. The
patterns look for a number next to what it counts, so a comment may still speak of instructions, cache lines or a
call's cost without one ("a call per key", "one cold line less per input"), and units that specify behaviour
rather than measure it (`(µs)`, "between Chromium's 100 ms and Chameleon's 150 ms") are not matched.

    scripts/lint/check_comment_counts.py [ROOT]      ROOT: the repository, or a tree laid out like it

Exits 1 when a line matches.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

MODULES = [
    "Sources/RefreshKit", "Sources/RefreshWire", "Sources/RefreshSessions", "Sources/RefreshServer",
    "Sources/ServerClock",
]

NUMBER = r"~?\d[\d  ,.]*"  # 5, ~250, 1 300, 1 000, 62.6 (a thin or plain space groups thousands)
UNIT_OF_WORK = r"(?:input|inputs|frame|move|call|message|touch|step|delta|write|record|byte|number|key)"

# (what the line quotes, the pattern), matched case-insensitively against the comment's text.
PATTERNS = [
    ("an instruction count", rf"{NUMBER}\s*(?:more\s+|fewer\s+|less\s+|extra\s+)?instructions?\b"),
    ("an instruction count", rf"\binstructions?\s+(?:per|a|an|each)\s+{UNIT_OF_WORK}\b[^.;]*?\d"),
    ("a cycle count", rf"{NUMBER}\s*(?:cpu\s+)?cycles\b"),
    ("a count of cache lines", rf"{NUMBER}\s*(?:cache\s+)?lines?\s+(?:missed|of\s+(?:data|code))"),
    ("a count of cache lines", r"\blines\s+missed\b|\bL[12][di]?\s+misses\b"),
    ("a count of cache lines",
     rf"(?:{NUMBER}|\b(?:a|one|two|three|four|five|six)\b)\s*(?:more\s+|fewer\s+|less\s+)?(?:cache|cold)\s+lines?\b"),
    ("a count of cache lines", r"\b(?:cache|cold)\s+lines?\s+(?:more|less|fewer)\b"),
    ("an instruction count", r"\b(?:a\s+few|several|hottest)\s+instructions?\b"),
    ("a count of copies",
     rf"(?:{NUMBER}|\b(?:one|two|three|four)\b)\s*`?memcpy`?s?\b|{NUMBER}\s*bytes\s*\(a\s+`?memcpy"),
    ("a before -> after figure", r"\d\s*(?:->|→)\s*~?\d"),
    ("a profiler's figure", r"\b(?:callgrind\w*|cachegrind)(?:\.py)?\b[^.;]*?[:,]\s*~?\d"),
    ("a timing", rf"\b(?:took|takes|cost|costs|costing|spent|saves|saved)\b[^.;]*?{NUMBER}\s?(?:ns|µs|us|ms)\b"),
    ("a timing", rf"{NUMBER}\s?(?:ns|µs|us|ms)\s+(?:per|a|an|each)\s+{UNIT_OF_WORK}\b"),
    ("a measured cost", r"\bcost(?:s|ing)?\s+(?:about\s+|some\s+|only\s+)?~?\d"),
    ("a count of operations",
     rf"(?:{NUMBER}|\b(?:a\s+few|one|two|three|four|five|six)\b)\s*(?:comparisons|additions|stores|branches"
     r"|calls?\s+(?:fewer|more|less))\b"),
    ("a measured size", rf"(?:\babout|\bsome|~)\s*{NUMBER}\s*bytes\b"),
    ("a share of the CPU",
     r"\d+(?:\.\d+)?\s?%\s+of\s+(?:a\s+core|the\s+(?:cpu|server|process|host)|its\s+(?:samples|work))"),
]
COMPILED = [(what, re.compile(pattern, re.IGNORECASE)) for what, pattern in PATTERNS]

# A comment: the whole line (`//`, `///`), or what follows code and whitespace (a `//` inside a string literal,
# as in "http://", has no space before it or is inside quotes; a trailing comment here must follow whitespace).
WHOLE_LINE = re.compile(r"^\s*//+(.*)$")
TRAILING = re.compile(r"^[^\"]*?\s//+\s(.*)$")


def comment_text(line: str) -> str | None:
    if match := WHOLE_LINE.match(line) or TRAILING.match(line):
        return match.group(1)
    return None


def quoted(text: str) -> str | None:
    """What `text` quotes, if it matches a pattern."""
    return next((what for what, pattern in COMPILED if pattern.search(text)), None)


def findings(root: Path) -> list[tuple[str, int, str, str]]:
    """(path relative to root, line number, what it quotes, the line) for every matching comment line. A figure
    split over two comment lines ("costs ~110" / "instructions") is found on the first of them."""
    found = []
    for module in MODULES:
        folder = root / module
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*.swift")):
            lines = path.read_text(encoding="utf-8").splitlines()
            texts = [comment_text(line) for line in lines]
            for index, text in enumerate(texts):
                if text is None:
                    continue
                what = quoted(text)
                following = texts[index + 1] if index + 1 < len(texts) else None
                if what is None and following is not None and quoted(following) is None:
                    what = quoted(text.rstrip() + " " + following.strip())
                if what is not None:
                    found.append((path.relative_to(root).as_posix(), index + 1, what, lines[index].strip()))
    return found


def main(argv: list[str]) -> int:
    root = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parents[2]
    refused = [f"{relative}:{number}: quotes {what}: {line}" for relative, number, what, line in findings(root)]
    if refused:
        print("\n".join(refused), file=sys.stderr)
        print(f"comment counts: {len(refused)} comment line(s) quote a measurement; say why the code is shaped so "
              "and cite the docs/PERFORMANCE.md section that holds the figures (scripts/lint/check_comment_counts.py)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
