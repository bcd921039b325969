"""Text that looks like rich markup, and arguments past sane bounds (issue items 6, 10, 11):
one line on stderr, exit status 2 (1 for probe lines that failed), never a traceback."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from boardlab.cli.main import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ") and "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["analyze", "--position", "[/x]"], "'[/x]'"),
        (["analyze", "--variant", "[bold]x"], "'[bold]x'"),
        (["perft", "--size", "3", "--position", "[/x]", "--depth", "1"], "[/x]"),
        (["watch", "--size", "3", "--position", "[/]"], "[/]"),
        (["play", "--variant", "[link=x]y[/link]"], "[link=x]y[/link]"),
        (["league", "--game", "[/]"], "[/]"),
    ],
)
def test_markup_in_arguments_is_shown_as_typed(
    capsys: pytest.CaptureFixture[str], args: list[str], shown: str
) -> None:
    status, _, err = run(capsys, *args)
    assert status == 2
    assert shown in one_error_line(err)


def test_markup_typed_at_the_play_prompt(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("[/x]\n[bold]a1-b1\nquit\n"))
    status, out, err = run(capsys, "play", "--size", "3", "--blue", "human", "--red", "human")
    assert status == 0, err
    assert "[/x]" in out and "[bold]a1-b1" in out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["perft", "--size", "3", "--depth", "99999999999999999999"], "--depth must be 0 to"),
        (["perft", "--size", "3", "--depth", "-1"], "--depth must be 0 to"),
        (["watch", "--size", "3", "--delay", "inf"], "--delay must be 0 to"),
        (["watch", "--size", "3", "--delay", "nan"], "--delay must be 0 to"),
        (["verify", "--size", "3", "--sample", str(10**30)], "--sample must be 0 to"),
        (["stats", "--size", "3", "--plot", "x.txt"], "must end in .png"),
        (
            ["solve", "--size", "3", "--jobs", str(2 * (os.cpu_count() or 1) + 1)],
            "--jobs must be 1 to",
        ),
        (["solve", "--size", "3", "--jobs", "0"], "--jobs must be 1 to"),
        (["serve", "--threads", "0"], "--threads must be"),
        (["serve", "--max-body", "0"], "--max-body must be"),
    ],
)
def test_arguments_out_of_bounds(
    capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    status, _, err = run(capsys, *args)
    assert status == 2
    assert words in one_error_line(err)


def test_stats_plot_into_a_folder_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, _, err = run(capsys, "stats", "--size", "3", "--plot", str(tmp_path))
    assert status == 2 and "is a folder" in one_error_line(err)


@pytest.mark.parametrize(
    "record",
    [
        '[Game "dodgem"]\n[Size "' + "9" * 5000 + '"]\n\n*\n',
        json.dumps({"size": 5, "moves": []}).replace("5", "9" * 5000),
        '{"size": Infinity, "moves": []}',
        "[" * 50_000,
    ],
)
def test_play_load_of_a_crafted_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, record: str
) -> None:
    path = tmp_path / "game.txt"
    path.write_text(record)
    status, _, err = run(capsys, "play", "--load", str(path))
    assert status == 2
    one_error_line(err)


def test_probe_exits_non_zero_when_a_line_failed(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("B2/B2/1RR b\n"))
    status, out, _ = run(capsys, "probe", "--size", "3", "--tables", str(tmp_path))
    assert status == 0 and json.loads(out)["value"] == "win"
    monkeypatch.setattr("sys.stdin", io.StringIO("B2/B2/1RR b\nnonsense\n[/x]\n"))
    status, out, err = run(capsys, "probe", "--size", "3", "--tables", str(tmp_path))
    assert status == 1
    rows = [json.loads(line) for line in out.splitlines()]
    assert [("error" in r) for r in rows] == [False, True, True]
    assert "2 of 3 lines" in one_error_line(err)


def test_a_ctrl_c_dropped_by_a_finaliser_still_stops_long_work() -> None:
    """Ctrl-C raised where it is swallowed (as inside a Dask future's __del__) is still
    remembered: the next check between steps of long work raises it again."""
    import os
    import signal

    from boardlab.cli.common import catch_interrupts, check_interrupted

    # start from Python's own handler, whatever code run earlier in this process left
    # (a handler set outside Python reads back as None and could not be put back)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    previous = catch_interrupts()
    assert previous is signal.default_int_handler
    try:
        check_interrupted()  # nothing yet
        try:
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(1000):  # the handler runs between bytecodes of the main thread
                pass
        except KeyboardInterrupt:
            pass  # dropped, as a finaliser drops it
        with pytest.raises(KeyboardInterrupt):
            check_interrupted()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert catch_interrupts() is signal.default_int_handler  # a new command starts clean
    signal.signal(signal.SIGINT, signal.default_int_handler)
    check_interrupted()
