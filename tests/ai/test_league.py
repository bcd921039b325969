"""Leagues: reproducible from the seed whatever the number of processes; the command."""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from boardlab.ai import league
from boardlab.ai.league import (
    GameSpec,
    PairResult,
    game_seed,
    head_to_head,
    play_spec,
    run_league,
    schedule,
    scores,
)
from boardlab.ai.ratings import fit
from boardlab.cli.main import main


def test_results_do_not_depend_on_jobs() -> None:
    one = run_league("dodgem", "classic", 3, ["1", "2", "random"], 3, seed=5, jobs=1)
    two = run_league("dodgem", "classic", 3, ["1", "2", "random"], 3, seed=5, jobs=2)
    assert [r.as_dict() for r in one] == [r.as_dict() for r in two]
    assert len(one) == 6
    assert all(r.win + r.loss + r.draw == 3 for r in one)


_MARKS = "BOARDLAB_TEST_LEAGUE_MARKS"


def _first_quick_then_slow(spec: GameSpec) -> tuple[GameSpec, str, int]:
    """A stand-in game for the worker processes: game 0 ends at once, every other one
    lingers and then leaves a mark, so a mark shows a game that was let run on."""
    if spec.index > 0:
        time.sleep(20)
        Path(os.environ[_MARKS], f"{spec.index}-{os.getpid()}").touch()
    return spec, "win", 1


