"""Random-play conformance over every registered game and variant: the protocol holds."""

from __future__ import annotations

import random

import pytest

from boardlab.core import GameSession, IllegalMoveError, NotationError, games
from boardlab.core.records import GameRecord

CASES = [
    (name, variant) for name, info in sorted(games().items()) for variant in info.variant_names
]


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_random_games_follow_the_protocol(game: str, variant: str) -> None:
    info = games()[game]
    rules = info.rules(variant, None)
    rng = random.Random(f"{game}/{variant}")
    for _ in range(3):
        session: GameSession = GameSession(rules)  # type: ignore[type-arg]
        while not session.is_over and len(session.plies) < 120:
            pos = session.position
            text = rules.format_position(pos)
            assert rules.format_position(rules.parse_position(text)) == text
            assert rules.parse_position(text) == pos
            assert hash(rules.parse_position(text)) == hash(pos)
            legal = list(rules.legal_moves(pos))
            assert legal, "a position that is not over has a legal move"
            assert len(set(legal)) == len(legal)
            for move in legal[:10]:
                assert rules.parse_move(rules.format_move(move)) == move
            move = legal[rng.randrange(len(legal))]
            session.play(rules.format_move(move))
            assert rules.to_move(session.position) in (0, 1)
        if session.is_over and session.result is not None:
            assert session.legal_moves() == ()
        record = GameRecord.from_session(session)
        assert GameRecord.parse(record.to_text()).to_session().moves == session.moves


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_garbage_is_a_notation_error(game: str, variant: str) -> None:
    rules = games()[game].rules(variant, None)
    for bad in ("", "zz", "1-2-3", "??/??", "a0-a1"):
        with pytest.raises(NotationError):
            rules.parse_move(bad)
        with pytest.raises(NotationError):
            rules.parse_position(bad)


@pytest.mark.parametrize(("game", "variant"), CASES)
def test_a_move_of_the_other_side_is_illegal(game: str, variant: str) -> None:
    """Along a game, each move the side that just moved could have made, and the side now to
    move cannot, is refused by `play`, and the refused attempt changes nothing."""
    rules = games()[game].rules(variant, None)
    rng = random.Random(f"other-side/{game}/{variant}")
    session: GameSession = GameSession(rules)  # type: ignore[type-arg]
    refused = 0
    for _ in range(16):
        mine = list(rules.legal_moves(session.position))
        session.play(mine[rng.randrange(len(mine))])
        if session.is_over:
            break
        theirs = set(rules.legal_moves(session.position))
        others = [m for m in mine if m not in theirs]
        assert others, "the side that moved kept no move of its own"
        snapshot = session.snapshot()
        for move in others:
            with pytest.raises(IllegalMoveError):
                session.play(move)
            assert session.snapshot() == snapshot
        refused += len(others)
    assert refused > 0
