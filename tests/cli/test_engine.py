"""The engine's line protocol."""

from __future__ import annotations

import io
import subprocess
import sys

from boardlab.cli.engine import Engine, serve
from boardlab.games.dodgem import rules_for


def talk(lines: list[str], size: int = 3, level: str = "2") -> list[str]:
    engine = Engine(rules_for("classic", size), level, seed=1)
    out = io.StringIO()
    serve(engine, io.StringIO("".join(line + "\n" for line in lines)), out)
    return out.getvalue().splitlines()


def test_go_from_the_start_and_from_a_position() -> None:
    rules = rules_for("classic", 3)
    answers = talk(["isready", "go", "position 2B/3/R2 b", "go", "quit"])
    assert answers[0] == "readyok"
    first = answers[1].removeprefix("bestmove ")
    assert rules.parse_move(first) in rules.legal_moves(rules.start())
    assert answers[2] == "bestmove c3-off"
    assert len(answers) == 3


def test_bad_lines_get_errors_and_the_engine_goes_on() -> None:
    answers = talk(
        [
            "position nonsense",
            "fly",
            "position B2/B2/1RR b moves a2-a3",
            "position startpos moves zz",
            "position 3/3/R2 b",
            "go",
            "startpos",
            "go",
        ]
    )
    assert answers[0].startswith("error ") and "not a Dodgem position" in answers[0]
    assert answers[1].startswith("error unknown command")
    assert answers[2].startswith("error ") and "occupied" in answers[2]
    assert answers[3].startswith("error ")
    assert answers[4] == "error the game is over: no move to play"
    assert answers[5].startswith("bestmove ")
    assert len(answers) == 6


def test_moves_after_the_position_are_played_and_remembered() -> None:
    answers = talk(["position startpos moves a2-b2 b1-a1", "go"])
    rules = rules_for("classic", 3)
    pos = rules.play(
        rules.play(rules.start(), rules.parse_move("a2-b2")), rules.parse_move("b1-a1")
    )
    assert rules.parse_move(answers[0].removeprefix("bestmove ")) in rules.legal_moves(pos)


def test_repetition_ends_the_game_for_the_engine() -> None:
    # Both sides step aside and back twice: the first position occurs a third time.
    line = "position B2/3/2R b moves a3-a2 c1-b1 a2-a3 b1-c1 a3-a2 c1-b1 a2-a3 b1-c1"
    assert talk([line, "go"]) == ["error the game is over: drawn by repetition"]


def test_engine_command_over_pipes() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "boardlab", "engine", "--size", "3", "--level", "3"],
        input="position 2B/3/R2 b\ngo\nbad\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0
    assert proc.stdout.splitlines() == [
        "bestmove c3-off",
        "error unknown command 'bad' (position, go, isready, quit)",
    ]
