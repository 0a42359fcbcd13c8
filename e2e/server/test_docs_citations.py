"""Every citation of the research in the tree points at a heading that exists.

The code cites docs/PHYSICS.md and docs/SEEDS.md by section ("docs/PHYSICS.md §2.1", "§9 row 19",
"docs/SEEDS.md §1.2", "weakness 5", "section (c)", "notation"). A renumbered or deleted section would
leave those citations pointing nowhere without anyone noticing; this test notices. It also refuses the
research notes' old bare file names, which named files outside the repository. Citations of docs/PERFORMANCE.md
name a section by its title ("docs/PERFORMANCE.md, \"Cold lines\""): each must be one of its headings.

No server is needed: the test reads files only.
"""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = {"PHYSICS": ROOT / "docs" / "PHYSICS.md", "SEEDS": ROOT / "docs" / "SEEDS.md"}

# Where citations may live: the code, the tests, the page, the scripts and the docs themselves.
SCANNED_DIRS = ["Sources", "Tests", "web", "e2e", "scripts", "bench", "docs"]
SCANNED_FILES = ["Makefile", "README.md", "Package.swift"]
TEXT_SUFFIXES = {".swift", ".js", ".mjs", ".py", ".md", ".h", ".c", ".sh", ".html", ".css", ".toml", ".txt"}
SKIPPED_PARTS = {"node_modules", ".build", ".venv", "__pycache__"}

CITATION = re.compile(r"docs/(PHYSICS|SEEDS)\.md")
# A line break inside a comment continues the sentence: "docs/PHYSICS.md\n    /// §1.1" cites §1.1.
CONTINUATION = re.compile(r"[ \t]*\n[ \t]*(?:///|//|#|\*|--)?[ \t]*")
# What follows a citation and belongs to it: up to a closing bracket, a sentence end, or 120 characters.
TAIL_END = re.compile(r"[)\]`\"]|\.(?:\s|$)")
SECTION = re.compile(r"§(\d+(?:\.\d+)*)(?:\s*[–-]\s*(\d+(?:\.\d+)*))?")
ROWS = re.compile(r"\brows?\s+(\d+(?:\s*(?:,|and|–|-)\s*\d+)*)")
# "section (c)" and "(section c)": the tail stops at a closing bracket, so the letter is enough.
NAMED = re.compile(
    r"\bweakness\s+(\d+)\b|\bsection\s+\(?([a-z])\b|\bAppendix\s+([A-Z])\b|\b(notation)\b", re.IGNORECASE)


def headings(doc: Path) -> set[str]:
    """The keys a citation may use for `doc`: section numbers, "(c)", "weakness 5", "appendix a", "notation"."""
    keys: set[str] = set()
    for line in doc.read_text(encoding="utf-8").splitlines():
        match = re.match(r"#{1,6}\s+(.*)", line)
        if not match:
            continue
        title = match.group(1).strip()
        if number := re.match(r"§?(\d+(?:\.\d+)*)(?:[.\s]|$)", title):
            keys.add("§" + number.group(1))
        if letter := re.match(r"\((\w)\)", title):
            keys.add(f"({letter.group(1).lower()})")
        if weakness := re.match(r"weakness\s+(\d+)", title, re.IGNORECASE):
            keys.add(f"weakness {weakness.group(1)}")
        if appendix := re.match(r"appendix\s+([A-Z])", title, re.IGNORECASE):
            keys.add(f"appendix {appendix.group(1).lower()}")
        if title.lower().startswith("notation"):
            keys.add("notation")
    return keys


def vector_rows(doc: Path) -> set[int]:
    """The row numbers of the reference-vector table (§9) of `doc`."""
    text = doc.read_text(encoding="utf-8")
    section = re.search(r"^## 9\..*?(?=^## )", text, re.MULTILINE | re.DOTALL)
    assert section, f"{doc.name} has no §9"
    return {int(m.group(1)) for m in re.finditer(r"^\| (\d+)\b", section.group(0), re.MULTILINE)}


def cited_keys(tail: str) -> tuple[list[str], list[int]]:
    """The headings and the §9 rows one citation's tail names."""
    keys: list[str] = []
    for match in SECTION.finditer(tail):
        keys.append("§" + match.group(1))
        if match.group(2):
            keys.append("§" + match.group(2))
    for match in NAMED.finditer(tail):
        weakness, letter, appendix, notation = match.groups()
        if weakness:
            keys.append(f"weakness {weakness}")
        elif letter:
            keys.append(f"({letter.lower()})")
        elif appendix:
            keys.append(f"appendix {appendix.lower()}")
        elif notation:
            keys.append("notation")
    rows = [int(n) for match in ROWS.finditer(tail) for n in re.findall(r"\d+", match.group(1))]
    return keys, rows


def citations(text: str) -> list[tuple[str, str]]:
    """(doc, tail) for every citation in `text`."""
    joined = CONTINUATION.sub(" ", text)
    found = []
    for match in CITATION.finditer(joined):
        tail = joined[match.end():match.end() + 120]
        if following := CITATION.search(tail):  # the next citation starts its own tail
            tail = tail[: following.start()]
        end = TAIL_END.search(tail)
        found.append((match.group(1), tail[: end.start()] if end else tail))
    return found


def problems_in(text: str, where: str, keys: dict[str, set[str]], rows: set[int]) -> list[str]:
    problems = []
    for doc, tail in citations(text):
        cited, cited_rows = cited_keys(tail)
        for key in cited:
            if key not in keys[doc]:
                problems.append(f"{where}: docs/{doc}.md {key} has no heading (…{tail.strip()[:60]})")
        for row in cited_rows:
            if doc != "PHYSICS" or row not in rows:
                problems.append(f"{where}: docs/{doc}.md row {row} is not in the §9 table")
    return problems


