"""`boardlab puzzles` and `boardlab review` as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardlab.core.records import GameRecord
from boardlab.games.dodgem import rules_for
from boardlab.solver.store import TableStore
from tests.cli.test_cli import boardlab

REVIEWS = Path(__file__).parents[1] / "ai" / "reviews"


def test_puzzles_json_one_checked_object_per_line(small_tables_folder: Path) -> None:
    args = ["puzzles", "--size", "4", "--count", "20", "--seed", "1", "--json"]
    out = boardlab(*args, "--tables", str(small_tables_folder))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 20
    rules = rules_for("classic", 4)
    table = TableStore(small_tables_folder).open(rules)
    kinds = set()
    for line in lines:
        p = json.loads(line)
        kinds.add(p["kind"])
        pos = rules.parse_position(p["position"])
        assert p["line"][0] == p["solution"]
        keepers = [
            rules.format_move(m)
            for m in rules.legal_moves(pos)
            if table.probe(rules.play(pos, m))[0].flipped().value == p["value"]
        ]
        if not p["fastest"]:
            assert keepers == [p["solution"]]
        assert p["solution"] in keepers
    assert kinds == {"win", "defend", "hold"}
    again = boardlab(*args, "--tables", str(small_tables_folder))
    assert again.stdout == out.stdout  # the same seed, the same puzzles


def test_puzzles_text_shows_board_task_and_solution(small_tables_folder: Path) -> None:
    out = boardlab(
        "puzzles",
        "--size",
        "3",
        "--count",
        "2",
        "--seed",
        "4",
        "--tables",
        str(small_tables_folder),
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("solution ") == 2
    assert "to move: find the" in out.stdout
    assert "rating" in out.stdout
    assert "[/" not in out.stdout and "[bold" not in out.stdout  # styles, not their markup


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["puzzles", "--count", "0"], "--count must be between 1 and 1000"),
        (["puzzles", "--game", "dotdash"], "no tables for Dot Dash"),
        (["puzzles", "--kind", "mate"], "invalid choice: 'mate'"),
        (["review", "/nonexistent/game.txt"], "no record file"),
    ],
)
def test_bad_input_one_line(args: list[str], message: str) -> None:
    out = boardlab(*args)
    assert out.returncode == 2
    assert message in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_review_text_and_json(small_tables_folder: Path) -> None:
    record = REVIEWS / "classic-4.txt"
    out = boardlab("review", str(record), "--tables", str(small_tables_folder))
    assert out.returncode == 0, out.stderr
    assert "draw → loss" in out.stdout and "win → draw" in out.stdout
    assert "[/" not in out.stdout and "[red" not in out.stdout  # styles, not their markup
    assert out.stdout.strip().endswith("3 mistakes, first at move 1 (red d1-d2)")
    js = boardlab("review", str(record), "--json", "--tables", str(small_tables_folder))
    data = json.loads(js.stdout)
    assert [m["ply"] for m in data["moves"] if m["mistake"]] == [2, 7, 12]
    assert data["mistakes_by_side"] == {"red": 2, "blue": 1}


def test_review_reads_an_imported_json_record_from_stdin(small_tables_folder: Path) -> None:
    text = GameRecord.load(REVIEWS / "misere-3.txt").to_json()
    out = boardlab("review", "-", "--all", "--tables", str(small_tables_folder), stdin=text)
    assert out.returncode == 0, out.stderr
    assert "win → draw" in out.stdout
    assert "1 mistake, first at move 2 (red b2-c2)" in out.stdout


def test_review_of_a_game_without_a_table(tmp_path: Path) -> None:
    record = tmp_path / "dd.txt"
    rec = GameRecord(game="dotdash", variant="standard", size=9, moves=[])
    rec.save(record)
    out = boardlab("review", str(record))
    assert out.returncode == 2
    assert "review needs a complete table" in out.stderr
