"""The command line as a user runs it: real processes, exit statuses and output."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from boardlab.cli.main import COMMANDS, build_parser


def boardlab(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "boardlab", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        env={"COLUMNS": "100", "PATH": "/usr/bin:/bin", "HOME": str(Path.home())},
    )


def test_perft_prints_the_count_last() -> None:
    out = boardlab("perft", "--game", "dodgem", "--size", "3", "--depth", "8")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[-1] == "8865"


def test_perft_from_a_position_with_divide() -> None:
    out = boardlab("perft", "--size", "3", "--position", "B2/B2/1RR b", "--depth", "3", "--divide")
    lines = out.stdout.strip().splitlines()
    divided = [int(line.split(": ")[1]) for line in lines if line.startswith(("a2", "a3"))]
    assert divided and sum(divided) == int(lines[-1])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["perft", "--size", "3", "--position", "B2/B2/1R b", "--depth", "2"], "rank 1"),
        (["perft", "--game", "chess", "--depth", "2"], "unknown game"),
        (["perft", "--variant", "tiny", "--depth", "2"], "unknown dodgem variant"),
        (["perft", "--size", "12", "--depth", "2"], "size must be 3 to 8"),
        (["play", "--load", "/nonexistent/game.txt"], "cannot read record"),
        (["play", "--green", "human"], "not a side of this game"),
        (["watch", "--blue", "human"], "computer against computer"),
        (["play", "--red", "9"], "unknown player '9' for Dodgem"),
        (["perft", "--depth", "-1"], "--depth must be 0 to 20"),
        (
            ["perft", "--variant", "piecepack", "--size", "9", "--depth", "1"],
            "3 to 8 for piecepack",
        ),
        (["perft", "--size", "four", "--depth", "1"], "invalid int value: 'four'"),
        (["perft"], "the following arguments are required: --depth"),
        (["fly"], "invalid choice: 'fly'"),
        (["league", "--game", "dotdash", "--levels", "1,5"], "random or a level 1-4"),
        (["solve", "--game", "dotdash"], "the solver has no tables for Dot Dash"),
        (["probe", "--game", "dot-dash", "--size", "9"], "the solver has no tables for Dot Dash"),
    ],
)
def test_bad_input_gives_one_line_and_status_2(args: list[str], message: str) -> None:
    out = boardlab(*args)
    assert out.returncode == 2
    assert message in out.stderr
    assert "Traceback" not in out.stderr + out.stdout
    assert len(out.stderr.strip().splitlines()) == 1


def test_every_command_has_help() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    names = set(sub.choices)  # type: ignore[arg-type]
    assert {"play", "watch", "perft"} <= names <= set(COMMANDS)
    for name in sorted(names):
        out = boardlab(name, "--help")
        assert out.returncode == 0 and "usage: boardlab " + name in out.stdout


def test_play_against_the_computer_from_stdin(tmp_path: Path) -> None:
    record = tmp_path / "game.txt"
    script = f"moves\nhello\na2-b2\nundo\nredo\nsave {record}\nquit\n"
    out = boardlab("play", "--size", "3", "--red", "random", "--seed", "3", stdin=script)
    assert out.returncode == 0, out.stderr
    assert "a2-b2 a2-a1 a3-b3" in out.stdout  # the legal moves at the start
    assert "'hello' is not a Dodgem move" in out.stdout
    assert "red (random) plays" in out.stdout
    text = record.read_text()
    assert '[Red "random"]' in text and "1. a2-b2 " in text
    # The saved game loads back and play goes on from it.
    again = boardlab("play", "--load", str(record), "--red", "random", stdin="quit\n")
    assert again.returncode == 0 and "last move" in again.stdout


def test_human_against_human_to_the_end() -> None:
    # Blue drives both cars straight across and off; red shuffles on its bottom rank.
    moves = [
        "a3-b3",
        "b1-a1",
        "b3-c3",
        "a1-b1",
        "c3-off",
        "b1-a1",
        "a2-b2",
        "a1-b1",
        "b2-c2",
        "b1-a1",
        "c2-off",
    ]
    out = boardlab("play", "--size", "3", "--red", "human", stdin="\n".join(moves) + "\n")
    assert out.returncode == 0, out.stderr
    assert "Blue wins — all cars left the board" in out.stdout  # the web page's words


def test_watch_many_games_prints_totals() -> None:
    sides = ("--blue", "random", "--red", "random")
    out = boardlab("watch", "--size", "3", "--games", "20", "--seed", "5", *sides)
    assert out.returncode == 0, out.stderr
    last = [line for line in out.stdout.splitlines() if "│" in line][-1]
    counts = [int(x) for x in last.replace("│", " ").split()]
    assert sum(counts) == 20
    assert "20 games: blue random vs red random" in out.stdout and "[bold]" not in out.stdout


def test_watch_one_game_shows_the_moves() -> None:
    out = boardlab("watch", "--size", "3", "--seed", "5", "--delay", "0")
    assert out.returncode == 0, out.stderr
    assert "blue plays" in out.stdout and ("wins" in out.stdout or "Draw" in out.stdout)
    # by default the game's default level plays both sides, not the random player
    assert "blue level 3, red level 3" in out.stdout


def test_dotdash_pie_against_the_computer_seats_the_players_by_its_choice() -> None:
    # The human places the stones (Enter: the suggested setup), the computer picks a colour.
    out = boardlab(
        "play",
        "--game",
        "dotdash",
        "--size",
        "9",
        "--blue",
        "2",
        "--seed",
        "1",
        stdin="setup R:E5 B:E6,F5\nquit\n",
    )
    assert out.returncode == 0, out.stderr
    chosen = "blue" if "The computer chooses blue" in out.stdout else "red"
    assert f"The computer chooses {chosen}" in out.stdout
    human = "red" if chosen == "blue" else "blue"
    assert f"{human} human, " in out.stdout or f", {human} human." in out.stdout
    assert f"{chosen} level 2" in out.stdout


def test_dotdash_fixed_setup() -> None:
    out = boardlab(
        "play",
        "--game",
        "dotdash",
        "--setup",
        "setup R:G7 B:G8,H7 r",
        "--blue",
        "human",
        stdin="G7-J10\nquit\n",
    )
    assert out.returncode == 0, out.stderr
    assert "last move: G7-J10" in out.stdout
