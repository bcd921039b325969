"""The plain progress lines of a solve or a verification (stderr not a terminal): the time left
comes from the rate so far, and only once enough is done for that rate to mean something."""

from __future__ import annotations

from boardlab.cli.solve import KNOWN_AFTER, time_left


def test_no_time_left_from_the_first_handful_of_positions() -> None:
    total = 198_054_372_380  # 6×6 classic
    # the first minutes of a 6×6 solve: two positions in eight minutes
    assert time_left(2, total, 2 / 480) == "time left not known yet"
    assert time_left(int(total * KNOWN_AFTER) - 1, total, 5e6) == "time left not known yet"
    assert time_left(0, total, 0.0) == "time left not known yet"


def test_the_time_left_follows_the_rate_once_enough_is_done() -> None:
    total = 1_000_000
    half = time_left(total // 2, total, 1_000.0)  # 500 s to go
    quarter = time_left(3 * total // 4, total, 1_000.0)  # 250 s to go
    assert half.startswith("about ") and half.endswith(" left")
    assert quarter.startswith("about ") and quarter != half
