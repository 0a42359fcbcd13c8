"""`refreshkit cert` for the tests over TLS (docs/HTTPS.md): the CA and the server certificate the product itself
makes, for e2e/browser, e2e/cluster and e2e/transports, which import it with `e2e/` on the path."""
from __future__ import annotations

import subprocess
from pathlib import Path

from link_support import refreshkit_binary


def certificates(folder: Path) -> Path:
    """`refreshkit cert --dir folder`: ca.pem, server.pem (localhost, 127.0.0.1, ::1 and this machine's names and
    addresses) and their keys; returns the folder."""
    made = subprocess.run([str(refreshkit_binary()), "cert", "--dir", str(folder)], capture_output=True, text=True,
                          timeout=60)
    assert made.returncode == 0, f"refreshkit cert: {made.stderr}"
    return folder


def trusting_home(ca: Path, home: Path) -> Path:
    """Makes `home` a HOME whose NSS database (where Chromium on Linux finds the CAs its user trusts) trusts `ca` for
    TLS servers, as a phone that installed it does; returns it. Needs `certutil` (Debian's libnss3-tools)."""
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    for command in (["certutil", "-N", "-d", f"sql:{nssdb}", "--empty-password"],
                    ["certutil", "-A", "-d", f"sql:{nssdb}", "-n", "RefreshKit CA", "-t", "C,,", "-i", str(ca)]):
        done = subprocess.run(command, capture_output=True, text=True, timeout=30)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)}: {done.stderr.strip()} (certutil: apt-get install libnss3-tools)")
    return home