def scanned_files() -> list[Path]:
    files = [ROOT / name for name in SCANNED_FILES if (ROOT / name).is_file()]
    for directory in SCANNED_DIRS:
        for path in (ROOT / directory).rglob("*"):
            # This file holds wrong citations on purpose (the checker's own test).
            if path.is_file() and path.suffix in TEXT_SUFFIXES and not SKIPPED_PARTS & set(path.parts) \
                    and path != Path(__file__).resolve():
                files.append(path)
    return files


def test_every_citation_names_an_existing_section():
    keys = {name: headings(path) for name, path in DOCS.items()}
    rows = vector_rows(DOCS["PHYSICS"])
    problems, count = [], 0
    for path in scanned_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        count += len(citations(text))
        problems += problems_in(text, str(path.relative_to(ROOT)), keys, rows)
    assert count > 50, f"only {count} citations found: is the scan looking in the right places?"
    assert not problems, "\n".join(problems)


def test_no_citation_names_the_research_outside_the_repository():
    bare = re.compile(r"(?<![\w/])(physics|seeds)\.md\b")
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}"
        for path in scanned_files()
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if bare.search(line)
    ]
    assert not offenders, "cite docs/PHYSICS.md or docs/SEEDS.md instead:\n" + "\n".join(offenders)


PERFORMANCE = ROOT / "docs" / "PERFORMANCE.md"
# `docs/PERFORMANCE.md, "Title"`, `docs/PERFORMANCE.md ("Title")`, `docs/PERFORMANCE.md, "A" and "B"` (a string
# literal's escaped quotes too), and `"Title" in docs/PERFORMANCE.md`.
TITLE = re.compile(r'\\?"([A-Z][^"\\]{0,80})\\?"')  # a capitalised title of up to 80 characters
ONE = r'\\?"[A-Z][^"\\]{0,80}\\?"'
PERFORMANCE_CITATION = re.compile(
    rf"docs/PERFORMANCE\.md[,:]?\s*\(?({ONE}(?:\s*(?:,|and)\s*{ONE})*)|({ONE}) in docs/PERFORMANCE\.md")


def performance_sections() -> set[str]:
    return {re.sub(r"^#+\s+", "", line).strip()
            for line in PERFORMANCE.read_text(encoding="utf-8").splitlines() if line.startswith("#")}


def cited_performance_sections(text: str) -> list[str]:
    joined = CONTINUATION.sub(" ", text)
    titles = []
    for match in PERFORMANCE_CITATION.finditer(joined):
        titles += TITLE.findall(match.group(1) or match.group(2))
    return titles


def test_every_performance_citation_names_a_heading():
    sections = performance_sections()
    problems, count = [], 0
    for path in scanned_files():
        titles = cited_performance_sections(path.read_text(encoding="utf-8", errors="replace"))
        count += len(titles)
        problems += [f"{path.relative_to(ROOT)}: docs/PERFORMANCE.md has no section \"{title}\""
                     for title in titles if title not in sections]
    assert count > 50, f"only {count} citations of docs/PERFORMANCE.md found: is the scan looking in the right places?"
    assert not problems, "\n".join(problems)


def test_the_performance_checker_reads_each_spelling():
    text = (
        '/// (docs/PERFORMANCE.md, "Cold lines"); docs/PERFORMANCE.md\n    /// ("Profile").\n'
        '# docs/PERFORMANCE.md, "Memory per connected session" and "Current figures"\n'
        'let s = "targets (docs/PERFORMANCE.md, \\"Targets\\"; …)"\n'
        '/// ("Where an input stalls" in docs/PERFORMANCE.md)\n'
    )
    assert cited_performance_sections(text) == [
        "Cold lines", "Profile", "Memory per connected session", "Current figures", "Targets", "Where an input stalls"]


def test_the_checker_catches_what_it_must():
    keys = {name: headings(path) for name, path in DOCS.items()}
    rows = vector_rows(DOCS["PHYSICS"])
    assert {"§0", "§1.1", "§9", "§10.6"} <= keys["PHYSICS"] and rows == set(range(1, 41))
    assert {"§1.2", "§5", "(c)", "weakness 13", "notation"} <= keys["SEEDS"]
    good = (
        "/// (docs/PHYSICS.md §1.1, §10.4)\n// docs/PHYSICS.md\n    /// §6.2–6.3; docs/SEEDS.md weakness 5).\n"
        "# docs/PHYSICS.md §9 row 35. docs/SEEDS.md, section (c). docs/PHYSICS.md §5.2, rows 30 and 34 of §9.\n"
        "/// The weaknesses docs/SEEDS.md (section c) found; docs/SEEDS.md, notation; docs/PHYSICS.md Appendix A."
    )
    assert problems_in(good, "good", keys, rows) == []
    for bad in ("docs/PHYSICS.md §12", "docs/PHYSICS.md\n  /// §3.8", "docs/SEEDS.md §1.9", "docs/PHYSICS.md §9 row 41",
                "docs/SEEDS.md weakness 14", "docs/PHYSICS.md §6.2–6.9", "docs/SEEDS.md, section (d)",
                "docs/SEEDS.md (section d)", "docs/PHYSICS.md Appendix B"):
        assert problems_in(bad, "bad", keys, rows), bad
