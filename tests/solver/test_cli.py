"""The table commands end to end, through the command-line entry point."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from boardlab.cli.main import main
from boardlab.games.dodgem.rules import rules_for
from boardlab.solver.api import expected_header, table_path
from boardlab.solver.build import solve_in_memory
from boardlab.solver.index import scheme_for
from boardlab.solver.tablefile import write_table


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_solve_then_reuse(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", "--size", "3", "--tables", str(tmp_path))
    assert status == 0 and "2,846 positions" in out
    assert table_path(rules_for("classic", 3), tmp_path).exists()
    status, out, _ = run(capsys, "solve", "--size", "3", "--tables", str(tmp_path))
    assert status == 0 and "up to date" in out
    status, out, _ = run(capsys, "solve", "--size", "3", "--tables", str(tmp_path), "--force")
    assert status == 0 and "wrote" in out


def test_probe_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    lines = "B2/B2/1RR b\nnonsense\n\nB2/B2/1RR r\nB3/B3/B3/1RRR b\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    status, out, _ = run(capsys, "probe", "--size", "3", "--tables", str(tmp_path))
    rows = [json.loads(x) for x in out.splitlines()]
    # Two of the four lines failed, so the exit status says so.
    assert status == 1 and len(rows) == 4
    assert rows[0] == {"position": "B2/B2/1RR b", "value": "win", "remoteness": 19}
    assert "error" in rows[1] and rows[1]["position"] == "nonsense"
    assert rows[2]["value"] in ("win", "loss", "draw")
    assert "error" in rows[3]


def test_analyze_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "analyze", "--size", "3", "--tables", str(tmp_path), "--json")
    data = json.loads(out)
    assert status == 0 and data["value"] == "win" and data["remoteness"] == 19
    assert data["moves"][0] == {"move": "a3-b3", "value": "win", "remoteness": 19}
    status, out, _ = run(capsys, "analyze", "--size", "3", "--tables", str(tmp_path))
    assert status == 0 and "a3-b3" in out


def test_stats_json_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plot = tmp_path / "h.png"
    status, out, _ = run(
        capsys, "stats", "--size", "3", "--tables", str(tmp_path), "--json", "--plot", str(plot)
    )
    data = json.loads(out)
    assert status == 0
    assert data["reachable"] == {"win": 1123, "loss": 840, "draw": 0, "positions": 1963}
    assert data["start"]["value"] == "win" and data["start"]["remoteness"] == 19
    assert data["all"]["win"] + data["all"]["loss"] + data["all"]["draw"] == 2846
    assert data["max_remoteness"] >= 19
    assert plot.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize("variant", ["classic", "blocked-loses"])
def test_stats_4x4_facts(tmp_path: Path, capsys: pytest.CaptureFixture[str], variant: str) -> None:
    status, out, _ = run(
        capsys, "stats", "--size", "4", "--variant", variant, "--tables", str(tmp_path), "--json"
    )
    data = json.loads(out)
    assert status == 0
    want = {
        "classic": {"win": 209489, "loss": 149130, "draw": 35281, "positions": 393900},
        "blocked-loses": {"win": 205919, "loss": 139435, "draw": 48546, "positions": 393900},
    }
    assert data["reachable"] == want[variant]
    assert data["start"] == {"position": "B3/B3/B3/1RRR b", "value": "draw", "remoteness": None}


def test_verify_passes_and_catches_a_wrong_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(
        capsys,
        "verify",
        "--size",
        "4",
        "--variant",
        "misere",
        "--tables",
        str(tmp_path),
        "--sample",
        "500",
    )
    assert status == 0 and "no disagreement" in out
    rules = rules_for("classic", 3)
    codes = solve_in_memory(rules)
    start = scheme_for(rules).index(rules.start())
    codes[start] = 2 + 2 * 17  # claim a faster win than there is
    header = expected_header(rules)
    header.update(positions=0, win=0, loss=0, draw=0, max_remoteness=0, size=3)
    write_table(table_path(rules, tmp_path), codes, header)
    status, out, _ = run(capsys, "verify", "--size", "3", "--tables", str(tmp_path), "--json")
    data = json.loads(out)
    assert status == 1 and data["failures"] >= 1
    assert any(d.startswith("B2/B2/1RR b") for d in data["disagreements"])
    assert np.count_nonzero(codes) == 2846


def test_missing_5x5_and_corrupt_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "analyze", "--size", "5", "--tables", str(tmp_path))
    assert status == 2 and "boardlab solve --game dodgem --size 5" in err
    assert len(err.strip().splitlines()) == 1
    bad = table_path(rules_for("classic", 5), tmp_path)
    bad.write_bytes(b"BLTABLE\n" + b"\x00" * 10)
    status, _, err = run(capsys, "probe", "--size", "5", "--tables", str(tmp_path))
    assert status == 2 and str(bad) in err.replace("\n", "") and "--force" in err
    status, _, err = run(capsys, "stats", "--size", "6", "--tables", str(tmp_path))
    assert status == 2 and "3×3 to 5×5" in err
