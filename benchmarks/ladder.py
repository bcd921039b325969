"""The ladder of levels measured: a seeded round robin of the random mover and every level,
then Bradley–Terry ratings with 95% intervals, each level's score against the one below,
and whether the ratings rise with the level.

    nice -n 10 python benchmarks/ladder.py [--game dodgem --size 4] [--games 50] [--seed 1]
    nice -n 10 python benchmarks/ladder.py --game dotdash --size 9 --time 0.2 --games 50

Dot Dash games start from random pie setups (each played from both sides). `--time` is level
4's thinking time per move in Dot Dash. `--jobs` spreads games over processes (the results
do not depend on it). `--steps` plays only neighbouring levels, for boards where the top
level is slow (Dodgem 7×7 and 8×8, Dot Dash 14×14 and up). `--max-plies` scores a game
still going after that many plies as a draw (default 1,000). `--journal FILE` keeps every
finished game in FILE, and a run stopped part way resumes from it. Progress (games, rate,
time left) goes to stderr.

    python benchmarks/ladder.py --docs      # rewrite the docs' level tables from the data
    nice -n 10 python benchmarks/ladder.py --calibrate --game dodgem --variant classic \
        --size 6 --games 20 --budget 2000 --journal cal-classic-6.jsonl

`--docs` regenerates every table the docs ask for (`boardlab.ai.levels_docs`) from the
games' level data. `--calibrate` (`boardlab.ai.calibrate`) searches one strength knob per
level so that each scores 70-85% against the one below, in batches of `--games` games per
ordered pairing, until the interval is inside the band or `--budget` games are spent; it
rates the board with a ladder of neighbouring levels and writes the board's row of the
data file (`--data FILE`, default the game's own) and nothing else. Stopped, it resumes
from `--journal` (default calibrate-GAME-VARIANT-SIZE.jsonl). `--levels 2,3` calibrates
only those levels.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _machine import header

from boardlab.ai.league import MAX_PLIES, head_to_head, pairings, run_league
from boardlab.ai.ratings import fit
from boardlab.cli.league import league_progress
from boardlab.core.registry import get_game, make_rules

DOCS = Path(__file__).resolve().parents[1] / "docs"


def write_docs() -> int:
    """Rewrite the generated level tables in every page under docs/."""
    from boardlab.ai.levels_docs import render

    for page in sorted(DOCS.rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        new = render(text)
        if new != text:
            page.write_text(new, encoding="utf-8")
            print(f"rewrote {page.relative_to(DOCS.parent)}")
    return 0


def run_calibration(args: argparse.Namespace) -> int:
    """`--calibrate`: search the board's levels, rate them, write its row of the data."""
    from boardlab.ai.calibrate import calibrate, default_path, write_board
    from boardlab.core.errors import BoardLabError

    try:
        rules = make_rules(args.game, args.variant, args.size)
        levels = None if args.levels is None else [int(n) for n in args.levels.split(",")]
    except (BoardLabError, ValueError) as exc:
        print(f"ladder: {exc}", file=sys.stderr)
        return 2
    game, variant, size = rules.game, rules.variant, rules.size
    journal = args.journal or Path(f"calibrate-{game}-{variant}-{size}.jsonl")
    path = args.data or default_path(game)
    print(header(f"calibrate {game} {variant} {size}×{size}"))
    t0 = time.perf_counter()

    def say(line: str) -> None:
        print(f"[{time.perf_counter() - t0:6.0f} s] {line}", file=sys.stderr, flush=True)

    try:
        result = calibrate(
            game, variant, size, batch=args.games, budget=args.budget, seed=args.seed,
            journal=journal, levels=levels, jobs=args.jobs, say=say,
            max_plies=None if args.max_plies == MAX_PLIES else args.max_plies,
        )  # fmt: skip
    except BoardLabError as exc:
        print(f"ladder: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"ladder: stopped; run the same command again to resume from {journal}")
        return 130
    for level, s in enumerate(result.levels, 1):
        r = result.ratings[level - 1]
        span = "" if r.interval is None else f" ({r.interval[0]} … {r.interval[1]})"
        print(f"level {level}: {s}  rating {r.rating}{span}")
    spent = " (budget spent)" if result.budget_spent else ""
    print(f"{result.games_played} games{spent}, {time.perf_counter() - t0:.0f} s")
    write_board(game, result, variant, size, path)
    print(f"wrote {path}; python benchmarks/ladder.py --docs updates the docs' tables")
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="dodgem")
    p.add_argument("--variant", default=None)
    p.add_argument("--size", type=int, default=None)
    p.add_argument("--games", type=int, default=50, help="games per ordered pair")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--time", type=float, default=None)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument(
        "--steps", action="store_true", help="only neighbouring levels meet (random-1, 1-2, ...)"
    )
    p.add_argument(
        "--max-plies",
        type=int,
        default=MAX_PLIES,
        help="a game still going after this many plies counts as a draw",
    )
    p.add_argument("--journal", type=Path, default=None, help="resume from / record to FILE")
    p.add_argument("--docs", action="store_true", help="rewrite the docs' level tables")
    p.add_argument("--calibrate", action="store_true", help="calibrate the board's levels")
    p.add_argument("--budget", type=int, default=2000, help="most games a calibration plays")
    p.add_argument("--levels", default=None, help="levels to calibrate, e.g. 2,3")
    p.add_argument("--data", type=Path, default=None, help="the level data file to write")
    args = p.parse_args()
    if args.docs:
        return write_docs()
    if args.calibrate:
        return run_calibration(args)
    info = get_game(args.game)
    rules = make_rules(args.game, args.variant, args.size)
    players = ["random", *[str(n) for n in range(1, info.level_count + 1)]]
    print(header(f"ladder {rules.game} {rules.variant} {rules.size}×{rules.size}"))
    t0 = time.perf_counter()
    total = len(pairings(players, args.steps)) * args.games
    with league_progress(total, args.journal) as (on_game, on_resume):
        results = run_league(
            args.game,
            args.variant,
            args.size,
            players,
            args.games,
            seed=args.seed,
            jobs=args.jobs,
            on_game=on_game,
            setups=info.setup is not None,
            time=args.time,
            steps=args.steps,
            max_plies=args.max_plies,
            journal=args.journal,
            on_resume=on_resume,
        )
    seconds = time.perf_counter() - t0
    met = "neighbouring levels only" if args.steps else "every pair"
    if args.max_plies != MAX_PLIES:
        met += f"; a game still going after {args.max_plies} plies is a draw"
    print(f"{args.games} games per ordered pair ({met}), seed {args.seed}, {seconds:.0f} s")
    print("| first \\ second | " + " | ".join(players) + " |")
    print("| --- " * (len(players) + 1) + "|")
    cells = {(r.first, r.second): f"{r.win}-{r.loss}-{r.draw}" for r in results}
    for a in players:
        print(f"| {a} | " + " | ".join(cells.get((a, b), "—") for b in players) + " |")
    print()
    print("| player | rating | 95% interval | vs the one below |")
    print("| --- | --- | --- | --- |")
    ratings = fit(results, players)
    for i, r in enumerate(ratings):
        below = ""
        if i:
            won, games = head_to_head(results, r.player, players[i - 1])
            below = f"{100 * won / games:.0f}% vs {players[i - 1]}"
        interval = "—" if r.low == r.high else f"{r.low:+.0f} … {r.high:+.0f}"
        print(f"| {r.player} | {r.rating:+.0f} | {interval} | {below} |")
    values = [r.rating for r in ratings]
    print(f"\nratings rise with the level: {'yes' if values == sorted(values) else 'NO'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
