"""The perfect-play oracle: verdicts on concrete 3×3 moves, a perfect player scores 0, and the
training example's agent improves on a random one."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest

from boardlab.ai.base import RandomPlayer, make_player
from boardlab.core.outcome import Value
from boardlab.core.registry import make_rules
from boardlab.integrations.oracle import Verdict, evaluate_agent, judge, open_oracle_table

RULES = make_rules("dodgem", "classic", 3)


def test_verdicts_on_the_3x3_start() -> None:
    table = open_oracle_table(RULES)
    start = RULES.start()
    assert table.probe(start)[0] is Value.WIN  # 3×3 is a first-player win
    assert judge(RULES, table, start, RULES.parse_move("a3-b3")) is Verdict.KEPT
    assert judge(RULES, table, start, RULES.parse_move("a2-b2")) is Verdict.WIN_THROWN


class _DrawnStart:
    """A made-up table: the start is drawn, a2-b2 loses, everything else is drawn."""

    def __init__(self) -> None:
        self.losing_child = RULES.play(RULES.start(), RULES.parse_move("a2-b2"))

    def probe(self, position: Any) -> tuple[Value, int | None]:
        if position == self.losing_child:
            return Value.WIN, 3  # won for the side to move there: lost for the mover
        return Value.DRAW, None


def test_a_drawn_position_left_for_a_lost_one_is_a_thrown_draw() -> None:
    table = _DrawnStart()
    start = RULES.start()
    assert judge(RULES, table, start, RULES.parse_move("a2-b2")) is Verdict.DRAW_THROWN
    assert judge(RULES, table, start, RULES.parse_move("a3-b3")) is Verdict.KEPT


def test_perfect_player_throws_nothing_and_random_does() -> None:
    perfect = evaluate_agent(make_player("4", RULES), RULES, games=10)
    assert perfect.moves > 0 and perfect.error_rate == 0.0
    assert perfect.results["loss"] == 0
    random_agent = evaluate_agent(RandomPlayer(), RULES, games=10)
    assert random_agent.games == 10
    assert random_agent.errors == random_agent.wins_thrown + random_agent.draws_thrown > 0
    assert random_agent.from_won >= random_agent.wins_thrown


def test_the_training_example_reports_an_improvement(capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(__file__).parents[2] / "examples" / "train_tabular_3x3.py"
    spec = importlib.util.spec_from_file_location("train_tabular_3x3", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--episodes", "3000", "--games", "60"]) == 0
    rates = [float(x) for x in re.findall(r"error rate (\d\.\d+)", capsys.readouterr().out)]
    assert len(rates) == 2
    assert rates[1] < rates[0]
