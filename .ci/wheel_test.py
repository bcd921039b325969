"""The wheel test: build a wheel and an sdist, install the wheel into a fresh virtual
environment outside the repository, and check what a user gets.

- `python -m build` makes exactly one wheel and one sdist, both holding the web page's files;
- the wheel ships the 3×3 and 4×4 classic tables (manifest, digest and every pack);
- `boardlab --version` reports the version written in src/boardlab/__init__.py;
- `import boardlab` imports none of the heavy libraries, and its time is measured and printed;
- `boardlab solve --size 4` builds the 4×4 table into the user data directory, and numba's
  compiled kernels land in the user cache directory, not in site-packages;
- `boardlab serve` serves the page and every static file it references.

Run from the repository root with a Python that has `build` (the test extra):
`python .ci/wheel_test.py`. Exit status 0 when every check passes.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SHIPPED_TABLES = ("dodgem-3-classic-wins-normal", "dodgem-4-classic-wins-normal")
HEAVY = ("numpy", "numba", "fastapi", "rich", "matplotlib", "uvicorn", "pydantic")


def run(cmd: list[str], echo: bool = True, **kw: Any) -> subprocess.CompletedProcess[str]:
    if echo:
        print("$", " ".join(str(c) for c in cmd), flush=True)
    result: subprocess.CompletedProcess[str] = subprocess.run(
        cmd, check=True, text=True, capture_output=True, **kw
    )
    return result


def check(ok: bool, what: str) -> None:
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        raise SystemExit(1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def main() -> int:
    root = Path(tempfile.mkdtemp(prefix="boardlab-wheel-"))
    try:
        return _main(root)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _main(root: Path) -> int:
    dist = root / "dist"
    run([sys.executable, "-m", "build", "--outdir", str(dist), str(REPO)])
    wheels, sdists = list(dist.glob("*.whl")), list(dist.glob("*.tar.gz"))
    check(len(wheels) == 1 and len(sdists) == 1, "one wheel and one sdist")
    names = zipfile.ZipFile(wheels[0]).namelist()
    check("boardlab/web/static/index.html" in names, "the wheel holds the web page")
    check("boardlab/py.typed" in names, "the wheel is typed (py.typed)")
    check("boardlab/data/positions.txt" in names, "the wheel holds the big boards' position counts")
    for ruleset in SHIPPED_TABLES:
        shipped = REPO / "src/boardlab/data/tables" / ruleset
        want = sorted(
            f"boardlab/data/tables/{ruleset}/{p.relative_to(shipped).as_posix()}"
            for p in shipped.rglob("*")
            if p.is_file()
        )
        check(
            bool(want) and all(n in names for n in want),
            f"the wheel ships the {ruleset} table ({len(want)} files)",
        )
    with tarfile.open(sdists[0]) as tar:
        members = tar.getnames()
    check(any(m.endswith("src/boardlab/web/static/index.html") for m in members), "sdist page")

    venv = root / "venv"
    run([sys.executable, "-m", "venv", str(venv)])
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    py, boardlab = bindir / "python", bindir / "boardlab"
    run([str(py), "-m", "pip", "install", "-q", str(wheels[0])])

    home = root / "home"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BOARDLAB_", "NUMBA_"))}
    env.update(
        HOME=str(home),
        XDG_CACHE_HOME=str(home / "cache"),
        XDG_DATA_HOME=str(home / "data"),
        PYTHONDONTWRITEBYTECODE="1",
    )
    work = root / "elsewhere"  # outside the repository: nothing can come from the checkout
    work.mkdir()
    opts: dict[str, Any] = {"cwd": work, "env": env}

    version = re.search(r'__version__ = "([^"]+)"', (REPO / "src/boardlab/__init__.py").read_text())
    assert version is not None
    out = run([str(boardlab), "--version"], **opts).stdout.strip()
    check(out == f"boardlab {version.group(1)}", f"boardlab --version says {out!r}")

    where = run([str(py), "-c", "import boardlab; print(boardlab.__file__)"], **opts).stdout
    site = Path(where.strip()).parent
    check(str(site).startswith(str(venv)), f"boardlab is imported from the venv ({site})")
    probe = f"import sys, boardlab; print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    loaded = run([str(py), "-c", probe], **opts).stdout.strip()
    check(loaded == "", f"import boardlab loads none of {', '.join(HEAVY)} ({loaded or 'none'})")
    times = []
    for _ in range(10):
        t0 = time.perf_counter()
        run([str(py), "-c", "import boardlab"], echo=False, **opts)
        times.append(time.perf_counter() - t0)
    bare = []
    for _ in range(10):
        t0 = time.perf_counter()
        run([str(py), "-c", "pass"], echo=False, **opts)
        bare.append(time.perf_counter() - t0)
    print(
        f"figure: python -c 'import boardlab' median {1000 * statistics.median(times):.1f} ms "
        f"(python -c 'pass' median {1000 * statistics.median(bare):.1f} ms)",
        flush=True,
    )

    run([str(boardlab), "solve", "--size", "4"], **opts)
    manifests = list((home / "data").rglob("manifest.json"))
    complete = [m for m in manifests if json.loads(m.read_text()).get("complete") is True]
    check(
        len(manifests) == 1 and len(complete) == 1,
        f"boardlab solve --size 4 wrote complete tables ({[m.parent.name for m in complete]})",
    )
    cached = [p for p in (home / "cache").rglob("*") if p.suffix in (".nbi", ".nbc")]
    check(bool(cached), f"{len(cached)} compiled kernel files under the user cache directory")
    in_site = [p for p in site.rglob("*") if p.suffix in (".nbi", ".nbc")]
    check(not in_site, "no compiled kernel files in site-packages")

    port = free_port()
    server = subprocess.Popen(
        [str(boardlab), "serve", "--port", str(port)],
        cwd=work,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        page = ""
        for _ in range(100):
            try:
                with urllib.request.urlopen(base + "/", timeout=2) as resp:
                    page = resp.read().decode()
                break
            except OSError:
                time.sleep(0.2)
        check("<html" in page.lower(), "boardlab serve serves the page")
        assets = sorted(set(re.findall(r'(?:src|href)="(/static/[^"]+)"', page)))
        check(bool(assets), f"the page references static files: {', '.join(assets)}")
        static = site / "web" / "static"
        files = sorted(p for p in static.rglob("*") if p.is_file())
        urls = {"/static/" + p.relative_to(static).as_posix(): p for p in files}
        check(set(assets) <= set(urls), "every static file the page names is installed")
        for url, local in urls.items():
            with urllib.request.urlopen(base + url, timeout=5) as resp:
                body = resp.read()
            check(resp.status == 200 and body == local.read_bytes(), f"GET {url}")
    finally:
        server.terminate()
        server.wait(timeout=10)
    print("wheel test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
