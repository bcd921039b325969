"""Web server under abuse: normal play while other clients send the heaviest requests.

For `--seconds` (default 60) on loopback only:
- 20 clients play normal games on 5×5 Dodgem (a human move checked by /api/state, then a
  level-2 computer move by /api/move) and time every request;
- 5 clients send the heaviest requests the API accepts (8×8 level-4 playouts of 1000 plies,
  level-4 moves on 6×6 to 8×8, table builds), each giving up after 10 s and sending the next;
- 2 clients send oversized bodies (10 MB of unknown JSON keys);
- one client asks /api/health every 0.1 s;
- optionally (`--idle N`): one address holds N idle sockets, each sending one header line
  every 10 s; a socket the server closed is opened again at the next 10 s tick;
- optionally (`--idle-ws N`): the same address holds N WebSockets that finish the handshake
  and then say nothing (no hello, no ping), opened again at the next 10 s tick when closed;
- optionally (`--squat N`): N addresses create shared games that nobody joins, as fast as
  the server lets them (normal clients then try to create one every few seconds);
- optionally (`--creators N`): N addresses each create a shared game and resign it at once,
  in a loop (never over their quota), to measure how many games the server makes a second;
- optionally (`--ws-garbage N`): N clients open game sockets and send binary frames,
  `[` * 3000 and oversized text, reconnecting after every close.
Each simulated client connects from its own loopback address (127.0.0.10 and up), so the
server tells them apart as it would clients on a network.
Prints normal-play p50/p95/p99, health latency, errors by kind, the server's memory (RSS
of the server and its children) at start and end, and the size of its log (and how many
tracebacks it holds).

Run: python benchmarks/web_abuse.py [--seconds 60] [--port 8161] [--src DIR]
(`--src` runs the server from another source tree, e.g. an older checkout, for comparison.)
"""

from __future__ import annotations

import argparse
import collections
import json
import multiprocessing
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

