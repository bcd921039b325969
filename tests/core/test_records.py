"""Game records: JSON and text forms save and load back to the same game."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from boardlab.core import GameSession, NotationError, make_rules
from boardlab.core.records import GameRecord


def random_session(variant: str, size: int, seed: int) -> GameSession:  # type: ignore[type-arg]
    rules = make_rules("dodgem", variant, size)
    rng = random.Random(seed)
    session: GameSession = GameSession(rules)  # type: ignore[type-arg]
    while not session.is_over and len(session.plies) < 200:
        legal = session.legal_moves()
        session.play(legal[rng.randrange(len(legal))])
    return session


@pytest.mark.parametrize(("variant", "size"), [("classic", 3), ("misere", 5), ("piecepack", 6)])
@pytest.mark.parametrize("suffix", [".json", ".txt"])
def test_record_round_trip(tmp_path: Path, variant: str, size: int, suffix: str) -> None:
    session = random_session(variant, size, 7)
    names = session.rules.player_names
    record = GameRecord.from_session(session, {names[0]: "human", names[1]: "random"})
    path = record.save(tmp_path / f"game{suffix}")
    loaded = GameRecord.load(path)
    assert loaded == record
    replay = loaded.to_session()
    assert replay.moves == session.moves
    assert replay.result == session.result


def test_text_form_has_tags_then_moves() -> None:
    rules = make_rules("dodgem", "classic", 3)
    session: GameSession = GameSession(rules)  # type: ignore[type-arg]
    for m in ["a2-b2", "c1-c2", "a3-b3"]:
        session.play(m)
    text = GameRecord.from_session(session, {"blue": "ann", "red": "level 4"}).to_text()
    assert text.startswith('[Game "dodgem"]\n[Variant "classic"]\n[Size "3"]\n[Blue "ann"]')
    assert text.rstrip().endswith("1. a2-b2 c1-c2 2. a3-b3 *")


def test_nonstandard_start_is_kept() -> None:
    rules = make_rules("dodgem", "classic", 3)
    session: GameSession = GameSession(rules, rules.parse_position("3/B2/1R1 b"))  # type: ignore[type-arg]
    session.play("a2-b2")
    record = GameRecord.parse(GameRecord.from_session(session).to_text())
    assert record.start == "3/B2/1R1 b"
    assert str(record.to_session().position) == "3/1B1/1R1 r"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not a JSON game record"),
        ('{"moves": ["a2-b2"]}', "bad field"),
        ('[Game "dodgem"]\n[Size "3"]\n\n1. a2-c2', "move 1"),
        ('[Game "dodgem"]\n\n1. a2-b2', "no Size tag"),
        ('[Game "dodgem"\n', "not a tag"),
    ],
)
def test_bad_records_give_one_line_errors(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        GameRecord.parse(text).to_session()


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(NotationError, match="cannot read record"):
        GameRecord.load(tmp_path / "nope.txt")


def test_untagged_variant_is_the_games_declared_default() -> None:
    text = '[Game "dotdash"]\n[Size "7"]\n\n1. D4-G7 *'
    record = GameRecord.parse(text)
    assert record.variant == "standard"
    session = record.to_session()
    assert session.rules.variant == "standard" and session.rules.size == 7
    assert [str(m) for m in session.moves] == ["D4-G7"]
    json_form = '{"game": "dotdash", "size": 7, "moves": ["D4-G7"]}'
    assert GameRecord.parse(json_form).variant == "standard"
    # a record from before the Game tag is a Dodgem game of its default variant
    assert GameRecord.parse('[Size "3"]\n\n1. a2-b2 *').rules() == make_rules("dodgem", size=3)
