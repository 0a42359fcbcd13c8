"""`refreshkit serve --controls DIR` (docs/CONTROLS.md): a folder that does not exist, or a file, is refused with
a clear message and a non-zero exit, before anything listens."""
from __future__ import annotations

import subprocess

import pytest

from conftest import ROOT, server_binary


@pytest.mark.parametrize("folder", ["no/such/folder", "README.md"])
def test_a_controls_folder_that_is_not_one_is_refused(folder):
    binary = server_binary()
    if not binary.exists():
        pytest.fail(f"server binary {binary} not found", pytrace=False)
    result = subprocess.run([str(binary), "serve", "--host", "127.0.0.1", "--port", "0", "--controls", folder],
                            cwd=ROOT, capture_output=True, text=True, timeout=20)
    assert result.returncode != 0
    assert f"controls folder '{folder}' does not exist or is not a directory" in result.stderr, result.stderr
    assert "listening on" not in result.stdout
