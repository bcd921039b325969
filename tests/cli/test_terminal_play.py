"""The terminal as players expect it (issue 12): the board once per turn with its exit edges,
watch showing boards with a live tally, a real `help`, and records that name the players as
the web app does."""

from __future__ import annotations

import re
from pathlib import Path

from rich.console import Console

from boardlab.core.records import GameRecord, player_label
from boardlab.core.registry import make_rules
from boardlab.games.dodgem.render import render_board
from tests.cli.test_cli import boardlab

FILES_3 = "    a  b  c"


def test_play_draws_the_board_once_per_turn_with_exit_edges() -> None:
    # the human moves once, the computer answers, the human quits: two boards, not three
    out = boardlab("play", "--size", "3", "--red", "random", "--seed", "3", stdin="a2-b2\nquit\n")
    assert out.returncode == 0, out.stderr
    boards = [line for line in out.stdout.splitlines() if line.rstrip() == FILES_3]
    assert len(boards) == 2
    assert "red (random) plays" in out.stdout
    assert " ▶" in out.stdout and "▲" in out.stdout  # blue leaves east, red north


def test_help_explains_the_notation_with_examples() -> None:
    out = boardlab("play", "--size", "3", "--red", "human", stdin="help\nquit\n")
    assert "FROM-TO" in out.stdout and "a2-b2" in out.stdout and "c2-off" in out.stdout
    assert "Legal now, for example: a2-b2" in out.stdout
    assert "undo / redo" in out.stdout
    dd = boardlab("play", "--game", "dotdash", "--setup", "setup R:E5 B:E6,F5 r",
                  "--blue", "human", "--size", "9", stdin="help\nquit\n")  # fmt: skip
    assert "slides" in dd.stdout and "G7-G4" in dd.stdout


def test_watch_many_games_shows_the_last_board_and_the_tally() -> None:
    out = boardlab("watch", "--size", "3", "--games", "3", "--seed", "5")
    assert out.returncode == 0, out.stderr
    assert "game 3:" in out.stdout
    assert FILES_3 in out.stdout and "▲" in out.stdout
    assert "blue" in out.stdout and "draws" in out.stdout


def test_a_car_that_left_leaves_a_trace_on_its_own_exit_edge() -> None:
    rules = make_rules("dodgem", None, 3)
    before = rules.parse_position("3/2B/R2 b")
    move = rules.parse_move("c2-off")
    console = Console(width=60, force_terminal=False, color_system=None)
    with console.capture() as cap:
        console.print(render_board(rules, rules.play(before, move), move))  # type: ignore[arg-type]
    lines = cap.get().splitlines()
    rank2 = next(line for line in lines if line.startswith(" 2 "))
    assert rank2.rstrip().endswith("◆")  # beside c2, on Blue's (east) edge
    assert "◆" not in lines[0]  # not on Red's (north) edge


def test_records_name_players_the_same_way_everywhere(tmp_path: Path) -> None:
    assert player_label("3") == "level 3"
    assert player_label("level 3") == "level 3"
    assert player_label("human") == "human" and player_label("random") == "random"
    record = tmp_path / "game.txt"
    out = boardlab(
        "play", "--size", "3", "--red", "1", "--seed", "1", stdin=f"a2-b2\nsave {record}\nquit\n"
    )
    assert out.returncode == 0, out.stderr
    text = record.read_text()
    assert '[Red "level 1"]' in text and '[Blue "human"]' in text
    # the web app's export writes the same tags
    loaded = GameRecord.parse(text)
    again = GameRecord.from_session(loaded.to_session(), {"blue": "human", "red": "1"})
    assert again.players == {"blue": "human", "red": "level 1"}


def test_help_gives_each_sides_directions_and_the_variants_own_ending() -> None:
    from boardlab.games.dodgem.render import notation_help

    classic = notation_help(make_rules("dodgem", "classic", 4))  # type: ignore[arg-type]
    assert "a blue car east (forward), north or south" in classic
    assert "a red car north (forward), west or east" in classic
    assert "e.g. d2-off" in classic  # an exit square of this size: blue leaves from file d
    assert "all of its cars off wins" in classic and "without a move on their turn wins" in classic
    assert "a third time is a draw" in classic
    misere = notation_help(make_rules("dodgem", "misere", 4))  # type: ignore[arg-type]
    assert "all of its cars off loses" in misere
    blocked = notation_help(make_rules("dodgem", "blocked-loses", 4))  # type: ignore[arg-type]
    assert "without a move on their turn loses" in blocked
    pack = notation_help(make_rules("dodgem", "piecepack", 6))  # type: ignore[arg-type]
    assert "a green car south (forward), west or east" in pack and "e.g. b6-off" in pack
    assert "without a move passes" in pack


def test_watch_names_the_levels_as_records_do() -> None:
    out = boardlab("watch", "--size", "3", "--games", "2", "--red", "1", "--seed", "2")
    assert out.returncode == 0, out.stderr
    assert "2 games: blue level 3 vs red level 1" in out.stdout  # blue: the default level


def test_the_finished_board_shows_no_side_to_move() -> None:
    rules = make_rules("dodgem", None, 3)
    move = rules.parse_move("c2-off")
    after = rules.play(rules.parse_position("3/2B/R2 b"), move)
    console = Console(width=60, force_terminal=False, color_system=None)
    with console.capture() as cap:
        console.print(render_board(rules, after, move))  # type: ignore[arg-type]
    assert "to move" not in cap.get()


def test_level_4_announces_its_forced_win_and_undo_says_what_it_took_back(
    small_tables_folder: Path,
) -> None:
    out = boardlab(
        "play", "--size", "3", "--red", "4", "--seed", "1", "--tables", str(small_tables_folder),
        stdin="a2-b2\nundo\nredo\nquit\n",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    # the start is lost for blue: level 4 (red) says so after its reply, as the web page does
    assert re.search(r"red \(level 4\) has a forced win in \d+ moves \(\d+ plies\)\.", out.stdout)
    reply = re.search(r"red \(level 4\) plays (\S+)", out.stdout)
    assert reply is not None
    assert f"took back a2-b2, {reply.group(1)}" in out.stdout
    assert f"replayed a2-b2, {reply.group(1)}" in out.stdout
