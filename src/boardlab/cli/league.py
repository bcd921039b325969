"""`boardlab league`: a round robin between computer levels, as a table or JSON."""

from __future__ import annotations

import argparse
import os
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from boardlab.ai.league import MAX_PLIES, GameSpec, PairResult, head_to_head, pairings
from boardlab.ai.ratings import Rating
from boardlab.cli.common import (
    UsageError,
    add_game_args,
    add_tables_arg,
    console,
    cores,
    err_console,
    log_line,
    print_json,
    rules_from_args,
    table_store,
)
from boardlab.core.registry import GameInfo, get_game


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `league` parser."""
    p = subparsers.add_parser(
        "league",
        help="round robin between computer levels",
        description="Every ordered pair of players plays G games (threefold repetition "
        "draws). Rows are the first player, columns the second; cells are the first "
        "player's wins-losses-draws.",
    )
    add_game_args(p)
    p.add_argument(
        "--levels",
        default="1,2,3,4",
        help="comma-separated players: the game's levels or 'random' (default 1,2,3,4)",
    )
    p.add_argument(
        "--opponent",
        action="append",
        default=[],
        metavar="SPEC",
        help="an outside player to seat as well, e.g. openspiel:mcts:1000 (OpenSpiel's MCTS "
        "with 1000 simulations; needs the openspiel extra); may be repeated",
    )
    p.add_argument("--games", type=int, default=10, help="games per ordered pair (default 10)")
    p.add_argument("--seed", type=int, default=0, help="league seed (default 0)")
    p.add_argument(
        "--jobs", type=int, default=1, help="worker processes (results do not depend on it)"
    )
    p.add_argument(
        "--setups",
        action="store_true",
        help="start every game from a random setup of the game's setup stage (Dot Dash's pie); "
        "the games of a pair in both orders share one, so each is played from both sides",
    )
    p.add_argument(
        "--time", type=float, default=None, help="seconds per move for players that use a clock"
    )
    p.add_argument(
        "--steps",
        action="store_true",
        help="a ladder: each player meets only its neighbours in --levels (random,1,2,3,4: "
        "random-1, 1-2, 2-3, 3-4), so the slowest level plays one pairing, not all",
    )
    p.add_argument(
        "--max-plies",
        type=int,
        default=MAX_PLIES,
        help=f"a game still going after this many plies counts as a draw (default {MAX_PLIES})",
    )
    p.add_argument(
        "--journal",
        type=Path,
        default=None,
        metavar="FILE",
        help="add every finished game to FILE and skip the games already there: a league "
        "stopped part way resumes where it stopped (start a new file after changing a level)",
    )
    add_tables_arg(p)
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.set_defaults(func=run)


LOG_EVERY = 60.0  # seconds between progress lines when stderr is not a terminal


RECENT_GAMES = 20  # the rate is measured over the last this many games


class LeagueProgress:
    """Games done of the league, their rate and the time left, counted from the games
    played now (those a journal held are done before the clock starts).

    A league's games differ in cost by orders of magnitude (random against level 1, then
    level 3 against level 4), and the dear ones come last, so the rate is that of the last
    `RECENT_GAMES` games, up to now: a slow game in progress lowers it as it goes on."""

    def __init__(self, total: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.clock = clock
        self.resume(0)

    def resume(self, found: int) -> None:
        """Start the clock with `found` games already done."""
        self.done = self.resumed = found
        self.start = self.clock()
        self.finished: deque[float] = deque([self.start], maxlen=RECENT_GAMES + 1)

    def game_done(self) -> None:
        self.done += 1
        self.finished.append(self.clock())

    def rate(self) -> float:
        """Games a minute over the last games played, up to now (at the end: over all the
        games played since the start or the resume)."""
        if self.done == self.total:  # all done: the whole run's rate
            games, elapsed = self.done - self.resumed, self.finished[-1] - self.start
        else:
            games, elapsed = len(self.finished) - 1, self.clock() - self.finished[0]
        return 60 * games / elapsed if elapsed > 0 else 0.0

    def shown_rate(self) -> str:
        rate = self.rate()
        return f"{rate:,.0f} games/min" if rate >= 100 else f"{rate:.2f} games/min"

    def time_left(self) -> str:
        """The time left at the recent rate, in words ("" before the first game ends)."""
        rate, left = self.rate(), self.total - self.done
        if not left:
            return "done"
        if rate <= 0:
            return ""
        minutes = left / rate
        if minutes < 1:
            return "under a minute left"
        if minutes < 90:
            return f"about {minutes:.0f} min left"
        return f"about {minutes / 60:.1f} h left"

    def line(self) -> str:
        text = f"league: {self.done}/{self.total} games; {self.shown_rate()}"
        left = self.time_left()
        return f"{text}; {left}" if left else text


@contextmanager
def league_progress(
    total: int, journal: Path | None
) -> Iterator[tuple[Callable[[GameSpec, str], None], Callable[[int, int], None]]]:
    """Progress of a league on stderr to its last game: a rich bar (games, rate, elapsed and
    time left) on a terminal, else a plain line a minute and one at the end. Yields the
    (on_game, on_resume) callbacks of `run_league`."""
    state = LeagueProgress(total)

    def resumed(found: int, _total: int) -> None:
        state.resume(found)
        if found:
            err_console.print(
                f"{journal}: {found} of {total} games already played",
                highlight=False,
                soft_wrap=True,
            )

    if not err_console.is_terminal:
        last = [time.monotonic()]

        def line(_spec: GameSpec, _outcome: str) -> None:
            state.game_done()
            now = time.monotonic()
            if now - last[0] >= LOG_EVERY or state.done == total:
                last[0] = now
                stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())
                log_line(f"{stamp} {state.line()}")

        yield line, resumed
        return
    with Progress(
        TextColumn("league"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("{task.fields[left]}"),
        console=err_console,
        transient=True,
    ) as bar:
        task = bar.add_task("games", total=total, rate="", left="")

        def advance(_spec: GameSpec, _outcome: str) -> None:
            state.game_done()
            bar.update(task, advance=1, rate=state.shown_rate(), left=state.time_left())

        def resume_bar(found: int, total_: int) -> None:
            resumed(found, total_)
            bar.reset(task, total=total, completed=found, rate="", left="")

        yield advance, resume_bar


def _parse_levels(text: str, info: GameInfo) -> list[str]:
    from boardlab.ai.base import level_names, player_choices
    from boardlab.ai.levels import split_spec

    names = [t.strip().lower() for t in text.split(",") if t.strip()]
    if len(set(names)) != len(names):
        raise UsageError("--levels names a player twice")
    known = {"random", *level_names(info)}
    for n in names:
        if split_spec(n)[0] not in known:  # a level may carry changed settings: 3:nodes=2000
            raise UsageError(
                f"unknown player {n!r} in --levels ({player_choices(info, human=False)})"
            )
    return names


def run(args: argparse.Namespace) -> int:
    """Play the league and print its table (or JSON)."""
    from boardlab.ai.league import run_league, scores

    rules = rules_from_args(args)
    players = _parse_levels(args.levels, get_game(rules.game)) if args.levels.strip() else []
    for spec in args.opponent:
        name = spec.strip().lower()
        if name in players:
            raise UsageError(f"{spec!r} is seated twice")
        players.append(name)
    if len(players) < 2:
        raise UsageError("--levels needs at least two players, e.g. 1,2,3,4 (or add --opponent)")
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    most = cores()
    if not 1 <= args.jobs <= most:
        raise UsageError(f"--jobs must be 1 to {most} (the cores of this machine), not {args.jobs}")
    if args.max_plies < 1:
        raise UsageError("--max-plies must be at least 1")
    if args.time is not None and not 0 < args.time < 24 * 3600:  # refuses nan and inf too
        raise UsageError("--time must be more than 0 seconds and less than a day")
    jobs = min(args.jobs, os.cpu_count() or 1)
    total = len(pairings(players, args.steps)) * args.games

    with league_progress(total, args.journal) as (on_game, on_resume):
        results = run_league(
            rules.game,
            args.variant,
            args.size,
            players,
            args.games,
            seed=args.seed,
            jobs=jobs,
            on_game=on_game,
            setups=args.setups,
            time=args.time,
            tables=table_store(args),
            steps=args.steps,
            max_plies=args.max_plies,
            journal=args.journal,
            on_resume=on_resume,
        )

    from boardlab.ai.ratings import fit

    ratings = fit(results, players)
    if args.json:
        print_json(
            {
                "results": [r.as_dict() for r in results],
                "ratings": [x.as_dict() for x in ratings],
            }
        )
        return 0

    label = {p: (p if p == "random" or ":" in p else f"L{p}") for p in players}
    cells = {(r.first, r.second): f"{r.win}-{r.loss}-{r.draw}" for r in results}
    pts = scores(results)
    title = (
        f"{rules.game} {rules.variant} {rules.size}×{rules.size}: {args.games} games per "
        f"pair, seed {args.seed} (first player's wins-losses-draws)"
    )
    table = Table(title=title)
    table.add_column("first \\ second")
    for p in players:
        table.add_column(label[p], justify="center")
    table.add_column("score", justify="right")
    for a in players:
        points, n = pts[a]
        row = [cells.get((a, b), "—") for b in players]
        table.add_row(label[a], *row, f"{points:g}/{n} ({100 * points / n:.0f}%)")
    console.print(table)
    console.print(ratings_table(ratings, results, label))
    return 0


def ratings_table(
    ratings: Sequence[Rating], results: Sequence[PairResult], label: dict[str, str]
) -> Table:
    """Bradley–Terry ratings (Elo scale, 95% intervals) and each player's score against
    the player listed before it."""
    anchor = next(r.player for r in ratings if r.low == r.high)
    table = Table(title=f"ratings (Bradley–Terry, Elo scale, 95% interval; {label[anchor]} = 0)")
    table.add_column("player")
    table.add_column("rating", justify="right")
    table.add_column("95% interval", justify="center")
    table.add_column("vs the one before", justify="right")
    prev = None
    for r in ratings:
        versus = ""
        if prev is not None:
            won, games = head_to_head(results, r.player, prev)
            versus = f"{100 * won / games:.0f}% vs {label[prev]}" if games else ""
        interval = "—" if r.low == r.high else f"{r.low:+.0f} … {r.high:+.0f}"
        table.add_row(label[r.player], f"{r.rating:+.0f}", interval, versus)
        prev = r.player
    return table
