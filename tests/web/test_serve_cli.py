"""The `boardlab serve` command line."""

from __future__ import annotations

import pytest

from boardlab.cli.main import build_parser, main


def test_serve_defaults_to_loopback() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.open) == ("127.0.0.1", 8000, False)


def test_serve_rejects_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "70000"]) == 2
    err = capsys.readouterr().err
    assert "port" in err and len(err.strip().splitlines()) == 1
