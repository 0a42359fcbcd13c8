"""`examples/hummingbird-notes`, RefreshKit in a Hummingbird 2 app (docs/EMBEDDING.md, "In a Hummingbird app"): its
command, for e2e/transports and e2e/browser, which import it with `e2e/` on the path. It is this package's
`refreshkit-hummingbird` product (`make hummingbird-build`); REFRESHKIT_HUMMINGBIRD_BIN names another build."""
from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def hummingbird_binary() -> Path:
    named = os.environ.get("REFRESHKIT_HUMMINGBIRD_BIN")
    return Path(named) if named else ROOT / ".build" / "debug" / "refreshkit-hummingbird"


def hummingbird_command(*extra_args: str) -> list[str]:
    """The example app on a loopback port of its own, serving the repository's page; `extra_args` are more of its
    options (its front door's: `--trusted-proxy`, `--allow-origin`, `--metrics-allow`, `--post-allow`)."""
    binary = hummingbird_binary()
    assert binary.exists(), f"{binary} not found: run `make hummingbird-build` first"
    return [str(binary), "--host", "127.0.0.1", "--port", "0", "--web-root", str(ROOT / "web"), *extra_args]
