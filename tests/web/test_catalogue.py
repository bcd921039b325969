"""The web API's catalogue and request bounds come from the games' declarations (`GameInfo`):
every variant is offered at exactly its declared sizes, and requests are held to them."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from boardlab.ai.base import level_names
from boardlab.core.registry import GameInfo, games, get_game, register


def test_the_catalogue_is_the_declarations(client: TestClient) -> None:
    served = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert set(served) == set(games())
    for name, info in games().items():
        game = served[name]
        assert game["title"] == info.title
        assert game["default_variant"] == info.default_variant
        assert game["levels"] == ["random", *level_names(info)]
        assert game["setup"] == (None if info.setup is None else info.setup.name)
        assert game["tables"] == (info.solver_adapter is not None)
        assert [v["name"] for v in game["variants"]] == list(info.variant_names)
        for out, v in zip(game["variants"], info.variants, strict=True):
            assert out["size_list"] == list(v.sizes)
            assert out["sizes"] == [min(v.sizes), max(v.sizes)]
            assert out["default_size"] == v.default_size
            assert out["published_size"] == v.published_size
            assert out["players"] == list(v.player_names)
            assert out["letters"] == v.letters


@pytest.fixture
def published_piecepack_only() -> Iterator[GameInfo]:
    """Dodgem declared again with Piecepack on its published 6×6 board only (the built-in
    declaration comes back afterwards)."""
    built_in = get_game("dodgem")
    variants = tuple(
        dataclasses.replace(v, sizes=(6,)) if v.name == "piecepack" else v
        for v in built_in.variants
    )
    info = dataclasses.replace(built_in, variants=variants)
    register(info)
    try:
        yield info
    finally:
        register(built_in)


def test_a_variant_is_offered_and_played_at_its_declared_sizes_only(
    published_piecepack_only: GameInfo, client: TestClient
) -> None:
    served = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    variants = {v["name"]: v for v in served["dodgem"]["variants"]}
    assert variants["piecepack"]["size_list"] == [6]
    assert variants["classic"]["size_list"] == [3, 4, 5, 6, 7, 8]
    ok = client.post("/api/state", json={"variant": "piecepack", "size": 6})
    assert ok.status_code == 200 and ok.json()["size"] == 6
    for path, body in [
        ("/api/state", {"variant": "piecepack", "size": 5}),
        ("/api/move", {"variant": "piecepack", "size": 4, "level": "1"}),
        ("/api/tables", {"variant": "piecepack", "size": 3}),
    ]:
        r = client.post(path, json=body)
        assert r.status_code == 422, (path, r.text)
        assert r.json()["error"].endswith("size must be 6 for Dodgem piecepack")
    assert client.post("/api/state", json={"variant": "classic", "size": 5}).status_code == 200


def test_levels_are_the_games_own(client: TestClient) -> None:
    r = client.post("/api/move", json={"game": "dotdash", "size": 7, "level": "5"})
    assert r.status_code == 422
    assert r.json()["error"].endswith(
        "level must be random or 1 or 2 or 3 or 4 for Dot Dash, not 5"
    )
    r = client.post("/api/playout", json={"size": 3, "players": ["random", "7"]})
    assert r.status_code == 422 and "for Dodgem, not 7" in r.json()["error"]
    r = client.post("/api/pie", json={"size": 9, "role": "place", "level": "6"})
    assert r.status_code == 422 and "for Dot Dash, not 6" in r.json()["error"]
    r = client.post("/api/move", json={"size": 3, "level": "random", "seed": 1})
    assert r.status_code == 200
