"""The §9 table of docs/PHYSICS.md against scripts/physics_vectors.py, which recomputes it from the formulas.

The Swift and node tests hold these values at full precision; this checks that the table a reader sees says
the same, to the digits it prints. No server is needed.
"""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_script():
    spec = importlib.util.spec_from_file_location("physics_vectors", ROOT / "scripts" / "physics_vectors.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def table_rows() -> dict[int, list[str]]:
    """Row number → the numbers of its "Expected" cell, as printed."""
    text = (ROOT / "docs" / "PHYSICS.md").read_text(encoding="utf-8")
    section = re.search(r"^## 9\..*?(?=^## )", text, re.MULTILINE | re.DOTALL).group(0)
    rows = {}
    for line in section.splitlines():
        if not re.match(r"\| \d+\b", line):
            continue
        cells = re.split(r"(?<!\\)\|", line)
        number = int(re.match(r"\s*(\d+)", cells[1]).group(1))
        rows[number] = re.findall(r"-?\d+(?:\.\d+)?", cells[3].replace("−", "-"))
    return rows


def test_the_table_matches_the_formulas_to_its_printed_digits():
    table = table_rows()
    computed = load_script().vectors()
    assert len(computed) >= 25  # every row the engine implements or its tests use
    for number, values in computed.items():
        printed = table[number]
        assert len(printed) == len(values), f"row {number}: the table has {printed}, the script {values}"
        for text, value in zip(printed, values, strict=True):
            decimals = len(text.split(".")[1]) if "." in text else 0
            assert abs(float(text) - value) <= 0.5 * 10 ** -decimals + 1e-12, (
                f"row {number}: the table prints {text}, the formula gives {value}")


def test_a_wrong_digit_in_the_table_would_be_seen():
    value = load_script().vectors()[2][0]  # 97.3166 in the table
    assert abs(97.3166 - value) <= 0.5e-4 and abs(97.3167 - value) > 0.5e-4
