"""What the API does, free of HTTP: replay games, ask players, probe tables, build tables.

Every fact about a game (variants, sizes, colours, levels, setup stage, tables) comes from its
`GameInfo`; tables come from the `TableStore` the app was made with.
"""

from __future__ import annotations

import random
from typing import Any, cast

from boardlab.ai.base import default_level, level_names
from boardlab.ai.forced import DEFAULT_BUDGET, forced_result
from boardlab.core.errors import (
    BoardLabError,
    CorruptTableError,
    IllegalMoveError,
    NotationError,
    UsageError,
)
from boardlab.core.outcome import Outcome
from boardlab.core.registry import AnyRules, games, get_game, make_rules
from boardlab.core.session import GameSession
from boardlab.solver import analyse
from boardlab.solver.store import TableStore
from boardlab.web import schemas as s
from boardlab.web.builds import TableBuilds
from boardlab.web.limits import Budget
from boardlab.web.players import MAX_POOLS, PlayerPools

Session = GameSession[Any, Any]


def rules_of(game: str, variant: str | None, size: int | None) -> AnyRules:
    """Rules by name; raises UnknownGameError with a one-line message."""
    return make_rules(game, variant, size)


def replay(spec: s.GameSpec) -> tuple[AnyRules, Session]:
    """A session holding the spec's start and moves; names the ply of a bad move."""
    rules = rules_of(spec.game, spec.variant, spec.size)
    start = rules.parse_position(spec.start) if spec.start else None
    session: Session = GameSession(rules, start)
    for i, text in enumerate(spec.moves):
        try:
            session.play(rules.parse_move(text))
        except NotationError as exc:
            raise NotationError(f"move {i + 1} ({text.strip()}): {exc}") from exc
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"move {i + 1} ({text.strip()}): {exc}") from exc
    return rules, session


def _value(v: object) -> s.ValueText:
    """A solver value as the API spells it."""
    text = str(v)
    if text not in ("win", "loss", "draw"):
        raise ValueError(f"unexpected value {text!r}")
    return cast(s.ValueText, text)


def result_out(outcome: Outcome | None) -> s.ResultOut | None:
    """The result as the API shows it."""
    if outcome is None:
        return None
    return s.ResultOut(winner=outcome.winner, reason=outcome.reason.value, tag=outcome.result_tag())


def state_out(rules: AnyRules, session: Session) -> s.StateOut:
    """Everything a front end needs to draw the game."""
    fmt = rules.format_position
    return s.StateOut(
        game=rules.game,
        variant=rules.variant,
        size=rules.size,
        players=rules.player_names,
        options=dict(rules.options()),
        start=fmt(session.start),
        moves=[rules.format_move(m) for m in session.moves],
        positions=[fmt(p) for p in session.positions],
        position=fmt(session.position),
        to_move=session.to_move,
        legal_moves=[rules.format_move(m) for m in session.legal_moves()],
        result=result_out(session.result),
        facts=s.board_facts(rules, session.position),
    )


def catalogue() -> s.GamesOut:
    """The registered games with their variants, sizes, colours, levels and setup stage."""
    out = []
    all_levels: list[str] = []
    for info in games().values():
        variants = [
            s.VariantOut(
                name=v.name,
                players=v.player_names,
                letters=v.letters,
                sizes=v.size_range,
                size_list=list(v.sizes),
                default_size=v.default_size,
                published_size=v.published_size,
                summary=v.summary,
            )
            for v in info.variants
        ]
        levels = level_names(info)
        all_levels.extend(n for n in levels if n not in all_levels)
        out.append(
            s.GameOut(
                name=info.name,
                title=info.title,
                default_variant=info.default_variant,
                variants=variants,
                levels=["random", *levels],
                default_level=default_level(info),
                setup=None if info.setup is None else info.setup.name,
                tables=info.solver_adapter is not None,
                renderer=info.renderer,
                table_level=info.table_level,
                action_ids=info.codec is not None,
            )
        )
    features = {"levels": bool(all_levels), "forced": True, "solver": True}
    return s.GamesOut(games=out, levels=sorted(all_levels) or ["random"], features=features)


