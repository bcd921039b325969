"""`boardlab play --join LINK`: a shared game (Play a friend) from the terminal.

LINK is the invitation link (`http://HOST:PORT/friend#g=GAME&t=TOKEN`): its token's seat is
played here; a watch link (no `t=`) follows the game read-only. The game's socket brings
every change; moves and commands go back over it. A dropped connection is retried with a
growing pause, and the game goes on where it was; a server that stays away for
`GIVE_UP_S` seconds is given up in one line. In the terminal, input is read all the time:
`quit`, `resign` and the end of input work while the other player thinks, too. A game with
a setup stage (Dot Dash's pie) asks its placer for the setup text and the other player for a
colour first.
"""

from __future__ import annotations

import json
import queue
import re
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

from rich.text import Text

from boardlab.cli.common import UsageError, console
from boardlab.core.errors import BoardLabError
from boardlab.core.registry import get_game, make_rules

COMMANDS = "a move in notation, moves, resign, draw (offer), accept, decline, help, quit"
QUIT_WORDS = ("quit", "q", "exit")
OPEN = ("waiting", "playing")
ID = re.compile(r"^[A-Za-z0-9_-]{10,32}$")
TOKEN = re.compile(r"^[A-Za-z0-9_-]{10,200}$")


@dataclass(frozen=True)
class Link:
    """A shared game's address: the server, the game id and the seat token (None: watch)."""

    base: str  # http(s)://host:port
    game: str
    token: str | None

    @property
    def socket_url(self) -> str:
        """The game's WebSocket address."""
        scheme = "wss" if self.base.startswith("https") else "ws"
        return f"{scheme}{self.base[self.base.index(':') :]}/api/friends/{self.game}/ws"


def parse_link(text: str) -> Link:
    """Read an invitation or watch link; UsageError with one line if it is not one."""
    try:
        parts = urlsplit(text.strip())
        parts.port  # noqa: B018  (reading it checks it: a port out of range raises)
    except ValueError as exc:
        raise UsageError(f"not a Play a friend link: {text[:80]!r} ({exc})") from None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise UsageError(
            f"not a Play a friend link: {text[:80]!r} (expected http://HOST/friend#g=…)"
        )
    fields = parse_qs(parts.fragment)
    game = (fields.get("g") or [""])[0]
    if not ID.match(game):
        raise UsageError("the link names no game (its part after '#' needs g=GAME)")
    tokens = fields.get("t")
    token = tokens[0] if tokens else None
    if token is not None and not TOKEN.match(token):
        raise UsageError("the link's seat token is malformed")
    return Link(f"{parts.scheme}://{parts.netloc}", game, token)


GIVE_UP_S = 30.0  # a server unreachable this long (since the last answer) is given up


