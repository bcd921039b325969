"""The `boardlab serve` command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardlab.cli.main import build_parser, main


def test_serve_defaults_to_loopback() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.open) == ("127.0.0.1", 8000, False)


def test_serve_rejects_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "70000"]) == 2
    err = capsys.readouterr().err
    assert "port" in err and len(err.strip().splitlines()) == 1


def test_serve_refuses_two_workers_on_sqlite(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    assert main(["serve", "--workers", "2", "--database", url]) == 2
    err = capsys.readouterr().err
    assert "PostgreSQL" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "games.sqlite3").exists()  # refused before anything was made


def test_serve_refuses_a_bad_events_url(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--events", "http://example.org"]) == 2
    err = capsys.readouterr().err
    assert "redis://" in err and len(err.strip().splitlines()) == 1
