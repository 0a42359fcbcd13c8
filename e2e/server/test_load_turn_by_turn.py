"""`refreshkit-load --slice`: two generators measure two servers turn by turn over the same seconds, each driving
its own in every other slice and measuring past each slice's lead (docs/PERFORMANCE.md, "Two targets measured turn
by turn"), and says tenth of a second by tenth where its tail was; `--linger` keeps a generator's sessions open after
its report. Real servers (`refreshkit serve`, and with `--echo-protocol` the bench floor's echo) and the real
generator.
"""
from __future__ import annotations

import json
import os
import select
import signal
import subprocess
from pathlib import Path

from conftest import server_binary
from test_metrics import wait_for_metrics

SESSIONS = 20
RATE = 60.0
SLICE = 0.2
LEAD = 0.05
WINDOW = 1.6  # four pairs of slices: each generator measures four slices of 0.15 s


def load_binary():
    """REFRESHKIT_LOAD_BIN, else the generator beside the server: `make test` runs these tests alone, after the
    parallel suites, on a release generator (its slices' edges are timed to a few ms)."""
    path = Path(os.environ.get("REFRESHKIT_LOAD_BIN") or server_binary().parent / "refreshkit-load")
    assert path.exists(), f"{path} is missing: `make server-test` builds it beside the server (swift build " \
        "--build-tests; with TEST_CONFIG=release, swift build -c release --product refreshkit-load)"
    return path


def generator(port: int, pid: int, phase: int) -> subprocess.Popen:
    return subprocess.Popen(
        [str(load_binary()), "--url", f"ws://127.0.0.1:{port}/", "--protocol", "autobahn-echo", "--mode", "echo",
         "--sessions", str(SESSIONS), "--rate", str(RATE), "--warmup", "0.3", "--duration", str(WINDOW),
         "--server-pid", str(pid), "--slice", str(SLICE), "--slice-phase", str(phase), "--slice-lead", str(LEAD)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_two_generators_take_turns_and_measure_only_their_slices(fresh_server):
    servers = [fresh_server("--echo-protocol") for _ in range(2)]
    runs = [generator(srv.port, srv.proc.pid, phase) for phase, srv in enumerate(servers)]
    reports = []
    for run in runs:
        out, err = run.communicate(timeout=40)
        assert run.returncode == 0, err
        reports.append(json.loads(out.strip().splitlines()[-1]))
    measured = 4 * (SLICE - LEAD)
    for report in reports:
        assert report["slices"] == 4 and report["slice_s"] == SLICE, report
        # The measured parts of its slices (0.6 s), not its slices whole (0.8 s) nor the window (1.6 s); each edge is
        # seen at the generator's next millisecond timer, later on a busy machine.
        assert abs(report["window_s"] - measured) < 0.06, report
        # The schedule's inputs in the measured part of its slices, and every one answered and timed.
        expected = SESSIONS * RATE * measured
        assert 0.85 * expected <= report["inputs_sent"] <= 1.15 * expected, report
        assert report["latency_samples"] == report["inputs_sent"] and report["inputs_unanswered"] == 0, report
        assert report["server_cpu_seconds"] > 0, report
        # Where the tail was, tenth of a second by tenth (`tail_bins`): every timed input in a bin, and every bin in
        # one of its own slices, counted from the window's first, which is its own.
        bins = report["tail_bins"]
        assert report["tail_bin_s"] == 0.1 and report["tail_late_ms"] == 2, report
        assert sum(inputs for _, inputs, _, _ in bins) == report["latency_samples"], bins
        assert all(0 <= late <= inputs and slowest >= 0 for _, inputs, late, slowest in bins), bins
        assert all(round(start * 10) % round(20 * SLICE) < round(10 * SLICE) for start, _, _, _ in bins), bins
    for srv in servers:
        assert not srv.error_lines(), srv.output()


def test_a_lead_as_long_as_the_slice_is_refused():
    result = subprocess.run(
        [str(load_binary()), "--url", "ws://127.0.0.1:9/", "--slice", "0.2", "--slice-lead", "0.2"],
        capture_output=True, text=True, timeout=20)
    assert result.returncode != 0
    assert "--slice-lead must be 0 or more, and shorter than --slice" in result.stderr


def test_a_lingering_generator_reports_then_keeps_its_sessions_open_until_it_ends(fresh_server):
    srv = fresh_server()
    run = subprocess.Popen(
        [str(load_binary()), "--url", srv.ws_url, "--sessions", "5", "--warmup", "0.2", "--duration", "0.5",
         "--linger", "600", "--server-pid", str(srv.proc.pid)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # The report comes as the window is over and answered, before the linger, not at the exit.
        ready, _, _ = select.select([run.stdout], [], [], 60)
        assert ready, "no report within 60 s"
        report = json.loads(run.stdout.readline())
        assert report["inputs_sent"] > 0 and report["inputs_unanswered"] == 0, report
        assert run.poll() is None, "the generator exited instead of lingering"
        wait_for_metrics(srv, lambda m: m["refreshkit_connections"] == 5, "the five sessions open while it lingers")
    finally:
        run.terminate()
        run.wait(timeout=20)
    # Ended by the signal, not by itself: it was still lingering, 600 s being far from over.
    assert run.returncode == -signal.SIGTERM, (run.returncode, run.stderr.read())
    wait_for_metrics(srv, lambda m: m["refreshkit_connections"] == 0, "the sessions closed once it ended")
    assert not srv.error_lines(), srv.output()


def test_a_negative_linger_is_refused():
    result = subprocess.run(
        [str(load_binary()), "--url", "ws://127.0.0.1:9/", "--linger=-1"], capture_output=True, text=True, timeout=20)
    assert result.returncode != 0
    assert "--linger must be 0…3600 seconds" in result.stderr
