"""The levels' data (`boardlab.ai.levels`): every board a game offers has its levels, the
players are built exactly from the settings, ratings and intervals hang together, the file
reads back as written, and the docs' ladder tables are the data's."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from boardlab.ai.base import make_player
from boardlab.ai.beginner import BlunderingPlayer
from boardlab.ai.dodgem.perfect import PerfectPlayer
from boardlab.ai.dodgem.players import NoisySearchPlayer, SearchPlayer
from boardlab.ai.dotdash.players import MAX_DEPTH, DotDashSearchPlayer
from boardlab.ai.dotdash.search import QDEPTH
from boardlab.ai.levels import (
    BoardLevels,
    LevelSettings,
    LevelTable,
    Rating,
    data_path,
    dump_table,
    level_table,
    parse_table,
    read_defaults,
    split_spec,
)
from boardlab.ai.levels_docs import render
from boardlab.core.errors import UsageError
from boardlab.core.registry import GameInfo, games, make_rules

LEVELLED = [info for info in games().values() if info.level_data is not None]


@pytest.fixture(params=LEVELLED, ids=lambda info: info.name)
def info(request: pytest.FixtureRequest) -> GameInfo:
    found: GameInfo = request.param
    return found


def test_every_board_offered_has_its_levels_and_nothing_else(info: GameInfo) -> None:
    table = level_table(info)
    offered = {(v.name, n) for v in info.variants for n in v.sizes}
    assert set(table.boards) == offered
    for board in table:
        assert len(board.levels) == info.level_count


def test_settings_are_in_range(info: GameInfo) -> None:
    for board in level_table(info):
        for s in board.levels:
            assert s.depth >= 1 and 0 <= s.blunder < 0.5 and s.noise >= 0
            assert s.nodes is None or s.nodes > 0
            assert s.time is None or s.time > 0
        # level 1 beats a random mover: it is never mostly random
        assert board.levels[0].blunder <= 0.3


def _search(player: Any) -> tuple[Any, float]:
    """The searching player inside a level, and its chance of a random move."""
    if isinstance(player, BlunderingPlayer):
        return player.inner, player.blunder
    if isinstance(player, PerfectPlayer):
        return player.fallback, getattr(player.fallback, "blunder", 0.0)
    return player, getattr(player, "blunder", 0.0)


def test_players_are_built_from_exactly_their_settings(info: GameInfo) -> None:
    """Every level on every board: the player carries the data's settings, field by field."""
    for board in level_table(info):
        rules = make_rules(info.name, board.variant, board.size)
        for level, s in enumerate(board.levels, 1):
            search, blunder = _search(make_player(str(level), rules))
            assert blunder == s.blunder
            if isinstance(search, DotDashSearchPlayer):
                got = (search.depth, search.style, search.time_limit, search.noise, search.qdepth)
                assert got == (s.depth, s.style, s.time, int(s.noise), s.qdepth)
                assert s.noise == int(s.noise) and s.depth <= MAX_DEPTH and s.qdepth <= QDEPTH
            elif isinstance(search, SearchPlayer):
                got_ = (search.nodes, search.max_depth, search.time_cap, search.contempt)
                assert got_ == (s.nodes, s.depth, s.time, s.contempt)
            else:
                assert isinstance(search, NoisySearchPlayer) and s.nodes is None
                assert (search.depth, search.noise, search.contempt) == (
                    s.depth,
                    s.noise,
                    s.contempt,
                )


def test_ratings_rise_and_lie_inside_their_intervals(info: GameInfo) -> None:
    for board in level_table(info):
        if board.ratings is None:
            continue
        values = [r.rating for r in board.ratings]
        assert values == sorted(values) and values[0] > 0, (board.variant, board.size)
        for r in board.ratings:
            assert r.interval is None or r.interval[0] <= r.rating <= r.interval[1]
        league = board.league
        assert league is not None and league.commit and league.seed is not None


def test_the_data_file_reads_back_as_written(info: GameInfo, tmp_path: Path) -> None:
    path = data_path(info)
    header, defaults = read_defaults(path)
    table = level_table(info)
    text = dump_table(table, header, defaults)
    assert text == path.read_text(encoding="utf-8")
    assert parse_table(info.name, tomllib.loads(text)).boards == table.boards


def test_bad_data_is_refused_with_the_board_named() -> None:
    bad = {"board": [{"variant": "classic", "size": 3, "levels": [{"depth": 2, "speed": 1}]}]}
    with pytest.raises(ValueError, match="classic 3 level 1: unknown level setting"):
        parse_table("dodgem", bad)
    twice = {"board": [{"variant": "v", "size": 3, "levels": [{"depth": 1}]}] * 2}
    with pytest.raises(ValueError, match="twice"):
        parse_table("toy", twice)
    with pytest.raises(UsageError, match="calibrate"):
        LevelTable("toy").board("v", 9)


def test_a_level_name_may_carry_changed_settings() -> None:
    assert split_spec("3:nodes=2000:noise=6.5") == ("3", {"nodes": 2000, "noise": 6.5})
    assert split_spec("openspiel:mcts:10") == ("openspiel:mcts:10", {})
    with pytest.raises(UsageError):
        split_spec("3:nodes")
    with pytest.raises(UsageError, match="unknown level setting"):
        LevelSettings(depth=1).changed(speed=3)
    rules = make_rules("dodgem", "classic", 5)
    usual, changed = make_player("3", rules), make_player("3:nodes=1234", rules)
    assert isinstance(changed, SearchPlayer) and isinstance(usual, SearchPlayer)
    assert changed.nodes == 1234


def test_the_docs_level_tables_are_generated_from_the_data() -> None:
    """Every generated table in docs/ is the data's (`python benchmarks/ladder.py --docs`)."""
    docs = Path(__file__).resolve().parents[2] / "docs"
    pages = [p for p in sorted(docs.rglob("*.md")) if "<!-- levels:" in p.read_text("utf-8")]
    assert {p.name for p in pages} >= {"ai-levels.md", "ai-levels-dotdash.md"}
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert render(text) == text, f"{page.name}: run python benchmarks/ladder.py --docs"


def test_a_generated_table_follows_the_data() -> None:
    table = LevelTable(
        "toy",
        {
            ("v", 3): BoardLevels(
                "v", 3, (LevelSettings(depth=2, noise=5.0),), (Rating(400, (300, 500)),)
            )
        },
    )
    page = (
        "intro\n<!-- levels: toy settings -->\nstale\n<!-- /levels -->\n"
        "<!-- levels: toy ratings -->\n<!-- /levels -->\n"
    )
    out = render(page, lambda game: table)
    assert "| v 3×3 | depth 2, noise 5 |" in out and "stale" not in out
    assert "| v 3×3 | 400 (300 … 500) | 91% | unknown |" in out
    assert render(out, lambda game: table) == out
