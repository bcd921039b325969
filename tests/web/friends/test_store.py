"""The shared-games store on real SQLite files: games played through the registered rules,
seat tokens, one of two racing moves, clocks, draws, rematches, bounds, expiry, restarts."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from sqlalchemy import text
from tests.toygame import GAME as NIM
from tests.web.friends.helpers import ManualClock, started, token_to_move

from boardlab.core.errors import IllegalMoveError, NotationError, UnknownGameError, UsageError
from boardlab.core.registry import make_rules, register, unregister
from boardlab.core.session import GameSession
from boardlab.web.friends import schemas as fs
from boardlab.web.friends.store import (
    FriendLimits,
    FriendStore,
    NoSuchGameError,
    SeatError,
    StaleMoveError,
    TooManyGamesError,
    hash_token,
)


def play_out(store: FriendStore, created: fs.CreatedOut) -> fs.FriendStateOut:
    """Both seats play their first legal move until the game ends."""
    state = store.state(created.id)
    while state.status == "playing":
        state = store.move(
            created.id, token_to_move(created, state), state.legal_moves[0], state.ply
        )
    return state


def test_a_whole_game_follows_the_rules_and_is_stored(store: FriendStore, db_url: str) -> None:
    created = started(store)
    state = play_out(store, created)
    # the same moves replayed by the rules themselves reach the same end
    rules = make_rules("dodgem", "classic", 3)
    session: GameSession[object, object] = GameSession(rules)
    for m in state.moves:
        session.play(m)
    assert session.result is not None and state.result is not None
    assert state.result.winner == session.result.winner
    assert state.result.reason == session.result.reason.value
    assert state.position == rules.format_position(session.position)
    # another store on the same file (a restarted server) sees every move and the result
    again = FriendStore(db_url)
    try:
        seen = again.state(created.id)
        assert seen.moves == state.moves and seen.result == state.result
        assert seen.status == "over"
        assert again.record(created.id).rstrip().endswith(state.result.tag)
    finally:
        again.close()


def test_waiting_until_the_friend_joins(store: FriendStore) -> None:
    created = store.create(fs.CreateRequest(game="dodgem", size=3), client="a")
    assert created.state.status == "waiting" and created.state.you == created.colour
    with pytest.raises(IllegalMoveError, match="opens the invitation"):
        store.move(created.id, created.token, "a2-b2", 0)
    joined = store.join(created.id, created.invite_token)
    assert joined.status == "playing" and joined.you == 1 - created.colour
    assert joined.person == 1 and joined.legal_moves


def test_colours_first_second_random(store: FriendStore) -> None:
    assert store.create(fs.CreateRequest(size=3, colour="first")).colour == 0
    assert store.create(fs.CreateRequest(size=3, colour="second")).colour == 1
    picks = {
        store.create(fs.CreateRequest(size=3, colour="random"), rng=lambda n, k=k: k).colour
        for k in (0, 1)
    }
    assert picks == {0, 1}


@pytest.mark.parametrize("who", ["missing", "forged", "other seat", "spectator"])
def test_only_the_seat_holder_moves(store: FriendStore, who: str) -> None:
    created = started(store)
    before = store.state(created.id)
    mover_token = token_to_move(created, before)
    other = created.invite_token if mover_token == created.token else created.token
    token = {"missing": None, "forged": mover_token[:-2] + "xx", "other seat": other}.get(who)
    if who == "other seat":  # it holds a seat, but not the one to move
        with pytest.raises(SeatError, match="turn"):
            store.move(created.id, token, before.legal_moves[0], 0)
    else:
        for action in (
            lambda: store.move(created.id, token, before.legal_moves[0], 0),
            lambda: store.resign(created.id, token),
            lambda: store.draw(created.id, token, "offer"),
            lambda: store.join(created.id, token),
        ):
            with pytest.raises(SeatError):
                action()
    assert store.state(created.id) == before


def test_tokens_are_stored_hashed_and_ids_unguessable(store: FriendStore, tmp_path: Path) -> None:
    created = store.create(fs.CreateRequest(size=3))
    other = store.create(fs.CreateRequest(size=3))
    assert len(created.id) >= 22 and created.id != other.id
    assert len({created.token, created.invite_token, other.token}) == 3
    with store.engine.connect() as con:
        hashes = {row[0] for row in con.execute(text("select token_hash from seats"))}
    assert hash_token(created.token) in hashes
    if not store.sqlite:
        return  # the raw file check is SQLite's
    raw = (tmp_path / "friends.sqlite3").read_bytes()
    wal = tmp_path / "friends.sqlite3-wal"
    raw += wal.read_bytes() if wal.exists() else b""
    assert created.token.encode() not in raw and created.invite_token.encode() not in raw


def test_unknown_game_and_bad_moves_change_nothing(store: FriendStore) -> None:
    with pytest.raises(NoSuchGameError):
        store.state("A" * 22)
    with pytest.raises(UnknownGameError):
        store.create(fs.CreateRequest(game="chess"))
    with pytest.raises(UsageError):
        store.create(fs.CreateRequest(game="dodgem", size=12))
    created = started(store)
    before = store.state(created.id)
    tok = token_to_move(created, before)
    with pytest.raises(NotationError):
        store.move(created.id, tok, "zz", 0)
    with pytest.raises(IllegalMoveError):
        store.move(created.id, tok, "a3-a2", 0)  # a square of one's own car: not a move
    other = created.invite_token if tok == created.token else created.token
    with pytest.raises(SeatError, match="turn"):
        store.move(created.id, other, before.legal_moves[0], 0)
    assert store.state(created.id) == before


def race(
    stores: tuple[FriendStore, FriendStore], game_id: str, token: str, moves: list[str]
) -> list[object]:
    """Each store sends one of `moves` for ply 0 at the same instant; what each got back."""
    barrier = threading.Barrier(2)
    outcomes: list[object] = []

    def send(st: FriendStore, move: str) -> None:
        barrier.wait()
        try:
            outcomes.append(st.move(game_id, token, move, 0))
        except StaleMoveError as exc:
            outcomes.append(exc)

    threads = [threading.Thread(target=send, args=pair) for pair in zip(stores, moves, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


def test_two_moves_for_one_position_one_is_accepted(db_url: str) -> None:
    """Two servers' connections race on the same file: exactly one move lands."""
    first = FriendStore(db_url)
    second = FriendStore(db_url)
    try:
        for _ in range(5):
            created = started(first)
            state = first.state(created.id)
            tok = token_to_move(created, state)
            outcomes = race((first, second), created.id, tok, state.legal_moves[:2])
            accepted = [o for o in outcomes if isinstance(o, fs.FriendStateOut)]
            assert len(accepted) == 1 and len(outcomes) == 2
            final = second.state(created.id)
            assert final.ply == 1 and final.moves == accepted[0].moves
    finally:
        first.close()
        second.close()