def test_an_interrupt_ends_the_worker_processes_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C during a league with --jobs: no game in play is waited for, no worker is left."""
    monkeypatch.setenv(_MARKS, str(tmp_path))
    monkeypatch.setattr(league, "play_spec", _first_quick_then_slow)

    def stop(spec: GameSpec, outcome: str) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_league("dodgem", "classic", 3, ["1", "2"], 4, jobs=2, on_game=stop)
    assert multiprocessing.active_children() == []
    assert list(tmp_path.iterdir()) == []  # the lingering games were ended, not finished


def test_seeds_differ_per_game_and_pair() -> None:
    specs = schedule("dodgem", None, 3, ["1", "2"], 4, seed=1)
    assert len({s.seed for s in specs}) == len(specs) == 8
    assert game_seed(1, "1", "2", 0) == specs[0].seed
    assert game_seed(2, "1", "2", 0) != specs[0].seed


def test_a_ladder_plays_only_neighbours_and_the_same_games() -> None:
    """With `steps` each player meets only its neighbours, both ways round, and every game
    it plays is the game the full round robin plays between them."""
    players = ["random", "1", "2"]
    specs = schedule("dodgem", None, 3, players, 2, seed=1, steps=True)
    met = {(s.first, s.second) for s in specs}
    assert met == {("random", "1"), ("1", "random"), ("1", "2"), ("2", "1")}
    ladder = run_league("dodgem", "classic", 3, players, 3, seed=4, steps=True)
    full = {
        (r.first, r.second): r.as_dict()
        for r in run_league("dodgem", "classic", 3, players, 3, seed=4)
    }
    assert [r.as_dict() for r in ladder] == [full[r.first, r.second] for r in ladder]
    assert len(ladder) == 4
    ratings = {r.player: r.rating for r in fit(ladder, players)}
    assert ratings["random"] == 0 and ratings["2"] > ratings["random"]


def test_league_command_steps(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["league", "--size", "3", "--levels", "random,1,2", "--games", "2", "--json"]
    assert main([*args, "--steps"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(r["first"], r["second"]) for r in data["results"]] == [
        ("random", "1"), ("1", "random"), ("1", "2"), ("2", "1")
    ]  # fmt: skip


def test_max_plies_ends_long_games_as_draws() -> None:
    """A game still going at the ply cap counts as a draw; games that end sooner keep their
    result, and the cap travels with every game of the schedule."""
    players = ["random", "1"]
    full = [play_spec(s) for s in schedule("dodgem", None, 3, players, 6, seed=2)]
    assert min(plies for *_, plies in full) > 4  # no 3×3 game ends in 4 plies
    capped = [play_spec(s) for s in schedule("dodgem", None, 3, players, 6, seed=2, max_plies=4)]
    assert [(outcome, plies) for _, outcome, plies in capped] == [("draw", 4)] * 12
    assert {r.draw for r in run_league("dodgem", "classic", 3, players, 3, max_plies=4)} == {3}
    cap = max(plies for *_, plies in full)  # a cap no game reaches changes nothing
    again = [play_spec(s) for s in schedule("dodgem", None, 3, players, 6, seed=2, max_plies=cap)]
    assert [o for _, o, _ in again] == [o for _, o, _ in full]


def test_league_command_rejects_a_cap_below_one_ply(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["league", "--size", "3", "--levels", "1,2", "--max-plies", "0"]) != 0
    err = capsys.readouterr().err
    assert "--max-plies must be at least 1" in err and "Traceback" not in err


def test_scores_count_both_colours() -> None:
    results = run_league("dodgem", "classic", 3, ["1", "3"], 2, seed=0)
    pts = scores(results)
    assert pts["1"][1] == pts["3"][1] == 4
    assert pts["1"][0] + pts["3"][0] == 4


def test_league_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["league", "--size", "3", "--levels", "1,2", "--games", "2", "--json"])
    assert status == 0
    data = json.loads(capsys.readouterr().out)
    assert [(r["first"], r["second"]) for r in data["results"]] == [("1", "2"), ("2", "1")]
    assert all(r["win"] + r["loss"] + r["draw"] == 2 for r in data["results"])
    assert [r["player"] for r in data["ratings"]] == ["1", "2"]
    assert (
        data["ratings"][0]["rating"] == 0
        and data["ratings"][1]["low"] <= data["ratings"][1]["high"]
    )


def test_league_command_table(capsys: pytest.CaptureFixture[str]) -> None:
    """The table shows, per first player, its wins-losses-draws against each second player
    and its points over both colours, as the league computed them."""
    assert main(["league", "--size", "3", "--levels", "1,random", "--games", "3"]) == 0
    out, ratings = capsys.readouterr().out.split("ratings (Bradley–Terry")
    results = run_league("dodgem", None, 3, ["1", "random"], 3, seed=0)
    pts = scores(results)
    rows = {line.split("│")[1].strip(): line for line in out.splitlines() if "│" in line}
    fitted = {r.player: r for r in fit(results, ["1", "random"])}
    rating_rows = {x.split("│")[1].strip(): x for x in ratings.splitlines() if "│" in x}
    assert f"{fitted['1'].rating:+.0f}" in rating_rows["L1"]
    assert "random = 0" in ratings and "—" in rating_rows["random"]
    won, games = head_to_head(results, "random", "1")
    assert f"{100 * won / games:.0f}% vs L1" in rating_rows["random"]
    assert set(rows) == {"L1", "random"}
    assert "first \\ second" in out and "score" in out
    for r in results:
        label = "L1" if r.first == "1" else "random"
        cells = [c.strip() for c in rows[label].split("│")[2:-1]]
        col = 1 if r.second == "random" else 0
        assert cells[col] == f"{r.win}-{r.loss}-{r.draw}"
        assert cells[1 - col] == "—"  # a player does not meet itself
    for name, label in (("1", "L1"), ("random", "random")):
        points, games = pts[name]
        assert games == 6
        assert f"{points:g}/6 (" in rows[label]


@pytest.mark.parametrize("levels", ["1", "1,1", "1,7", "1,x"])
def test_league_command_rejects_bad_levels(levels: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["league", "--size", "3", "--levels", levels, "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "error" in err and len(err.strip().splitlines()) == 1


def test_a_journal_resumes_a_league_where_it_stopped(tmp_path: Path) -> None:
    """A league stopped part way (its journal's last line cut short by the kill) plays only
    the games missing from the journal and ends with the results of an uninterrupted run;
    run again with more games it plays only the new ones."""
    players = ["random", "1", "2"]
    whole = run_league("dodgem", "classic", 3, players, 3, seed=7)
    journal = tmp_path / "league.jsonl"
    run_league("dodgem", "classic", 3, players, 3, seed=7, journal=journal)
    lines = journal.read_text().splitlines(keepends=True)
    assert len(lines) == 1 + 18 and json.loads(lines[0])["size"] == 3
    journal.write_text("".join(lines[:8]) + lines[8][:20])  # 7 games and a torn line
    played: list[tuple[str, str, int]] = []
    heard: list[tuple[int, int]] = []

    def resume(games: int) -> list[PairResult]:
        played.clear()
        return run_league(
            "dodgem",
            "classic",
            3,
            players,
            games,
            seed=7,
            journal=journal,
            on_game=lambda spec, _o: played.append((spec.first, spec.second, spec.index)),
            on_resume=lambda found, total: heard.append((found, total)),
        )

    again = resume(3)
    assert [r.as_dict() for r in again] == [r.as_dict() for r in whole]
    assert heard == [(7, 18)] and len(played) == 11
    assert len(journal.read_text().splitlines()) == 1 + 18  # the torn line was replaced
    more = resume(4)
    assert heard[-1] == (18, 24)
    assert {i for *_, i in played} == {3} and len(played) == 6
    assert [r.as_dict() for r in more] == [
        r.as_dict() for r in run_league("dodgem", "classic", 3, players, 4, seed=7)
    ]


@pytest.mark.parametrize(
    ("size", "change", "message"),
    [
        ("4", lambda text: text, "size 3 here, not 4"),  # another ruleset's journal
        ("3", lambda text: text + '{"first": "1"}\n', "line 4 is not a league game"),
        ("3", lambda text: "hello\n" + text, "line 1 is not the header of a league journal"),
    ],
)
def test_a_journal_of_another_league_or_a_corrupt_one_is_refused_and_kept(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    size: str,
    change: Callable[[str], str],
    message: str,
) -> None:
    journal = tmp_path / "league.jsonl"
    run_league("dodgem", "classic", 3, ["1", "2"], 1, seed=1, journal=journal)
    journal.write_text(change(journal.read_text()))
    before = journal.read_bytes()
    args = ["league", "--size", size, "--levels", "1,2", "--games", "2", "--seed", "1"]
    assert main([*args, "--journal", str(journal)]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert journal.read_bytes() == before


def test_league_command_resumes_from_its_journal_and_shows_progress(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command's JSON is the same from a journal as from play; stderr (not a terminal
    here) ends with the games done and their rate, and a resumed run says how many of its
    games the journal held."""
    args = ["league", "--size", "3", "--levels", "1,2", "--games", "3", "--json"]
    journal = tmp_path / "j.jsonl"
    assert main([*args, "--journal", str(journal)]) == 0
    first = capsys.readouterr()
    assert re.fullmatch(
        r"\S+ \S+ league: 6/6 games; [0-9.,]+ games/min; done", first.err.strip().splitlines()[-1]
    )
    assert main([*args, "--games", "4", "--journal", str(journal)]) == 0
    second = capsys.readouterr()
    assert f"{journal}: 6 of 8 games already played" in second.err
    assert "league: 8/8 games;" in second.err
    assert [r["win"] + r["loss"] + r["draw"] for r in json.loads(second.out)["results"]] == [4, 4]


def test_league_time_left_follows_the_recent_games_not_the_cheap_first_ones() -> None:
    """Forty games of a second each, then twenty of 100 s: sixty of a hundred are done, and
    the forty left go at the dear rate (0.6 games a minute, about 67 minutes), not at the
    average of all sixty (about 23 minutes). A dear game in progress slows the rate further;
    the last line gives the whole run's rate."""
    from boardlab.cli.league import LeagueProgress

    now = [0.0]
    progress = LeagueProgress(100, clock=lambda: now[0])
    assert progress.line() == "league: 0/100 games; 0.00 games/min"
    for cost in [1.0] * 40 + [100.0] * 20:
        now[0] += cost
        progress.game_done()
    assert progress.line() == "league: 60/100 games; 0.60 games/min; about 67 min left"
    now[0] += 2000.0  # one more dear game, still playing after 2,000 s
    assert progress.time_left() == "about 2.2 h left"
    for _ in range(40):
        now[0] += 10.0
        progress.game_done()
    assert progress.line() == f"league: 100/100 games; {60 * 100 / now[0]:.2f} games/min; done"
