"""Figures of the research doors: OpenSpiel random playouts (games and steps a second),
OpenSpiel MCTS moves, PettingZoo steps a second, the time `import boardlab` adds to starting
Python, and the size of the wheel and the sdist.

    python benchmarks/integrations.py [--sims 1000] [--seconds 3] [--no-wheel]

Needs the openspiel and pettingzoo extras (and `build`, of the test extra, for the wheel).
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyspiel
from _machine import header

import boardlab.integrations.openspiel as bl_openspiel
from boardlab.core.registry import make_rules
from boardlab.integrations.pettingzoo import env


def playouts(spec: str, seconds: float = 3.0) -> tuple[float, float]:
    """(games a second, plies a second) of uniformly random OpenSpiel playouts."""
    game = pyspiel.load_game(spec)
    rng = np.random.RandomState(0)
    games = plies = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randint(len(legal))])
            plies += 1
        games += 1
    dt = time.perf_counter() - t0
    return games / dt, plies / dt


def mcts_move(size: int, sims: int, moves: int = 3) -> float:
    """Median seconds per move of OpenSpiel MCTS (random rollouts) from the start."""
    rules = make_rules("dodgem", "classic", size)
    player = bl_openspiel.openspiel_player(f"openspiel:mcts:{sims}")
    times = []
    for i in range(moves):
        t0 = time.perf_counter()
        player.choose(rules, rules.start(), [], random.Random(i))
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def pettingzoo_steps(game: str, size: int, seconds: float = 3.0) -> float:
    """AEC steps a second with random legal actions (observations included)."""
    e = env(game=game, size=size)
    rng = np.random.default_rng(0)
    steps = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        e.reset()
        for _agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(rng.choice(legal)))
            steps += 1
    return steps / (time.perf_counter() - t0)


def import_time(runs: int = 15) -> tuple[float, float]:
    """Median wall seconds of `python -c 'import boardlab'` and of `python -c pass`."""

    def median(code: str) -> float:
        out = []
        for _ in range(runs):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True)
            out.append(time.perf_counter() - t0)
        return statistics.median(out)

    return median("import boardlab"), median("pass")


def package_sizes() -> tuple[int, int]:
    """Bytes of the wheel and of the sdist that `python -m build` makes of this checkout."""
    repo = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory(prefix="boardlab-bench-") as out:
        subprocess.run(
            [sys.executable, "-m", "build", "--outdir", out, str(repo)],
            check=True,
            capture_output=True,
        )
        (wheel,) = Path(out).glob("*.whl")
        (sdist,) = Path(out).glob("*.tar.gz")
        return wheel.stat().st_size, sdist.stat().st_size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sims", type=int, default=1000, help="MCTS simulations per move")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per speed figure")
    parser.add_argument("--no-wheel", action="store_true", help="skip building the wheel")
    args = parser.parse_args()
    print(header("research doors"))
    with_boardlab, bare = import_time()
    print(f"import boardlab: {1000 * with_boardlab:.1f} ms (bare python {1000 * bare:.1f} ms)")
    if not args.no_wheel:
        wheel, sdist = package_sizes()
        print(f"wheel {wheel / 1024:,.0f} KiB, sdist {sdist / 1024:,.0f} KiB")
    for spec in (
        "boardlab_dodgem(size=3)",
        "boardlab_dodgem(size=4)",
        "boardlab_dodgem(size=5)",
        "boardlab_dodgem(variant=piecepack)",
        "boardlab_dotdash(size=9)",
        "boardlab_dotdash(size=13)",
        "boardlab_dotdash(size=13,variant=capture)",
    ):
        g, p = playouts(spec, args.seconds)
        print(f"OpenSpiel random playouts {spec}: {g:,.1f} games/s, {p:,.0f} steps/s")
    for size in (4, 5):
        s = mcts_move(size, args.sims)
        print(f"OpenSpiel MCTS {args.sims} simulations, Dodgem {size}×{size} start: {s:.2f} s/move")
    boards = (("dodgem", 3), ("dodgem", 4), ("dodgem", 5), ("dotdash", 9), ("dotdash", 13))
    for game, size in boards:
        rate = pettingzoo_steps(game, size, args.seconds)
        print(f"PettingZoo {game} {size}×{size}: {rate:,.0f} steps/s (observations included)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
