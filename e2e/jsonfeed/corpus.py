"""The text of the local JSON Feed: the quotations of Debian's `fortunes` package, read as the SQLite source reads
them (Sources/RefreshFeeds/SQLite/FortuneCorpus.swift; the files and their licence: docs/FEEDS.md, section 4).

An entry is the text between lines holding only `%`; its last lines starting (after white space) with `-- ` are
its attribution (the author). Overstruck characters (`x` backspace `x`) are reduced to one."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

FOLDER = Path("/usr/share/games/fortunes")
# The same prose files as FortuneCorpus.files ("art" and "ascii-art" are pictures).
FILES = ("fortunes", "wisdom", "literature", "humorists", "people", "science", "computers", "pratchett", "work",
         "education", "love", "food", "politics", "law", "medicine", "sports", "tao", "platitudes")
_OVERSTRIKE = re.compile(r"(.)\x08\1")


@dataclass(frozen=True)
class Entry:
    text: str
    author: str | None


def parse(text: str) -> list[Entry]:
    """The entries of one fortune file's text, in file order; empty entries are skipped."""
    entries: list[Entry] = []
    for block in _OVERSTRIKE.sub(r"\1", text).split("\n%\n"):
        lines = [line.rstrip() for line in block.strip("\n").split("\n")]
        if lines and lines[-1] == "%":
            lines.pop()
        attribution: list[str] = []
        while lines and lines[-1].lstrip().startswith("-- "):
            attribution.insert(0, lines.pop().lstrip()[3:].strip())
        while lines and not lines[-1].strip():
            lines.pop()
        body = "\n".join(lines).strip("\n")
        if body.strip():
            entries.append(Entry(body, " ".join(attribution) or None))
    return entries


@cache
def load(folder: Path = FOLDER) -> tuple[Entry, ...]:
    """Every entry of the files (the UTF-8 `.u8` versions where Debian ships them). Raises FileNotFoundError when
    the package is not installed (`scripts/ensure-deps.sh` installs it). Read once per process."""
    entries: list[Entry] = []
    for name in FILES:
        path = folder / f"{name}.u8"
        if not path.exists():
            path = folder / name
        if path.exists():
            entries += parse(path.read_text(encoding="utf-8", errors="replace"))
    if not entries:
        raise FileNotFoundError(f"no fortunes in {folder}: install Debian's fortunes package (scripts/ensure-deps.sh)")
    return tuple(entries)
