"""`refreshkit-bench --check-targets` (what `make bench` ends with): it prints the targets' verdicts of a results
file and exits 0 only when every check passed; a miss (FAIL) and a check the run could not judge (NOT SHOWN, e.g.
the echo floor saturated) both exit 3 (docs/PERFORMANCE.md, "Targets"). Run by `make bench` before its stages (it
needs the bench's release build, which `make test` does not make)."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def check(tmp_path, document) -> subprocess.CompletedProcess:
    bench = ROOT / ".build" / "release" / "refreshkit-bench"
    if not bench.exists():
        pytest.fail(f"bench binary {bench} not found (swift build -c release)", pytrace=False)
    path = tmp_path / "results.json"
    path.write_text(json.dumps(document))
    return subprocess.run([str(bench), "--check-targets", str(path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=20)


def target(verdict: str, value: float | None, round_: int | None = 1) -> dict:
    return {"target": "1000 sessions: CPU µs per input ≤ 1.15× echo's", "round": round_, "value": value,
            "limit": 1.15, "verdict": verdict, "detail": "server 8.0 µs, echo 7.4 µs"}


def test_every_check_passed_exits_0(tmp_path):
    result = check(tmp_path, {"targets": [target("PASS", 1.08), target("PASS", 1.1, 2)]})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PASS" in result.stdout and "all 2 checks passed" in result.stdout


@pytest.mark.parametrize("verdict", ["FAIL", "NOT SHOWN"])
def test_a_miss_or_an_unjudged_round_exits_3(tmp_path, verdict):
    result = check(tmp_path, {"targets": [target("PASS", 1.08), target(verdict, 1.3, 2)]})
    assert result.returncode == 3, result.stdout + result.stderr
    assert verdict in result.stdout and "1 of 2 checks did not pass" in result.stdout


def test_a_file_without_targets_is_an_error(tmp_path):
    result = check(tmp_path, {"engine": {}})
    assert result.returncode == 2
    assert "no targets in" in result.stderr
