"""Replays every golden transcript: the same moves must give the same positions, legal-move
counts, table values and result (see transcripts.py)."""

from __future__ import annotations

import json

import pytest

from boardlab.core.registry import get_game
from boardlab.core.session import GameSession
from boardlab.solver.store import TableStore
from tests.golden.transcripts import cases, path_of, ply_facts


@pytest.mark.parametrize(("game", "variant", "size"), cases())
def test_transcript_replays(game: str, variant: str, size: int, small_tables: TableStore) -> None:
    path = path_of(game, variant, size)
    want = json.loads(path.read_text(encoding="utf-8"))
    assert (want["game"], want["variant"], want["size"]) == (game, variant, size)
    rules = get_game(game).rules(variant, size)
    session = GameSession(rules)
    for ply in want["plies"][1:]:
        session.play(rules.parse_move(ply["move"]))
    got = ply_facts(rules, session, small_tables)
    has_values = "value" in want["plies"][0]
    assert has_values == (small_tables.get(rules) is not None), "a table is missing or new"
    assert got == want["plies"]
    result = session.result
    wanted = want["result"]
    assert (None if result is None else [result.winner, result.reason.value]) == (
        None if wanted is None else [wanted["winner"], wanted["reason"]]
    )


def test_every_game_and_variant_has_a_transcript() -> None:
    games = {g for g, _, _ in cases()}
    assert games >= {"dodgem", "dotdash"}
    for game, variant, size in cases():
        assert path_of(game, variant, size).exists(), (game, variant)
