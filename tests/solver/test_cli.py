"""The table commands end to end, through the command-line entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardlab.cli.main import main
from boardlab.games.dodgem.rules import rules_for
from boardlab.solver.api import open_table, table_path
from boardlab.solver.folder import pack_path
from boardlab.solver.tierfile import write_pack


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


def test_solve_timings_name_every_phase(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from boardlab.solver.packsolve import PHASES

    args = ("solve", "--size", "3", "--tables", str(tmp_path), "--timings", "--workers", "2")
    status, out, _ = run(capsys, *args)
    assert status == 0
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("timings:"))
    rows = {}
    for line in lines[at + 2 : at + 2 + len(PHASES)]:
        label, wall, cpu = line.rsplit(maxsplit=2)
        rows[label.strip()] = (float(wall), float(cpu))
    assert set(rows) == set(PHASES.values())
    assert all(w >= 0 and c >= 0 for w, c in rows.values())
    # then what the process spent before the solve began (imports), apart from the totals
    label, wall, cpu = lines[at + 2 + len(PHASES)].rsplit(maxsplit=2)
    assert label.strip() == "before the solve: interpreter, imports"
    assert float(cpu) > 0 and (wall == "?" or float(wall) >= 0)


def test_solve_timings_add_up(tmp_path: Path) -> None:
    from boardlab.solver.api import build_table
    from boardlab.solver.packsolve import PHASES

    timings: dict[str, float] = {}
    build_table(rules_for("classic", 4), tmp_path, 2, timings=timings)
    assert set(timings) == set(PHASES) | {f"{p} cpu" for p in PHASES}
    assert timings["first pass cpu"] > 0 and timings["propagation cpu"] > 0
    assert timings["write cpu"] > 0
    assert all(v >= 0 for v in timings.values())


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
    assert data["all"] == {"win": 1696, "loss": 1150, "draw": 0, "positions": 2846}  # as before
    assert data["reachable"] == {"win": 1123, "loss": 840, "draw": 0, "positions": 1963}
    assert data["start"]["value"] == "win" and data["start"]["remoteness"] == 19
    assert data["all"]["win"] + data["all"]["loss"] + data["all"]["draw"] == 2846
    assert data["max_remoteness"] >= 19
    assert plot.read_bytes().startswith(b"\x89PNG")


def test_stats_scratch_folder_and_no_reachable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tables = str(tmp_path / "t")
    status, out, _ = run(capsys, "stats", "--size", "4", "--tables", tables, "--json")
    in_memory = json.loads(out)
    scratch = tmp_path / "marks"
    args = ("stats", "--size", "4", "--tables", tables, "--json", "--scratch", str(scratch))
    status, out, err = run(capsys, *args)
    assert status == 0 and f"reachability marks in {scratch}" in err
    assert json.loads(out)["reachable"] == in_memory["reachable"] and not scratch.exists()
    status, out, _ = run(
        capsys, "stats", "--size", "4", "--tables", tables, "--json", "--no-reachable"
    )
    quick = json.loads(out)
    assert status == 0 and quick["reachable"] is None
    assert quick["all"] == in_memory["all"] and quick["start"] == in_memory["start"]


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
    status, _, _ = run(
        capsys, "solve", "--size", "4", "--variant", "misere", "--tables", str(tmp_path)
    )
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
    status, _, _ = run(capsys, "solve", "--size", "3", "--tables", str(tmp_path))
    tb = open_table(rules, tmp_path)
    tier, index = tb.game.locate(rules.start())
    name = tb.pack_of(tier)
    pf = tb.pack(name)
    tiers = []
    for t in sorted(pf.tiers):
        codes = pf.tier_codes(t)
        if t == tier:
            codes[index] = 2 + 2 * 17  # claim a faster win than there is
        tiers.append((t, codes))
    header = {k: v for k, v in pf.header.items() if k in ("ruleset", "pack", "level")}
    tb.close()
    write_pack(pack_path(tb.path, name), tiers, header)
    status, out, _ = run(capsys, "verify", "--size", "3", "--tables", str(tmp_path), "--json")
    data = json.loads(out)
    assert status == 1 and data["failures"] >= 1
    assert any("B2/B2/1RR b" in d for d in data["findings"])


def test_missing_5x5_and_corrupt_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "analyze", "--size", "5", "--tables", str(tmp_path))
    assert status == 2 and "boardlab solve --game dodgem --size 5" in err
    assert len(err.strip().splitlines()) == 1
    run(capsys, "solve", "--size", "3", "--tables", str(tmp_path))
    rules = rules_for("classic", 3)
    tb = open_table(rules, tmp_path)
    bad = pack_path(tb.path, tb.pack_of(tb.game.locate(rules.start())[0]))
    bad.write_bytes(b"BLTIER1\n" + b"\x00" * 10)
    status, _, err = run(capsys, "analyze", "--size", "3", "--tables", str(tmp_path))
    flat = err.replace("\n", "")
    assert status == 2 and str(bad) in flat and "--force" in flat
    status, _, err = run(capsys, "stats", "--size", "7", "--tables", str(tmp_path))
    assert status == 2 and "3×3 to 6×6" in err


def test_estimate_predicts_without_solving(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from boardlab.solver.api import require_game
    from boardlab.solver.estimate import estimate

    args = ("solve", "--size", "4", "--estimate", "--cores", "8", "--tables", str(tmp_path))
    status, out, _ = run(capsys, *args)
    assert status == 0
    for line in ("tiers in", "time on 1 core", "time on 8 cores"):
        assert line in out
    assert "peak memory" in out and "disk: about" in out and "reading children" in out
    # nothing solved: the folder holds only the prediction, which the page reads
    assert [p.name for p in tmp_path.iterdir()] == [".estimates"]
    assert [p.name for p in (tmp_path / ".estimates").iterdir()] == [
        "dodgem-4-classic-wins-normal.json"
    ]
    est = estimate(require_game(rules_for("classic", 4)))
    assert est.positions == 510_914 and est.sampled_tiers > 0
    assert est.seconds_on(8) <= est.seconds_on(2) <= est.one_core_seconds


def test_stand_in_children_hold_valid_codes_in_the_stated_mix_and_runs() -> None:
    import numpy as np

    from boardlab.solver.estimate import STAND_IN_DEPTH, STAND_IN_MIX, STAND_IN_RUN, stand_in_codes

    n = 1_000_000
    codes = stand_in_codes(n, seed=7)
    assert codes.dtype == np.uint16 and len(codes) == n and codes.min() >= 1
    draw = float(np.mean(codes == 1))
    win = float(np.mean((codes >= 2) & (codes % 2 == 0)))
    assert abs(draw - STAND_IN_MIX[0]) < 0.02 and abs(win - STAND_IN_MIX[1]) < 0.02
    # runs of the stated mean length: two runs in a row share a code when both are draws, or
    # both wins (or losses) of the same remoteness, one of STAND_IN_DEPTH
    d, w, lo = STAND_IN_MIX
    same = d * d + (w * w + lo * lo) / STAND_IN_DEPTH
    runs = int(np.count_nonzero(np.diff(codes))) + 1
    assert abs(n / runs - STAND_IN_RUN / (1 - same)) < 0.1 * STAND_IN_RUN / (1 - same)
    assert np.array_equal(codes, stand_in_codes(n, seed=7))  # reproducible
    other = stand_in_codes(1000, seed=1, mix=(0.0, 1.0, 0.0), run=1.0)
    assert np.all((other >= 2) & (other % 2 == 0))  # all wins when the mix says so