def test_a_stale_ply_is_refused(store: FriendStore) -> None:
    created = started(store)
    state = store.state(created.id)
    after = store.move(created.id, token_to_move(created, state), state.legal_moves[0], 0)
    with pytest.raises(StaleMoveError):
        store.move(created.id, token_to_move(created, after), after.legal_moves[0], 0)
    assert store.state(created.id).ply == 1


def test_resign_and_draw(store: FriendStore) -> None:
    created = started(store)
    over = store.resign(created.id, created.invite_token)
    assert over.status == "over" and over.result is not None
    assert over.result.winner == created.colour and over.result.reason == "resignation"
    with pytest.raises(IllegalMoveError):
        store.resign(created.id, created.token)

    created = started(store)
    with pytest.raises(IllegalMoveError, match="no draw offer"):
        store.draw(created.id, created.token, "accept")
    offered = store.draw(created.id, created.token, "offer")
    assert offered.draw_offer == created.colour
    with pytest.raises(IllegalMoveError):  # one cannot accept one's own offer
        store.draw(created.id, created.token, "accept")
    declined = store.draw(created.id, created.invite_token, "decline")
    assert declined.draw_offer is None and declined.status == "playing"
    store.draw(created.id, created.token, "offer")
    # a move withdraws the offer
    state = store.state(created.id)
    moved = store.move(created.id, token_to_move(created, state), state.legal_moves[0], 0)
    assert moved.draw_offer is None
    store.draw(created.id, created.invite_token, "offer")
    drawn = store.draw(created.id, created.token, "accept")
    assert drawn.status == "over" and drawn.result is not None
    assert drawn.result.winner is None and drawn.result.reason == "agreement"
    assert drawn.result.tag == "1/2-1/2"


def test_rematch_swaps_colours_and_keeps_the_score(store: FriendStore) -> None:
    created = started(store)
    with pytest.raises(IllegalMoveError, match="finished"):
        store.rematch(created.id, created.token)
    store.resign(created.id, created.invite_token)  # person 0 (the creator) wins game 1
    nxt = store.rematch(created.id, created.invite_token)
    assert store.rematch(created.id, created.token).id == nxt.id  # both asking: one game
    mine = store.state(nxt.id, created.token)
    theirs = store.state(nxt.id, created.invite_token)
    assert mine.you == 1 - created.colour and theirs.you == created.colour
    assert mine.person == 0 and theirs.person == 1
    assert mine.status == "playing" and mine.number == 2
    assert mine.match.score == (1.0, 0.0) and mine.match.games == 2
    assert store.state(created.id).next_game == nxt.id
    store.draw(nxt.id, created.token, "offer")
    done = store.draw(nxt.id, created.invite_token, "accept")
    assert done.match.score == (1.5, 0.5)
    third = store.rematch(nxt.id, created.token)
    assert store.state(third.id, created.token).you == created.colour  # back again
    with pytest.raises(SeatError):
        store.rematch(nxt.id, "not-a-token")


