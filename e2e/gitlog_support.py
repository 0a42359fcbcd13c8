"""`examples/gitlog`'s server and the repositories its tests make (docs/EMBEDDING.md): shared by
e2e/server/test_gitlog_example.py and e2e/browser/test_gitlog_example.py, which import it with `e2e/` on the path."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

from link_support import refreshkit_binary

FIRST_SECOND = 1_790_000_000  # the commits' dates: commit n at this second + n minutes


def gitlog_command(repository: Path) -> list[str]:
    """The example's command on a loopback port of its own, beside the `refreshkit` build the tests use."""
    binary = refreshkit_binary().parent / "refreshkit-gitlog"
    assert binary.exists(), f"{binary} not found: run `swift build` first"
    return [str(binary), "--host", "127.0.0.1", "--port", "0", "--web-root", "web", "--repo", str(repository)]


def git(repository: Path, *args: str, when: int = 0) -> str:
    stamp = f"{FIRST_SECOND + when * 60} +0000"
    env = {**os.environ, "GIT_AUTHOR_NAME": "Ada", "GIT_AUTHOR_EMAIL": "ada@example.org",
           "GIT_COMMITTER_NAME": "Ada", "GIT_COMMITTER_EMAIL": "ada@example.org",
           "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
    return subprocess.run(["git", "-C", str(repository), *args], env=env, check=True, capture_output=True,
                          text=True).stdout


def commit(repository: Path, number: int) -> None:
    """An empty commit titled `Commit n`, its body `Why commit n was made.`, dated n minutes after the first."""
    git(repository, "commit", "--allow-empty", "-q", "-m", f"Commit {number}", "-m", f"Why commit {number} was made.",
        when=number)


def make_repository(path: Path, commits: int) -> Path:
    git(path, "init", "-q")
    for number in range(1, commits + 1):
        commit(path, number)
    return path
