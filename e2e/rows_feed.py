"""A SQLite feed file (docs/FEEDS.md, `sqlite:PATH`: its table and its times) of many items whose texts differ in
length, for the rows' browser tests and the page bench (docs/PAGE.md, "Rows of measured heights"): rows one line
high, rows of six lines ending in "…", and every height between, in an order that mixes them.

The texts are made from a fixed vocabulary by a seeded generator, so the same call writes the same file: a third
of the items a few words, a third a sentence or two, the rest a paragraph (some longer than a row shows), now and
then a word too long for a line (a link). One item in ten has no author. The newest item is dated a minute before
`now`, each older one 1 to 180 minutes before the one above it, and items are inserted oldest first, so ids and
times grow together, as the server's own filling does.

    .venv/bin/python e2e/rows_feed.py PATH [--items 10000] [--seed 29]
"""
from __future__ import annotations

import argparse
import random
import sqlite3
import time
from pathlib import Path

SCHEMA = """
CREATE TABLE items (id INTEGER PRIMARY KEY, text TEXT NOT NULL, author TEXT, time INTEGER NOT NULL,
                    image_url TEXT, image_width INTEGER, image_height INTEGER);
CREATE INDEX items_by_time ON items (time, id);
"""

WORDS = (
    "a an the of to in on at by for with from and or but not so yet if then when while because although "
    "list row rows page pages feed scroll scrolling fling finger screen phone desktop window width height "
    "measure measured measurement layout anchor offset engine server session device devices refresh loading "
    "text line lines wrap wrapped ellipsis avatar image images reader reading still moves moved jumps jumped "
    "morning evening yesterday tomorrow weather coffee garden river mountain library kitchen bicycle train "
    "quietly suddenly carefully remarkably unfortunately nevertheless approximately internationalisation "
    "a b c I we you they it this that these those is are was were be been being have has had do does did "
    "extraordinary incomprehensible characteristically straightforward"
).split()
AUTHORS = [f"{first} {last}" for first, last in zip(
    "Ada Brian Chloé Dmitri Eun-ji Farah Gustav Hana Ingrid Jamal Kofi Lucía Mei Nils Olu Priya Quentin Rosa "
    "Sven Tomás Uma Viktor Wen Ximena Yusuf Zoë".split(),
    "Lovelace Kernighan Dupont Ivanov Park Haddad Mahler Novak Berg Wright Mensah Ortega Chen Larsen Adeyemi "
    "Raman Blake Parks Lindqvist Herrera Devi Petrov Zhao Ruiz Demir Walsh".split(), strict=True)]


def item_text(rng: random.Random, n: int) -> str:
    """Item n's text: a few words, a sentence or two, or a paragraph."""
    kind = rng.random()
    if kind < 1 / 3:
        count = rng.randint(1, 8)
    elif kind < 2 / 3:
        count = rng.randint(9, 40)
    else:
        count = rng.randint(41, 160)
    words = [rng.choice(WORDS) for _ in range(count)]
    if rng.random() < 0.05:
        words.insert(rng.randrange(len(words) + 1), f"https://example.org/a/rather/long/link/to/item/{n:06d}")
    text = " ".join(words)
    return f"{text[0].upper()}{text[1:]}."


def write_feed(path: Path, items: int = 10_000, seed: int = 29, now_micros: int | None = None) -> int:
    """Writes a new feed file of `items` items at `path` (an existing file is replaced); returns `items`."""
    path = Path(path)
    path.unlink(missing_ok=True)
    rng = random.Random(seed)
    now = now_micros if now_micros is not None else time.time_ns() // 1000
    stamp = now - 60_000_000
    rows = []
    for n in range(items):  # newest first
        author = None if rng.random() < 0.1 else rng.choice(AUTHORS)
        rows.append((item_text(rng, n), author, stamp))
        stamp -= rng.randint(60, 180 * 60) * 1_000_000
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA)
        db.executemany("INSERT INTO items (text, author, time) VALUES (?, ?, ?)", reversed(rows))
    return items


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=29)
    args = parser.parse_args()
    print(write_feed(args.path, args.items, args.seed))


if __name__ == "__main__":
    main()