def test_clock_increment_and_flag(store: FriendStore, clock: ManualClock) -> None:
    created = started(store, clock={"minutes": 1, "increment": 2}, colour="first")
    state = store.state(created.id)
    assert state.clock is not None and state.clock.remaining_ms == (60_000, 60_000)
    assert state.clock.running == 0
    clock.advance(10)
    ticking = store.state(created.id)
    assert ticking.clock is not None and ticking.clock.remaining_ms == (50_000, 60_000)
    moved = store.move(created.id, created.token, state.legal_moves[0], 0)
    assert moved.clock is not None and moved.clock.remaining_ms == (52_000, 60_000)
    assert moved.clock.running == 1
    clock.advance(61)
    # the friend's flag fell: the next look ends the game, and a late move is refused
    over = store.state(created.id)
    assert over.status == "over" and over.result is not None
    assert over.result.reason == "time" and over.result.winner == 0
    with pytest.raises(IllegalMoveError, match="over"):
        store.move(created.id, created.invite_token, "a1-a2", 1)


def test_a_move_after_the_flag_loses_on_time(store: FriendStore, clock: ManualClock) -> None:
    created = started(store, clock={"minutes": 0.5}, colour="first")
    state = store.state(created.id)
    clock.advance(31)
    with pytest.raises(IllegalMoveError, match="over"):
        store.move(created.id, created.token, state.legal_moves[0], 0)
    late = store.state(created.id)
    assert late.status == "over" and late.result is not None
    assert late.result.reason == "time" and late.result.winner == 1 and late.moves == []
    assert store.flag_if_due(created.id) is False


def test_bounds_on_open_games(db_url: str) -> None:
    st = FriendStore(db_url, FriendLimits(open_per_client=2, open_total=3))
    try:
        a = st.create(fs.CreateRequest(size=3), client="1.1.1.1")
        st.create(fs.CreateRequest(size=3), client="1.1.1.1")
        with pytest.raises(TooManyGamesError, match="per address"):
            st.create(fs.CreateRequest(size=3), client="1.1.1.1")
        st.create(fs.CreateRequest(size=3), client="2.2.2.2")
        with pytest.raises(TooManyGamesError, match="open shared games"):
            st.create(fs.CreateRequest(size=3), client="3.3.3.3")
        assert st.open_games() == 3 and st.open_games("1.1.1.1") == 2
        st.resign(a.id, a.token)  # an unjoined game resigned is aborted: no longer open
        assert st.state(a.id).result is not None
        st.create(fs.CreateRequest(size=3), client="1.1.1.1")
    finally:
        st.close()


def test_idle_games_expire(db_url: str, clock: ManualClock) -> None:
    st = FriendStore(db_url, FriendLimits(idle_expiry_s=3600), now=clock)
    try:
        idle = started(st)
        busy = started(st)
        done = started(st)
        st.resign(done.id, done.token)
        clock.advance(3000)
        state = st.state(busy.id)
        st.move(busy.id, token_to_move(busy, state), state.legal_moves[0], 0)
        clock.advance(1000)
        assert st.expire_idle() == [idle.id]
        assert st.state(idle.id).status == "expired"
        assert st.state(busy.id).status == "playing" and st.state(done.id).status == "over"
        with pytest.raises(IllegalMoveError):
            st.move(idle.id, idle.token, "a2-b2", 0)
    finally:
        st.close()


def test_any_registered_game_can_be_shared(store: FriendStore) -> None:
    """Dot Dash from its standard start, and the tests' toy game (registered for this test
    only), play through the store with their own rules."""
    dd = started(store, game="dotdash", size=9)
    state = store.state(dd.id)
    after = store.move(dd.id, token_to_move(dd, state), state.legal_moves[0], 0)
    assert after.moves == [state.legal_moves[0]] and after.facts is not None
    register(NIM)
    try:
        nim = started(store, game=NIM.name)
        final = play_out(store, nim)
        rules = make_rules(NIM.name, final.variant, final.size)
        session: GameSession[object, object] = GameSession(rules)
        for m in final.moves:
            session.play(m)
        assert final.result is not None and session.result is not None
        assert final.result.winner == session.result.winner
    finally:
        unregister(NIM.name)


def test_sqlite_commits_leave_the_checkpoint_to_its_own_thread(tmp_path: Path) -> None:
    """The store's commits never copy SQLite's log back into the database file (the moves of
    the commit that filled it would wait for that); its checkpointer copies all of it."""
    from boardlab.web.friends import db as dbmod

    st = FriendStore(dbmod.sqlite_url(tmp_path / "wal.sqlite3"))
    try:
        with st.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
        created = started(st)
        state = st.state(created.id)
        for _ in range(6):
            tok = token_to_move(created, state)
            state = st.move(created.id, tok, state.legal_moves[0], state.ply)
        logged, copied = dbmod.checkpoint(st.engine)
        assert logged > 0 and copied == logged
    finally:
        st.close()
    # other engines (the command line's, the migrations') keep SQLite's own checkpoints
    plain = dbmod.make_engine(dbmod.sqlite_url(tmp_path / "wal.sqlite3"))
    with plain.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 1000
    plain.dispose()
