"""Reading QR codes back, as a phone's camera would: modules drawn as a bitmap and decoded by zbar (Debian's
zbar-tools, installed by `make test-deps`)."""
from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path


def decode(rows: list[list[bool]], scale: int = 8) -> list[str]:
    """What zbarimg reads from the modules drawn as a black-on-white bitmap (plain PBM, `scale` px a module)."""
    width = len(rows[0]) * scale
    bits = []
    for row in rows:
        line = " ".join("1" if dark else "0" for dark in row for _ in range(scale))
        bits += [line] * scale
    with tempfile.TemporaryDirectory() as folder:
        image = Path(folder) / "code.pbm"
        image.write_text(f"P1\n{width} {len(bits)}\n" + "\n".join(bits) + "\n")
        result = subprocess.run(["zbarimg", "--quiet", "--raw", str(image)], capture_output=True, text=True,
                                timeout=30)
    assert result.returncode == 0, f"zbarimg could not read the code: {result.stderr}"
    return result.stdout.splitlines()


def svg_modules(svg: str) -> list[list[bool]]:
    """The modules of the server's QR SVG (one path of `M x y h w v1 h-w z` runs on a white square), True where dark."""
    side = int(re.search(r'viewBox="0 0 (\d+) \1"', svg).group(1))
    rows = [[False] * side for _ in range(side)]
    path = re.search(r'<path[^>]* d="([^"]*)"', svg).group(1)
    for x, y, w in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\3z", path):
        for column in range(int(x), int(x) + int(w)):
            rows[int(y)][column] = True
    return rows