class Service:
    """What the API does with shared, thread-safe state: the computer players' pools and the
    tables' builds (`players`, `builds`); never a game in play."""

    def __init__(
        self,
        tables: TableStore,
        *,
        allow_builds: bool = False,
        max_pools: int = MAX_POOLS,
    ) -> None:
        self.tables = tables
        self.players = PlayerPools(tables, max_pools)
        self.builds = TableBuilds(tables, allow_builds=allow_builds)

    def close(self) -> None:
        """Stop any build and close open tables (server shutdown)."""
        self.builds.close()

    # -- moves -----------------------------------------------------------------------------
    def choose(
        self,
        rules: AnyRules,
        session: Session,
        level: str,
        rng: random.Random,
        budget: Budget | None = None,
    ) -> Any:
        """A computer move for the side to move, from a pooled player of that level."""
        if session.is_over:
            raise IllegalMoveError("the game is over")
        if budget is not None:
            budget.check()
        history = session.positions[:-1]
        with self.players.pool(level, rules).player() as player:
            try:
                return player.choose(rules, session.position, history, rng)
            except CorruptTableError:
                self.builds.forget_table(rules)
                raise

    def _level4_table(self, rules: AnyRules, level: str) -> tuple[s.TableState | None, str | None]:
        """For a move of the level that plays from tables (`GameInfo.table_level`): the
        table's state and, unless it is ready, a note."""
        table_level = get_game(rules.game).table_level
        if table_level is None or level != str(table_level):
            return None, None
        status = self.builds.table_status(rules)
        if status.state == "ready":
            return "ready", None
        if status.state == "damaged":
            return "damaged", f"level {level} played by search: {status.message}"
        if status.state in ("missing", "building", "failed"):
            return (
                status.state,
                f"level {level} played by search: no complete table for these rules",
            )
        return None, None

    def computer_move(
        self,
        req: s.MoveRequest,
        budget: Budget | None = None,
        forced_seconds: float = DEFAULT_BUDGET,
    ) -> s.MoveOut:
        """Replay, let the computer move, and report a forced win it sees (a proof search
        of at most `forced_seconds`: the server passes less when it is busy)."""
        rules, session = replay(req)
        rng = random.Random(f"{req.seed}:{len(session.moves)}")
        table, note = self._level4_table(rules, req.level)
        move = self.choose(rules, session, req.level, rng, budget)
        session.play(move)
        forced = None
        if req.forced and (budget is None or not budget.exhausted()):
            forced = self.forced(rules, session, forced_seconds)
        return s.MoveOut(
            move=rules.format_move(move),
            player=req.level,
            state=state_out(rules, session),
            forced=forced,
            table=table,
            note=note,
        )

    def playout(
        self,
        req: s.PlayoutRequest,
        budget: Budget | None = None,
        progress: list[str] | None = None,
    ) -> s.PlayoutOut:
        """Play on from the replayed position to the end, `max_plies` or the budget's end
        (then `complete` is false: post the moves back to go on from there). Each move is
        also appended to `progress` as it is played (the route answers from there when a
        move runs past the deadline)."""
        rules, session = replay(req)
        first = len(session.moves)
        stopped: s.StopReason | None = None
        while not session.is_over and len(session.moves) - first < req.max_plies:
            if budget is not None and budget.exhausted():
                stopped = "cancelled" if budget.cancel.is_set() else "time"
                break
            rng = random.Random(f"{req.seed}:{len(session.moves)}")
            move = self.choose(rules, session, req.players[session.to_move], rng)
            session.play(move)
            if progress is not None:
                progress.append(rules.format_move(move))
        if stopped is None and not session.is_over:
            stopped = "plies"
        played = [rules.format_move(m) for m in session.moves[first:]]
        return s.PlayoutOut(
            moves=played,
            state=state_out(rules, session),
            complete=session.is_over,
            stopped=stopped,
        )

    @staticmethod
    def playout_page(req: s.PlayoutRequest, played: list[str]) -> s.PlayoutOut:
        """A playout's page cut at its deadline: the moves `played` by then (complete is
        false, stopped "time"; the client posts them back to go on)."""
        rules, session = replay(req.model_copy(update={"moves": [*req.moves, *played]}))
        return s.PlayoutOut(
            moves=played,
            state=state_out(rules, session),
            complete=session.is_over,
            stopped=None if session.is_over else "time",
        )

    def pie(self, req: s.PieRequest) -> s.PieOut:
        """The computer's side of the game's setup stage (Dot Dash's pie): place a setup, or
        choose a colour for the given one (checked by the game's setup rules)."""
        rules = rules_of(req.game, req.variant, req.size)
        stage = get_game(rules.game).setup
        if stage is None:
            raise UsageError(f"{get_game(rules.game).title} has no setup stage")
        agent = stage.agent(rules, random.Random(f"{req.seed}:pie:{req.role}"))
        colour: int | None = None
        if req.role == "place":
            position = stage.parse(rules, agent("place"))
        else:
            assert req.setup is not None  # the request model insists on it
            position = stage.parse(rules, req.setup)
            colour = stage.parse_choice(agent(f"choose {stage.describe(position)}"))
        session: Session = GameSession(rules, position)
        return s.PieOut(
            role=req.role,
            player=req.level,
            setup=stage.describe(position),
            colour=colour,
            colour_name=None if colour is None else rules.player_names[colour],
            state=state_out(rules, session),
        )

    def forced(
        self, rules: AnyRules, session: Session, seconds: float = DEFAULT_BUDGET
    ) -> s.ForcedOut | None:
        """A forced win from the current position, where the game's finder sees one within
        `seconds` of proof search (a table, when one is open, answers at once)."""
        if session.is_over:
            return None
        try:
            found = forced_result(
                rules, session.position, tuple(session.positions[:-1]), self.tables, seconds
            )
        except BoardLabError:
            return None
        if found is None:
            return None
        return s.ForcedOut(winner=int(found.winner), plies=int(found.plies))

    # -- analysis --------------------------------------------------------------------------
    def analysis(self, spec: s.GameSpec) -> s.AnalysisOut:
        """Values of the position, of every legal move and of every position of the game."""
        rules, session = replay(spec)
        try:
            return self._analysis(rules, session)
        except CorruptTableError:
            self.builds.forget_table(rules)  # the next request opens the file again
            raise

    def _analysis(self, rules: AnyRules, session: Session) -> s.AnalysisOut:
        to_move = session.to_move
        status = self.builds.table_status(rules)
        if status.state != "ready":
            reason = status.message or {
                "missing": "no table for this size yet",
                "building": "the table is being built",
            }.get(status.state, "no table for this size")
            return s.AnalysisOut(
                available=False,
                reason=reason,
                table=status.state,
                to_move=to_move,
                forced=self.forced(rules, session),
            )
        table = self.builds.table(rules)
        history = []
        for i, pos in enumerate(session.positions):
            v, r = table.probe(pos)
            history.append(
                s.PlyValueOut(ply=i, to_move=rules.to_move(pos), value=_value(v), remoteness=r)
            )
        value: s.ValueText | None
        rem: int | None
        moves: list[s.MoveEvalOut] = []
        if session.is_over:
            outcome = session.result
            assert outcome is not None
            value, rem = _value(outcome.value_for(to_move)), 0
            history[-1] = s.PlyValueOut(
                ply=len(session.moves), to_move=to_move, value=value, remoteness=0
            )
        else:
            value, rem = history[-1].value, history[-1].remoteness
            for e in analyse(rules, table, session.position):
                moves.append(
                    s.MoveEvalOut(
                        move=rules.format_move(e.move),
                        value=_value(e.value),
                        remoteness=e.remoteness,
                    )
                )
        forced = None
        if value == "win" and rem is not None and not session.is_over:
            forced = s.ForcedOut(winner=to_move, plies=rem)
        elif value == "loss" and rem is not None and not session.is_over:
            forced = s.ForcedOut(winner=1 - to_move, plies=rem)
        return s.AnalysisOut(
            available=True,
            table="ready",
            value=value,
            remoteness=rem,
            to_move=to_move,
            moves=moves,
            history=history,
            forced=forced,
        )
