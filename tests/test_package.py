"""The package itself (src/boardlab/__init__.py): one version everywhere, a quick
`import boardlab`, and numba's compiled kernels cached under the user cache directory."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest

import boardlab
from boardlab.cli.main import main

REPO = Path(__file__).parents[1]
HEAVY = ("numpy", "numba", "fastapi", "rich", "matplotlib", "uvicorn", "pydantic", "platformdirs")


def _python(code: str, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip()


def test_one_version_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    version = boardlab.__version__
    assert importlib.metadata.version("boardlab") == version  # pyproject reads the same
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.strip() == f"boardlab {version}"
    from boardlab.web.app import create_app

    assert create_app().version == version
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"\n## {version}\n" in changelog


def test_import_boardlab_loads_no_heavy_library() -> None:
    probe = f"import sys, boardlab; print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    assert _python(probe) == ""


@pytest.mark.skipif(sys.platform != "linux", reason="XDG_CACHE_HOME names the cache on Linux")
def test_numba_caches_kernels_under_the_user_cache_directory(tmp_path: Path) -> None:
    code = "import boardlab, numba; print(numba.config.CACHE_DIR)"
    cache = tmp_path / "cache"
    assert _python(code, XDG_CACHE_HOME=str(cache)) == str(cache / "boardlab" / "numba")
    # An explicit $NUMBA_CACHE_DIR still wins.
    mine = tmp_path / "mine"
    assert _python(code, XDG_CACHE_HOME=str(cache), NUMBA_CACHE_DIR=str(mine)) == str(mine)