HOST = "127.0.0.1"  # loopback only, never anything else
NORMAL, HEAVY, OVERSIZED = 20, 5, 2


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def rss_mb(pid: int, children_too: bool = True) -> float:
    """Resident memory of `pid` (and all its descendants), in MB (Linux /proc)."""
    children: dict[int, list[int]] = collections.defaultdict(list)
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children[ppid].append(int(entry))
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        if children_too:
            todo.extend(children.get(p, ()))
        try:
            with open(f"/proc/{p}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def cpu_seconds(pid: int) -> float:
    """Processor time (user + system) process `pid` has used so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(
    port: int, tables: Path, src: Path | None, log: Path, file_limit: int | None = None
) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    env["BOARDLAB_DATABASE"] = f"sqlite:///{tables.parent / 'friends.sqlite3'}"
    if src is not None:
        env["PYTHONPATH"] = str(src)
    cmd = [sys.executable, "-m", "boardlab", "serve", "--host", HOST, "--port", str(port),
           "--tables", str(tables)]  # fmt: skip

    def limit_files() -> None:  # the usual soft limit of a login session, e.g. 1024
        import resource

        if file_limit is not None:
            hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
            resource.setrlimit(resource.RLIMIT_NOFILE, (file_limit, hard))

    with log.open("wb") as sink:
        proc = subprocess.Popen(cmd, env=env, stdout=sink, stderr=subprocess.STDOUT,
                                preexec_fn=limit_files)  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://{HOST}:{port}/api/health", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("server did not start")


def warm_up(base: str, pid: int) -> None:
    """Before measuring: one level-2 move in the server process and two level-3 moves at
    once (each in one of the worker processes, which import the players and compile their
    kernels), then wait until the server's memory stops changing (at most 60 s)."""
    with httpx.Client(base_url=base, timeout=120) as c:
        c.post("/api/move", json={"size": 5, "level": "2"})
        c.post("/api/state", json={"size": 5})

    def heavy(n: int) -> None:
        with client_at(base, 200 + n, 120) as c:
            c.post("/api/move", json={"size": 5, "level": "3", "seed": n})

    threads = [threading.Thread(target=heavy, args=(n,)) for n in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    deadline, last = time.monotonic() + 60, rss_mb(pid)
    while time.monotonic() < deadline:
        time.sleep(2)
        now = rss_mb(pid)
        if abs(now - last) < 2:
            return
        last = now


class Stats:
    def __init__(self) -> None:
        self.held: dict[str, int] = {}  # idle sockets open at the end, by kind
        self.made: list[float] = []  # when each shared game was created (monotonic)
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = collections.defaultdict(list)
        self.codes: dict[str, collections.Counter[str]] = collections.defaultdict(
            collections.Counter
        )

    def add(self, group: str, seconds: float | None, outcome: str) -> None:
        with self.lock:
            if seconds is not None:
                self.times[group].append(seconds)
            self.codes[group][outcome] += 1


def client_at(base: str, n: int, timeout: float) -> httpx.Client:
    """An HTTP client from its own loopback address 127.0.0.n, so that the server sees one
    client per simulated user (as it would over a network)."""
    transport = httpx.HTTPTransport(local_address=f"127.0.0.{n}")
    return httpx.Client(base_url=base, timeout=timeout, transport=transport)


def timed(
    stats: Stats, group: str, client: httpx.Client, method: str, url: str, **kw: Any
) -> httpx.Response | None:
    t0 = time.perf_counter()
    try:
        r = client.request(method, url, **kw)
    except httpx.TimeoutException:
        stats.add(group, None, "timeout")
        return None
    except httpx.HTTPError as exc:
        stats.add(group, None, type(exc).__name__)
        return None
    stats.add(group, time.perf_counter() - t0, str(r.status_code))
    return r


def client_move(
    stats: Stats, client: httpx.Client, moves: list[str], seed: int
) -> httpx.Response | None:
    """The computer's reply; a game the human's move just ended is answered 400 "the game is
    over" (IllegalMoveError), which is counted as such, not as an error."""
    t0 = time.perf_counter()
    try:
        r = client.post("/api/move", json={"size": 5, "moves": moves, "level": "2", "seed": seed})
    except httpx.TimeoutException:
        stats.add("normal", None, "timeout")
        return None
    except httpx.HTTPError as exc:
        stats.add("normal", None, type(exc).__name__)
        return None
    over = r.status_code == 400 and "game is over" in r.text
    stats.add("normal", time.perf_counter() - t0, "game over" if over else str(r.status_code))
    return r


def normal_client(base: str, seed: int, stop: threading.Event, stats: Stats) -> None:
    rng = random.Random(seed)
    with client_at(base, 10 + seed, 30) as client:
        while not stop.is_set():
            moves: list[str] = []
            for _ in range(30):
                if stop.is_set():
                    return
                r = timed(stats, "normal", client, "POST", "/api/state",
                          json={"size": 5, "moves": moves})  # fmt: skip
                if r is None or r.status_code != 200:
                    break
                state = r.json()
                if state["result"] or not state["legal_moves"]:
                    break
                moves.append(rng.choice(state["legal_moves"]))
                r = client_move(stats, client, moves, seed)
                if r is None or r.status_code != 200:
                    break
                data = r.json()
                moves = data["state"]["moves"]
                if data["state"]["result"]:
                    break


def heavy_client(base: str, k: int, stop: threading.Event, stats: Stats) -> None:
    rng = random.Random(1000 + k)
    variants = ["classic", "blocked-loses", "misere"]
    with client_at(base, 40 + k, 10) as client:
        i = 0
        while not stop.is_set():
            i += 1
            kind = (k + i) % 3
            if kind == 0:
                body: dict[str, Any] = {"size": 8, "players": ["4", "4"], "max_plies": 1000,
                                        "seed": i}  # fmt: skip
                timed(stats, "heavy", client, "POST", "/api/playout", json=body)
            elif kind == 1:
                body = {"size": rng.choice([6, 7, 8]), "level": "4", "seed": i}
                timed(stats, "heavy", client, "POST", "/api/move", json=body)
            else:
                body = {"size": 5, "variant": variants[i % len(variants)]}
                timed(stats, "heavy", client, "POST", "/api/tables", json=body)


def oversized_client(base: str, k: int, stop: threading.Event, stats: Stats) -> None:
    junk = {f"k{i:07d}": "x" * 80 for i in range(110_000)}  # about 10 MB
    body = json.dumps({"size": 5, **junk}).encode()
    with client_at(base, 50 + k, 20) as client:
        while not stop.is_set():
            timed(stats, "oversized", client, "POST", "/api/state", content=body,
                  headers={"content-type": "application/json"})  # fmt: skip
            time.sleep(0.2)


def idle_sockets(
    port: int, count: int, stop: threading.Event, stats: Stats, ws_game: str | None = None
) -> None:
    """`count` sockets from 127.0.0.70 that hold a connection and say nothing useful.

    Plain ones (`ws_game` None) send a request head one line every 10 s and never finish it.
    WebSocket ones complete the handshake to `ws_game`'s socket and then go quiet (no hello,
    no ping). A socket the server closed is opened again at the next 10 s tick."""
    import base64
    import socket

    group = "idle" if ws_game is None else "idle-ws"
    if ws_game is None:
        opening = b"GET / HTTP/1.1\r\nHost: localhost\r\n"
    else:
        key = base64.b64encode(os.urandom(16))
        opening = (
            (
                f"GET /api/friends/{ws_game}/ws HTTP/1.1\r\nHost: localhost:{port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                "Sec-WebSocket-Key: "
            ).encode()
            + key
            + b"\r\n\r\n"
        )
    socks: list[socket.socket | None] = [None] * count
    since = [0.0] * count  # when each was opened
    last = 0.0
    while not stop.is_set():
        now = time.monotonic()
        trickle = now - last >= 10
        if trickle:
            last = now
        for i, sock in enumerate(socks):
            if stop.is_set():
                break
            if sock is None:
                if not trickle:  # closed ones are opened again on the next 10 s tick
                    continue
                fresh = socket.socket()
                try:
                    fresh.bind(("127.0.0.70", 0))
                    fresh.settimeout(2)
                    fresh.connect((HOST, port))
                    fresh.sendall(opening)
                    if ws_game is not None:  # the handshake's answer: 101, or a refusal
                        answer = fresh.recv(4096)
                        if not answer.startswith(b"HTTP/1.1 101"):
                            raise ConnectionRefusedError(answer[:12].decode("latin-1"))
                    fresh.setblocking(False)
                    socks[i] = fresh
                    since[i] = time.monotonic()
                    stats.add(group, None, "opened")
                except OSError as exc:
                    stats.add(group, None, f"connect {type(exc).__name__}")
                    fresh.close()
                continue
            try:
                data: bytes | None = sock.recv(4096)
            except BlockingIOError:
                data = None  # open and silent: as the abuser wants
            except OSError:
                data = b""
            if data is not None:  # the server answered (a 503, a close frame) or closed it
                stats.add(group, None, "503" if data.startswith(b"HTTP/1.1 503") else "closed")
                sock.close()
                socks[i] = None
                continue
            if trickle and ws_game is None:
                try:
                    sock.sendall(b"X-Slow: 1\r\n")
                except OSError:
                    sock.close()
                    socks[i] = None
        time.sleep(0.2)
    held = 0
    now = time.monotonic()
    for sock, opened in zip(socks, since, strict=True):
        if sock is None:
            continue
        try:
            sock.recv(4096)
        except BlockingIOError:  # open and unanswered for longer than a head may take
            held += now - opened > 12
        except OSError:
            pass
        sock.close()
    with stats.lock:
        stats.held[group] = held


def idle_process(port: int, count: int, stop: Any, ws_game: str | None, out: Any) -> None:
    """`idle_sockets` in a process of its own (its polling must not slow the normal
    clients' threads here); sends back its outcomes and held count when `stop` is set."""
    import resource

    stats = Stats()
    idle_sockets(port, count, stop, stats, ws_game)
    used = resource.getrusage(resource.RUSAGE_SELF)
    out.send((dict(stats.codes), stats.held, used.ru_utime + used.ru_stime))


def squatter(base: str, k: int, stop: threading.Event, stats: Stats) -> None:
    """One address creating shared games that nobody joins."""
    with client_at_net(base, 1, k, 10) as client:
        while not stop.is_set():
            r = timed(stats, "squat", client, "POST", "/api/friends", json={"size": 3})
            if r is not None and r.status_code == 200:
                stats.made.append(time.monotonic())
            if r is not None and r.status_code == 429:
                time.sleep(1.0)


def creator(base: str, k: int, stop: threading.Event, stats: Stats) -> None:
    """One address creating shared games and resigning each at once, as fast as it can."""
    with client_at_net(base, 2, k, 30) as client:
        while not stop.is_set():
            r = timed(stats, "create", client, "POST", "/api/friends", json={"size": 3})
            if r is None:
                continue
            if r.status_code != 200:
                time.sleep(1.0)
                continue
            stats.made.append(time.monotonic())
            client.post(f"/api/friends/{r.json()['id']}/resign",
                        headers={"Authorization": f"Bearer {r.json()['token']}"})  # fmt: skip


def ws_garbage(port: int, k: int, stop: threading.Event, stats: Stats, game: str) -> None:
    """Open a game's socket from 127.0.0.(90+k), send a bad frame, note the close code."""
    import socket

    from websockets.exceptions import ConnectionClosed, InvalidHandshake
    from websockets.sync.client import connect

    frames: list[str | bytes] = [b"\x00\xffbinary", "[" * 3000, "x" * 5000]
    i = 0
    while not stop.is_set():
        i += 1
        sock = socket.socket()
        try:
            sock.bind((f"127.0.0.{90 + k}", 0))
            sock.connect((HOST, port))
            with connect(f"ws://{HOST}:{port}/api/friends/{game}/ws", sock=sock,
                         open_timeout=5, max_size=None) as ws:  # fmt: skip
                ws.send(frames[i % len(frames)])
                try:
                    ws.recv(timeout=5)
                    stats.add("ws-garbage", None, "answered")
                except ConnectionClosed as exc:
                    code = exc.rcvd.code if exc.rcvd else "none"
                    stats.add("ws-garbage", None, f"closed {code}")
        except (OSError, InvalidHandshake, TimeoutError) as exc:
            stats.add("ws-garbage", None, type(exc).__name__)
        finally:
            sock.close()


def client_at_net(base: str, net: int, n: int, timeout: float) -> httpx.Client:
    """An HTTP client from 127.0.<net>.<n>."""
    transport = httpx.HTTPTransport(local_address=f"127.0.{net}.{n}")
    return httpx.Client(base_url=base, timeout=timeout, transport=transport)


def friend_creator(base: str, stop: threading.Event, stats: Stats) -> None:
    """A normal user creating a shared game every 3 s (resigned at once): does it get one?"""
    with client_at(base, 61, 30) as client:
        while not stop.is_set():
            r = timed(stats, "friend", client, "POST", "/api/friends", json={"size": 3})
            if r is not None and r.status_code == 200:
                token = r.json()["token"]
                client.post(f"/api/friends/{r.json()['id']}/resign",
                            headers={"Authorization": f"Bearer {token}"})  # fmt: skip
            time.sleep(3)


def health_client(base: str, stop: threading.Event, stats: Stats) -> None:
    with client_at(base, 60, 30) as client:
        while not stop.is_set():
            timed(stats, "health", client, "GET", "/api/health")
            time.sleep(0.1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=60.0, help="length of the run (max 120)")
    ap.add_argument("--port", type=int, default=8161, help="loopback port for the server")
    ap.add_argument("--src", type=Path, default=None, help="run the server from this src dir")
    ap.add_argument("--normal", type=int, default=NORMAL, help=f"normal clients ({NORMAL})")
    ap.add_argument("--heavy", type=int, default=HEAVY, help=f"heavy clients ({HEAVY})")
    ap.add_argument("--oversized", type=int, default=OVERSIZED, help=f"({OVERSIZED})")
    ap.add_argument("--idle", type=int, default=0, help="idle sockets from one address (0)")
    ap.add_argument("--idle-ws", type=int, default=0,
                    help="quiet WebSockets from the same address as --idle (0)")  # fmt: skip
    ap.add_argument("--squat", type=int, default=0, help="addresses squatting games (0)")
    ap.add_argument("--ws-garbage", type=int, default=0, help="WebSocket garbage clients (0)")
    ap.add_argument("--creators", type=int, default=0,
                    help="addresses creating and resigning games at once (0)")  # fmt: skip
    ap.add_argument(
        "--file-limit", type=int, default=None, help="the server's soft open-file limit"
    )
    args = ap.parse_args()
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = args.idle + args.idle_ws + 256
    if soft < want:  # the idle sockets' processes inherit it
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))
    normal_n = min(max(args.normal, 0), 25)
    heavy_n = min(max(args.heavy, 0), 5)
    oversized_n = min(max(args.oversized, 0), 2)
    seconds = min(max(args.seconds, 5.0), 120.0)
    base = f"http://{HOST}:{args.port}"
    print(f"machine: {platform.machine()} cpus={os.cpu_count()} python={platform.python_version()}"
          f" server source: {args.src or 'installed package'}")  # fmt: skip
    load_start = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="boardlab-abuse-") as tmp:
        log = Path(tmp) / "server.log"
        proc = start_server(args.port, Path(tmp) / "tables", args.src, log, args.file_limit)
        try:
            warm_up(base, proc.pid)
            game = httpx.post(f"{base}/api/friends", json={"size": 3}).json()["id"]
            log_start = log.stat().st_size
            mem_start = rss_mb(proc.pid)
            main_start = rss_mb(proc.pid, children_too=False)
            stats = Stats()
            stop = threading.Event()
            threads = [threading.Thread(target=normal_client, args=(base, i, stop, stats))
                       for i in range(normal_n)]  # fmt: skip
            threads += [threading.Thread(target=heavy_client, args=(base, k, stop, stats))
                        for k in range(heavy_n)]  # fmt: skip
            threads += [threading.Thread(target=oversized_client, args=(base, k, stop, stats))
                        for k in range(oversized_n)]  # fmt: skip
            threads.append(threading.Thread(target=health_client, args=(base, stop, stats)))
            threads.append(threading.Thread(target=friend_creator, args=(base, stop, stats)))
            # the idle sockets' abusers run in processes of their own, started first (fork)
            forks = multiprocessing.get_context("fork")
            stop_idle = forks.Event()
            idlers: list[tuple[Any, Any]] = []
            quiet = httpx.post(f"{base}/api/friends", json={"size": 3}).json()["id"]
            for count, ws_game in ((args.idle, None), (args.idle_ws, quiet)):
                if count:
                    mine, theirs = forks.Pipe(duplex=False)
                    work = (args.port, count, stop_idle, ws_game, theirs)
                    p = forks.Process(target=idle_process, args=work, daemon=True)
                    p.start()
                    idlers.append((p, mine))
            threads += [threading.Thread(target=squatter, args=(base, 1 + k, stop, stats))
                        for k in range(min(args.squat, 250))]  # fmt: skip
            threads += [threading.Thread(target=creator, args=(base, 1 + k, stop, stats))
                        for k in range(min(args.creators, 100))]  # fmt: skip
            threads += [threading.Thread(target=ws_garbage, args=(args.port, k, stop, stats, game))
                        for k in range(min(args.ws_garbage, 10))]  # fmt: skip
            for t in threads:
                t.daemon = True
                t.start()
            mem_peak = mem_start
            cpu_start = cpu_seconds(proc.pid)
            run_start = time.monotonic()
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                time.sleep(1.0)
                mem_peak = max(mem_peak, rss_mb(proc.pid))
            server_cpu = cpu_seconds(proc.pid) - cpu_start
            stop.set()
            stop_idle.set()
            idle_cpu = 0.0
            for p, pipe in idlers:
                if pipe.poll(35):
                    codes, held, cpu = pipe.recv()
                    idle_cpu += cpu
                    for group, counts in codes.items():
                        stats.codes[group].update(counts)
                    stats.held.update(held)
                p.join(timeout=5)
            for t in threads:
                t.join(timeout=35)
            mem_end = rss_mb(proc.pid)
            time.sleep(5)
            mem_after = rss_mb(proc.pid)
            main_end = rss_mb(proc.pid, children_too=False)
            log_text = log.read_bytes()[log_start:]
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
    normal, health = stats.times["normal"], stats.times["health"]
    ms = 1000.0
    print(f"run: {seconds:.0f} s, {normal_n} normal clients, {heavy_n} heavy, "
          f"{oversized_n} oversized; machine load average {load_start:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after (other programs count too)")  # fmt: skip
    if normal:
        p50, p95 = statistics.median(normal) * ms, percentile(normal, 0.95) * ms
        p99, top = percentile(normal, 0.99) * ms, max(normal) * ms
        print(f"normal play: {len(normal)} answered, p50 {p50:.0f} ms, p95 {p95:.0f} ms, "
              f"p99 {p99:.0f} ms, max {top:.0f} ms")  # fmt: skip
    else:
        print("normal play: no request answered")
    if health:
        h50, h95, htop = statistics.median(health), percentile(health, 0.95), max(health)
        print(f"health: {len(health)} answered, p50 {h50 * ms:.1f} ms, "
              f"p95 {h95 * ms:.1f} ms, max {htop * ms:.1f} ms")  # fmt: skip
    if stats.made:
        first_s, last_s = min(stats.made) - run_start, max(stats.made) - run_start
        print(f"shared games created: {len(stats.made)}, {len(stats.made) / seconds:.1f} a second "
              f"over the run (first at {first_s:.1f} s, last at {last_s:.1f} s)")  # fmt: skip
    for group in ("friend", "create", "squat"):
        if stats.times[group]:
            t = stats.times[group]
            print(f"{group} answers: p50 {statistics.median(t) * ms:.0f} ms, "
                  f"p95 {percentile(t, 0.95) * ms:.0f} ms, max {max(t) * ms:.0f} ms")  # fmt: skip
    for group in ("normal", "heavy", "oversized", "health", "friend", "idle", "idle-ws",
                  "squat", "create", "ws-garbage"):  # fmt: skip
        if group not in stats.codes:
            continue
        codes = dict(sorted(stats.codes[group].items()))
        print(f"{group} outcomes: {codes}")
    bad = sum(n for code, n in stats.codes["normal"].items() if code not in ("200", "game over"))
    print(f"normal-play errors: {bad}")
    print(f"server process processor time during the run: {server_cpu:.1f} s")
    if idlers:
        print(f"the idle sockets' own processes used {idle_cpu:.1f} s of processor time")
    for group, held in sorted(stats.held.items()):
        print(f"{group} sockets open and unanswered for over 12 s at the end: {held}")
    tracebacks = log_text.count(b"Traceback")
    print(f"server log during the run: {len(log_text):,} bytes, {tracebacks} tracebacks, "
          f"{log_text.count(b'refused')} refusal lines")  # fmt: skip
    print(f"server memory: start {mem_start:.0f} MB, peak {mem_peak:.0f} MB, "
          f"end {mem_end:.0f} MB, 5 s after {mem_after:.0f} MB (with worker processes); "
          f"server process alone {main_start:.0f} -> {main_end:.0f} MB")  # fmt: skip


if __name__ == "__main__":
    main()
