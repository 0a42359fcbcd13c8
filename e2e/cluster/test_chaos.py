"""A short chaos run (bench/chaos.py, `make chaos`; docs/SCALING.md, "The chaos run") so the suite keeps it
honest: `make cluster`'s supervisord configuration with 3 processes, 10 sessions of two devices dragging through
HAProxy, and for 20 s a SIGKILL and a SIGSTOP of a server, a live server's health check made to fail, and Redis
stopped for a few seconds, one of each in turn (`make chaos` draws them at random for 300 s). No session is lost,
every session ends with both devices on the process the store names, and no two processes ever serve one session
at once: no frame of a process reaches a page after another process's frame of that session reached one
(docs/SCALING.md, "Fencing": serving leases), and no input is lost: every input a device numbered is applied by the
session that lives on ("Resending")."""
from __future__ import annotations

import sys

import pytest

from cluster_support import ROOT, server_support

sys.path.insert(0, str(ROOT / "bench"))
import chaos  # noqa: E402


def test_a_short_chaos_run_loses_nothing_and_splits_nothing():
    for tool in ("supervisord", "redis-server", "haproxy"):
        if not __import__("shutil").which(tool):
            pytest.fail(f"{tool} is not installed: run `scripts/ensure-deps.sh test`", pytrace=False)
    figures = chaos.run(server_support.server_binary(), seconds=20, sessions=10, processes=3, seed=30,
                        pause=(1.0, 2.0), kinds=("kill", "stop", "check", "redis"))
    summary = {k: v for k, v in figures.items() if k != "event_log"}
    for kind in ("sigkill", "sigstop", "check_failed", "redis_stopped"):
        assert figures[kind] >= 1, summary
    assert figures["sessions_lost"] == 0, summary
    assert figures["sessions_split_at_end"] == 0, summary
    assert figures["two_holders_moments"] == 0, summary
    assert figures["inputs_lost"] == 0, summary