class Keyboard:
    """Lines of input read by a thread of their own, so that they can be taken while the
    program waits for something else (None in the queue: the input ended)."""

    def __init__(self, readline: Callable[[], str]) -> None:
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._readline = readline
        threading.Thread(target=self._read, name="keyboard", daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                line = self._readline()
            except (EOFError, OSError, ValueError):
                line = ""
            if not line:
                self._lines.put(None)
                return
            self._lines.put(line.rstrip("\n"))

    NOTHING = object()  # what `take` returns when no line came in time

    def take(self, timeout: float | None = None) -> str | object | None:
        """The next line, None at the end of input, or `Keyboard.NOTHING` when nothing came
        within `timeout` seconds (0: do not wait)."""
        try:
            if timeout == 0:
                return self._lines.get_nowait()
            return self._lines.get(timeout=timeout)
        except queue.Empty:
            return Keyboard.NOTHING

    def ask(self, say: Callable[..., None]) -> Callable[[str], str]:
        """An `ask(prompt)` that prints the prompt and waits for a line (EOFError at the
        end of input)."""

        def ask(prompt: str) -> str:
            say(prompt, end="")
            line = self.take(None)
            if line is None or line is Keyboard.NOTHING:
                raise EOFError
            assert isinstance(line, str)
            return line

        return ask


class Client:
    """Plays (or watches) one shared game over its socket; `ask` reads a line when it is
    this seat's turn (or the game is over), `say` prints. With a `keyboard`, lines typed
    while waiting are read too (quit, resign, end of input)."""

    def __init__(
        self,
        link: Link,
        ask: Callable[[str], str],
        say: Callable[[Any], None] = console.print,
        retries: int = 20,
        keyboard: Keyboard | None = None,
        give_up_s: float = GIVE_UP_S,
    ) -> None:
        self.link = link
        self.ask = ask
        self.say = say
        self.retries = retries
        self.keyboard = keyboard
        self.give_up_s = give_up_s
        self.state: dict[str, Any] | None = None
        self.shown: tuple[Any, ...] | None = None
        # what the game looked like when a move or command was sent: wait for a change
        self.pending: tuple[Any, ...] | None = None

    # -- the loop ------------------------------------------------------------------------
    def run(self) -> int:
        """Until the game ends and the player quits (0), or the server stays away (2)."""
        from websockets.exceptions import ConnectionClosed, InvalidHandshake

        failures = 0
        self.answered = time.monotonic()  # when the server last answered
        while True:
            try:
                done = self._session()
                if done:
                    return 0
                failures = 0  # switched games: connect again at once
            except _Quit:
                return 0
            except (ConnectionClosed, OSError, InvalidHandshake, TimeoutError):
                failures += 1
                waited = time.monotonic() - self.answered
                if failures > self.retries or waited >= self.give_up_s:
                    raise BoardLabError(
                        f"the server at {self.link.base} cannot be reached (gave up after "
                        f"{waited:.0f} s); try the link again later"
                    ) from None
                pause = min(5.0, 0.5 * 2 ** (failures - 1), self.give_up_s - waited)
                self.say(Text(f"connection lost: reconnecting in {pause:.1f} s…", style="yellow"))
                if self._pause(pause):
                    return 0  # quit (or the end of input) while waiting

    def _session(self) -> bool:
        """One connection; True when the user is done, False to connect again."""
        from websockets.sync.client import connect

        opening = max(1.0, min(10.0, self.give_up_s - (time.monotonic() - self.answered)))
        with connect(self.link.socket_url, open_timeout=opening, close_timeout=2) as ws:
            ws.send(json.dumps({"type": "hello", "token": self.link.token}))
            while True:
                try:
                    raw = ws.recv(timeout=0.25 if self.keyboard is not None else None)
                except TimeoutError:  # nothing new: look at what was typed meanwhile
                    self._typed_while_waiting(ws)
                    continue
                self.answered = time.monotonic()
                msg = json.loads(raw)
                if self._handle(msg):
                    return True
                state = self.state
                if state is None:
                    continue
                if state.get("next_game") and state["status"] != "playing":
                    self.say(
                        Text.assemble(
                            ("Rematch:", "bold"), f" game {state['match']['games']} of the match"
                        )
                    )
                    self.link = Link(self.link.base, state["next_game"], self.link.token)
                    self.state = None
                    return False
                self._show()
                if state["status"] in ("over", "expired"):
                    if self.link.token is None:
                        return True
                    answer = self._read("rematch or quit> ")
                    if answer in (None, "quit", "q", "exit"):
                        return True
                    ws.send(json.dumps({"type": "rematch"}))
                    continue
                role = self._setup_role()
                if role in ("place", "choose") and self.pending is None:
                    self._setup_turn(ws, role)
                elif role is None and self._my_turn() and self.pending is None:
                    self._turn(ws)

    def _pause(self, seconds: float) -> bool:
        """Wait `seconds` (reading the keyboard, if any); True if the user quit."""
        if self.keyboard is None:
            time.sleep(max(0.0, seconds))
            return False
        end = time.monotonic() + max(0.0, seconds)
        while (left := end - time.monotonic()) > 0:
            line = self.keyboard.take(left)
            if line is Keyboard.NOTHING:
                return False
            if line is None or str(line).strip().lower() in QUIT_WORDS:
                return True
            self.say("not connected: type quit to stop waiting")
        return False

    def _typed_while_waiting(self, ws: Any) -> None:
        """A line typed while it is not this seat's turn: quit and the end of input stop,
        resign resigns, anything else is answered with what can be done now."""
        assert self.keyboard is not None
        line = self.keyboard.take(0)
        if line is Keyboard.NOTHING:
            return
        if line is None:
            raise _Quit
        word = str(line).strip().lower()
        if not word:
            return
        if word in QUIT_WORDS:
            raise _Quit
        s = self.state
        if word == "resign" and s is not None and self.link.token and s["status"] in OPEN:
            self.pending = _key(s)
            ws.send(json.dumps({"type": "resign"}))
            return
        self.say("it is not your turn: wait for the other player, or type resign or quit")

    def _handle(self, msg: dict[str, Any]) -> bool:
        kind = msg.get("type")
        if kind == "state":
            self.state = msg["state"]
            if self.pending is not None and _key(msg["state"]) != self.pending:
                self.pending = None
        elif kind == "error":
            self.pending = None
            if msg.get("status") in (403, 404) and self.state is None:
                raise BoardLabError(str(msg.get("error")))
            self.say(Text(" ".join(str(msg.get("error")).split()), style="red"))
        return False

    def _my_turn(self) -> bool:
        s = self.state
        return bool(s and s["status"] == "playing" and s.get("you") == s["to_move"])

    def _setup_role(self) -> str | None:
        """This seat's part in the setup stage under way: place, choose, wait or watch; None
        when there is none."""
        s = self.state
        setup = s.get("setup") if s else None
        if not s or not setup or s["status"] != "playing":
            return None
        if s.get("you") is None:
            return "watch"
        placing = s.get("person") == setup["placer"]
        if setup["stage"] == "place":
            return "place" if placing else "wait"
        return "wait" if placing else "choose"

    def _setup_turn(self, ws: Any, role: str) -> None:
        """Ask for the setup text (Enter: the rules' fixed start) or the colour, and send it."""
        s = self.state
        assert s is not None
        info = get_game(s["game"])
        stage = info.setup
        assert stage is not None  # the server has a setup stage only for such games
        rules = make_rules(s["game"], s["variant"], s["size"])
        default = stage.describe(rules.start())
        names = s["players"]
        while True:
            if role == "place":
                prompt = f"place three stones (Enter: {default})> "
            else:
                prompt = f"choose a colour ({' or '.join(names)})> "
            line = self._read(prompt)
            if line is None or line.lower() in ("quit", "q", "exit"):
                raise _Quit
            if line.lower() in ("help", "?"):
                self.say(Text.assemble((f"{info.title} setup:", "bold"), f" {stage.summary}."))
                continue
            if line.lower() == "resign":
                self.pending = _key(s)
                ws.send(json.dumps({"type": "resign"}))
                return
            if role == "place":
                body: dict[str, Any] = {"action": "place", "setup": line or default}
            else:
                try:
                    body = {"action": "choose", "colour": stage.parse_choice(line)}
                except BoardLabError as exc:
                    self.say(Text(str(exc), style="red"))
                    continue
            self.pending = _key(s)
            ws.send(json.dumps({"type": "setup", **body}))
            return

    def _read(self, prompt: str) -> str | None:
        try:
            return self.ask(prompt).strip()
        except EOFError:
            return None

    def _turn(self, ws: Any) -> None:
        """Ask until a move or command is sent (or the user quits: raises SystemExit 0)."""
        s = self.state
        assert s is not None
        names = s["players"]
        while True:
            line = self._read(f"{names[s['you']]} to move> ")
            if line is None or line.lower() in ("quit", "q", "exit"):
                raise _Quit
            word = line.lower()
            if not line:
                continue
            if word in ("help", "?"):
                self.say(f"Type {COMMANDS}.")
                continue
            if word == "moves":
                self.say(" ".join(s["legal_moves"]) or "no moves")
                continue
            self.pending = _key(s)
            if word == "resign":
                ws.send(json.dumps({"type": "resign"}))
            elif word in ("draw", "offer"):
                ws.send(json.dumps({"type": "draw", "action": "offer"}))
            elif word in ("accept", "decline"):
                ws.send(json.dumps({"type": "draw", "action": word}))
            else:
                ws.send(json.dumps({"type": "move", "move": line, "ply": s["ply"]}))
            return

    # -- drawing ---------------------------------------------------------------------------
    def _show(self) -> None:
        s = self.state
        assert s is not None
        key = _key(s)
        if key == self.shown:
            return
        self.shown = key
        if self._setup_role() is not None and s["setup"]["stage"] == "place":
            self.say(self._status_line())  # no stones on the board yet
            return
        rules = make_rules(s["game"], s["variant"], s["size"])
        position = rules.parse_position(s["position"])
        last = rules.parse_move(s["moves"][-1]) if s["moves"] else None
        draw = get_game(rules.game).render  # the game's own terminal board, as play draws it
        self.say(draw(rules, position, last) if draw else rules.format_position(position))
        if s["moves"]:
            self.say(f"last move: {s['moves'][-1]}")
        self.say(self._status_line())

    def _status_line(self) -> str | Text:
        s = self.state
        assert s is not None
        names = s["players"]
        you = s.get("you")
        score = s["match"]["score"]
        me = s.get("person") or 0
        match = f"match {_points(score[me])}–{_points(score[1 - me])}"
        clock = ""
        if s.get("clock"):
            left = s["clock"]["remaining_ms"]
            clock = f" · clock {names[0]} {_clock(left[0])}, {names[1]} {_clock(left[1])}"
        if s["status"] == "waiting":
            return "waiting for the other player to open the invitation…"
        if s["status"] == "expired":
            return "the game expired after a long pause"
        if s["result"] is not None:
            r = s["result"]
            text = "Draw" if r["winner"] is None else f"{names[r['winner']].capitalize()} wins"
            return Text.assemble((f"{text} ({r['reason']})", "bold"), f" · {match}")
        offer = ""
        if s["draw_offer"] is not None and you is not None and s["draw_offer"] != you:
            offer = " · your friend offers a draw (accept / decline)"
        role = self._setup_role()
        if role is not None:
            stage = s["setup"]["stage"]
            return {
                ("place", "place"): "setup: you place three stones; your friend then chooses",
                ("wait", "place"): "setup: your friend is placing three stones…",
                ("watch", "place"): "setup: three stones are being placed (watching)",
                ("choose", "choose"): "setup: choose your colour; the single stone moves first",
                ("wait", "choose"): "setup: your friend is choosing a colour…",
                ("watch", "choose"): "setup: a colour is being chosen (watching)",
            }[role, stage]
        if you is None:
            return f"{names[s['to_move']]} to move (watching){clock}"
        turn = "your move" if you == s["to_move"] else f"{names[s['to_move']]} to move"
        return f"you play {names[you]} · {turn}{clock} · {match}{offer}"


class _Quit(Exception):
    """The user typed quit (or closed the input)."""


def _key(state: dict[str, Any]) -> tuple[Any, ...]:
    setup = state.get("setup") or {}
    return (state["id"], state["ply"], state["status"], state["draw_offer"], setup.get("stage"))


def _points(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{int(x) or ''}½"


def _clock(ms: int) -> str:
    s = max(0, ms) // 1000
    return f"{s // 60}:{s % 60:02d}"


def run_join(link_text: str, ask: Callable[[str], str] | None = None) -> int:
    """`boardlab play --join LINK`."""
    link = parse_link(link_text)
    if ask is None:  # the terminal: a reader thread, so that input is read at any time
        keyboard = Keyboard(sys.stdin.readline)
        client = Client(link, keyboard.ask(console.print), keyboard=keyboard)
    else:
        client = Client(link, ask)
    console.print(
        "Joined a shared game"
        + (" as a spectator" if link.token is None else "")
        + f" at {link.base}. Type {COMMANDS}."
    )
    try:
        return client.run()
    except _Quit:
        return 0
