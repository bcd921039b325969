"""Install a table from a folder or a static HTTP server, checked before it is used.

A table travels as its folder: `manifest.json`, `packs/*.bltier`, and beside them the
`digest.json` that `boardlab tables digest` writes. An install

1. reads the manifest and finds the ruleset among the games' solver adapters (a table of
   rules this BoardLab does not know, or whose layout or packs differ from what it plans for
   them, is refused: nothing is imported from the manifest);
2. fetches every pack into a staging folder beside the tables (`.install-<ruleset>`), over
   HTTP with `Range` requests so that a cut download goes on where it stopped, within this run
   (a few retries) or the next one;
3. checks each pack (header, length, ruleset, tiers, payload SHA-256) as it arrives, then
   the table's digest against what the source declares (its digest.json), what the user
   gives (`--digest`) and what BoardLab publishes (`boardlab.solver.published`): at least
   one of them must be known, and all known ones must agree;
4. renames the staging folder into place: the table appears whole or not at all.

A damaged or foreign table is refused in one line and its staging folder removed; a cut
download keeps what it fetched for the next run.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Protocol

from boardlab.core.errors import BoardLabError, CorruptTableError
from boardlab.core.registry import games
from boardlab.core.tiers import TierGame
from boardlab.solver.digest import (
    RECORD,
    TableDigest,
    check_manifest,
    is_sha256,
    plan_packs,
    table_digest,
    write_record,
)
from boardlab.solver.folder import MANIFEST, pack_path, write_manifest
from boardlab.solver.published import PUBLISHED
from boardlab.solver.tierfile import SUFFIX, PackFile

CHUNK = 1 << 20
RETRIES = 5  # attempts per file over HTTP before the install stops (a later run resumes)
TIMEOUT = 30.0  # seconds without a byte before a connection counts as cut
MAX_MANIFEST = 64 << 20


class InstallError(BoardLabError):
    """An install that cannot go on: an unreachable source, a cut download (what was fetched
    is kept), or a damaged or foreign table (nothing is kept)."""


class DownloadCut(InstallError):
    """The source stopped sending before a file was whole; running again resumes."""


Progress = Callable[[int, int], None]  # bytes fetched, bytes of the table


class Source(Protocol):
    """Where a table comes from."""

    name: str

    def read(self, rel: str, limit: int) -> bytes | None:
        """A small file of the table (None when the source has none)."""

    def fetch(self, rel: str, dest: Path, limit: int, on_bytes: Callable[[int], None]) -> None:
        """Append the rest of file `rel` to `dest` (resuming after its current length)."""


class FolderSource:
    """A table folder on this machine (or a mounted share)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.name = str(path)

    def read(self, rel: str, limit: int) -> bytes | None:
        """A small file of the table (None when the source has none)."""
        target = self.path / rel
        try:
            if target.stat().st_size > limit:
                raise InstallError(f"{target}: too large for a table's {rel}")
            return target.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise InstallError(f"{target}: cannot be read ({exc.strerror})") from None

    def fetch(self, rel: str, dest: Path, limit: int, on_bytes: Callable[[int], None]) -> None:
        """Copy the rest of file `rel` to `dest`."""
        target = self.path / rel
        try:
            with open(target, "rb") as src, open(dest, "ab") as out:
                src.seek(out.tell())
                _copy(src, out, limit, on_bytes, target)
        except FileNotFoundError:
            raise CorruptTableError(f"{self.name}: {rel} is missing") from None
        except OSError as exc:
            raise InstallError(f"{target}: cannot be read ({exc.strerror})") from None


def _copy(
    src: BinaryIO, out: BinaryIO, limit: int, on_bytes: Callable[[int], None], where: Any
) -> None:
    while True:
        chunk = src.read(CHUNK)
        if not chunk:
            return
        if out.tell() + len(chunk) > limit:
            raise CorruptTableError(f"{where}: larger than the whole table")
        out.write(chunk)
        on_bytes(len(chunk))


class HttpSource:
    """A table on a plain static HTTP(S) server: `<url>/manifest.json`, `<url>/packs/...`."""

    def __init__(self, url: str) -> None:
        self.base = url.rstrip("/") + "/"
        self.name = url

    def _url(self, rel: str) -> str:
        return urllib.parse.urljoin(self.base, urllib.parse.quote(rel))

    def _open(self, url: str, offset: int) -> Any:
        headers = {"User-Agent": "boardlab-tables-install"}
        if offset:
            headers["Range"] = f"bytes={offset}-"
        request = urllib.request.Request(url, headers=headers)
        try:
            return urllib.request.urlopen(request, timeout=TIMEOUT)
        except urllib.error.HTTPError as exc:
            exc.close()
            raise
        except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
            why = getattr(exc, "reason", None) or exc
            raise DownloadCut(f"{url}: cannot be reached ({why})") from None

    def read(self, rel: str, limit: int) -> bytes | None:
        """A small file of the table (None on HTTP 404)."""
        url = self._url(rel)
        last: InstallError | None = None
        for attempt in range(RETRIES):
            try:
                with self._open(url, 0) as resp:
                    data: bytes = resp.read(limit + 1)
                if len(data) > limit:
                    raise InstallError(f"{url}: too large for a table's {rel}")
                return data
            except urllib.error.HTTPError as exc:
                if exc.code == 404:
                    return None
                raise InstallError(f"{url}: HTTP {exc.code} {exc.reason}") from None
            except (OSError, http.client.HTTPException) as exc:
                last = DownloadCut(f"{url}: the connection broke ({exc})")
            except DownloadCut as exc:
                last = exc
            _pause(attempt)
        assert last is not None
        raise last

    def fetch(self, rel: str, dest: Path, limit: int, on_bytes: Callable[[int], None]) -> None:
        """Download the rest of `rel` into `dest` with Range requests, retrying a cut
        connection from where it stopped."""
        url = self._url(rel)
        last: InstallError | None = None
        for attempt in range(RETRIES):
            have = dest.stat().st_size if dest.exists() else 0
            try:
                self._get(url, dest, have, limit, on_bytes)
                return
            except urllib.error.HTTPError as exc:
                if exc.code == 416 and have:  # nothing left past what we have: whole
                    return
                if exc.code == 404:
                    raise CorruptTableError(f"{self.name}: {rel} is missing (HTTP 404)") from None
                raise InstallError(f"{url}: HTTP {exc.code} {exc.reason}") from None
            except (OSError, http.client.HTTPException) as exc:
                last = DownloadCut(f"{url}: the connection broke ({exc or type(exc).__name__})")
            except DownloadCut as exc:
                last = exc
            _pause(attempt)
        assert last is not None
        raise last

    def _get(
        self, url: str, dest: Path, have: int, limit: int, on_bytes: Callable[[int], None]
    ) -> None:
        with self._open(url, have) as resp:
            status = int(resp.status)
            if have and status == 200:  # the server ignores Range: start again
                have = 0
            elif have and status == 206:
                start = _range_start(resp.headers.get("Content-Range", ""))
                if start != have:
                    raise InstallError(f"{url}: the server sent the wrong part of the file")
            length = resp.headers.get("Content-Length")
            expect = int(length) if length and length.isdigit() else None
            got = 0
            with open(dest, "r+b" if have else "wb") as out:
                out.seek(have)
                out.truncate()
                while True:
                    chunk = resp.read(CHUNK)
                    if not chunk:
                        break
                    if have + got + len(chunk) > limit:
                        raise CorruptTableError(f"{url}: larger than the whole table")
                    out.write(chunk)
                    got += len(chunk)
                    on_bytes(len(chunk))
            if expect is not None and got < expect:
                raise DownloadCut(f"{url}: the connection broke after {have + got:,} bytes")


def _range_start(text: str) -> int | None:
    """The first byte of `Content-Range: bytes a-b/n`."""
    try:
        unit, rest = text.split(" ", 1)
        return int(rest.split("-", 1)[0]) if unit == "bytes" else None
    except ValueError:
        return None


def _pause(attempt: int) -> None:
    time.sleep(min(2.0, 0.1 * 2**attempt))


def open_source(text: str) -> Source:
    """The source named on the command line: an http(s) URL or a folder."""
    scheme = urllib.parse.urlsplit(text).scheme.lower()
    if scheme in ("http", "https"):
        return HttpSource(text)
    if scheme and len(scheme) > 1:
        raise InstallError(f"{text}: only folders and http(s):// URLs are supported")
    path = Path(text).expanduser()
    if not path.is_dir():
        raise InstallError(f"{path}: no such folder")
    return FolderSource(path)


@dataclass(frozen=True)
class Installed:
    """What an install did."""

    path: Path
    digest: TableDigest
    bytes: int
    fetched: int  # bytes fetched in this run (less than `bytes` when it resumed)
    seconds: float
    checked_against: tuple[str, ...]


def find_adapter(ruleset: str) -> TierGame | None:
    """The solver adapter of a ruleset id among the registered games' variants and sizes."""
    for info in games().values():
        if info.solver_adapter is None:
            continue
        for v in info.variants:
            for n in v.sizes:
                view = info.solver_adapter(info.rules(v.name, n))
                if view is not None and view.ruleset_id == ruleset:
                    return view
    return None


def read_source_manifest(source: Source) -> dict[str, Any]:
    """The source's manifest, parsed; InstallError when it has none or it is unreadable."""
    raw = source.read(MANIFEST, MAX_MANIFEST)
    if raw is None:
        inside = []
        if isinstance(source, FolderSource):  # a tables folder: name the tables in it
            inside = sorted(p.parent.name for p in source.path.glob(f"*/{MANIFEST}"))
        hint = f"; it holds the tables {', '.join(inside[:6])}: give one's folder" if inside else ""
        raise InstallError(f"{source.name}: no table there (no {MANIFEST}){hint}")
    try:
        data = json.loads(raw)
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise CorruptTableError(f"{source.name}: its {MANIFEST} is not a table's manifest")
    return data


def expected_digests(
    source: Source, ruleset: str, given: str | None
) -> tuple[str | None, tuple[str, ...]]:
    """The one digest the table must have and who said so; InstallError when they disagree."""
    said: dict[str, str] = {}
    if given is not None:
        if not is_sha256(given.lower()):
            raise InstallError(f"--digest {given}: not a SHA-256 (64 hexadecimal digits)")
        said["--digest"] = given.lower()
    raw = source.read(RECORD, 1 << 16)
    if raw is not None:
        try:
            record = json.loads(raw)
            if record["ruleset"] != ruleset:
                raise CorruptTableError(
                    f"{source.name}: its {RECORD} is for {record['ruleset']!s:.80}, not {ruleset}"
                )
            declared = str(record["sha256"])
        except (ValueError, KeyError, TypeError):
            raise CorruptTableError(f"{source.name}: its {RECORD} is unreadable") from None
        said[f"the source's {RECORD}"] = declared
    if ruleset in PUBLISHED:
        said["the published digest"] = PUBLISHED[ruleset]
    values = set(said.values())
    if len(values) > 1:
        parts = ", ".join(f"{who} {d[:12]}…" for who, d in said.items())
        raise CorruptTableError(f"{source.name}: the digests disagree ({parts})")
    return (values.pop() if values else None), tuple(said)


def install(
    source: Source,
    tables: Path,
    expect_ruleset: str | None = None,
    digest: str | None = None,
    force: bool = False,
    on_bytes: Progress | None = None,
    on_check: Progress | None = None,
    jobs: int | None = None,
) -> Installed:
    """Install the table at `source` into the folder `tables` (see the module docstring)."""
    t0 = time.perf_counter()
    manifest = read_source_manifest(source)
    ruleset = str(manifest.get("ruleset", ""))[:200]
    if expect_ruleset is not None and ruleset != expect_ruleset:
        raise CorruptTableError(f"{source.name}: holds {ruleset or '?'}, not {expect_ruleset}")
    game = find_adapter(ruleset)
    if game is None:
        raise CorruptTableError(
            f"{source.name}: holds {ruleset or 'an unnamed table'}, which this BoardLab has no "
            "solver for"
        )
    order = plan_packs(game)
    check_manifest(game, Path(source.name), manifest, order)
    total = manifest.get("bytes")
    if not isinstance(total, int) or isinstance(total, bool) or total <= 0:
        raise CorruptTableError(f"{source.name}: its {MANIFEST} gives no size")
    want, who = expected_digests(source, ruleset, digest)
    if want is None:
        raise InstallError(
            f"{source.name}: no digest to check {ruleset} against: give --digest, or put the "
            f"{RECORD} of `boardlab tables digest` beside its manifest"
        )
    dest = tables / ruleset
    from boardlab.solver.folder import read_manifest

    present = read_manifest(dest)
    if present is not None and present.get("complete") and not force:
        raise InstallError(f"{dest}: a table is installed there; add --force to replace it")
    stage = tables / f".install-{ruleset}"
    (stage / "packs").mkdir(parents=True, exist_ok=True)
    hint = f"boardlab tables install {source.name}"
    fetched = 0
    done_bytes = 0

    def count(n: int) -> None:
        nonlocal fetched, done_bytes
        fetched += n
        done_bytes += n
        if on_bytes is not None:
            on_bytes(done_bytes, total)

    try:
        for name, tiers in order:
            final = pack_path(stage, name)
            if final.exists() and _sound(final, ruleset, name, tiers, hint):
                done_bytes += final.stat().st_size
                continue
            part = final.with_name(final.name + ".part")
            rel = f"packs/{name}{SUFFIX}"
            resumed = part.exists() and part.stat().st_size > 0
            before = part.stat().st_size if part.exists() else 0
            done_bytes += before
            source.fetch(rel, part, total, count)
            if not _sound(part, ruleset, name, tiers, hint):
                if not resumed:
                    raise CorruptTableError(f"{source.name}: pack {name} is damaged")
                done_bytes -= part.stat().st_size  # a stale partial file: fetch it whole
                part.unlink()
                source.fetch(rel, part, total, count)
                if not _sound(part, ruleset, name, tiers, hint):
                    raise CorruptTableError(f"{source.name}: pack {name} is damaged")
            os.replace(part, final)
        write_manifest(stage, manifest)
        got = table_digest(game, stage, jobs, on_check, order)
        if got.sha256 != want:
            raise CorruptTableError(
                f"{source.name}: its digest {got.sha256[:12]}… is not {want[:12]}… "
                f"({' and '.join(who)}): not the table it claims to be"
            )
        write_record(stage, got)
        _put_in_place(stage, dest)
    except (CorruptTableError, InstallError) as exc:
        if not isinstance(exc, DownloadCut):
            shutil.rmtree(stage, ignore_errors=True)
        if isinstance(exc, DownloadCut):
            raise DownloadCut(f"{exc}; run the same command again to resume") from None
        raise
    size = sum(p.stat().st_size for p in (dest / "packs").iterdir())
    return Installed(dest, got, size, fetched, time.perf_counter() - t0, who)


def _sound(path: Path, ruleset: str, name: str, tiers: tuple[int, ...], hint: str) -> bool:
    """True when a fetched pack file is whole and is the pack it should be (header, length,
    block table and payload SHA-256 checked)."""
    try:
        pf = PackFile(path, hint)
    except CorruptTableError:
        return False
    try:
        head = pf.header
        if head.get("ruleset") != ruleset or head.get("pack") != name:
            return False
        if sorted(pf.tiers) != sorted(tiers):
            return False
        pf.check()
        return True
    except CorruptTableError:
        return False
    finally:
        pf.close()


def _put_in_place(stage: Path, dest: Path) -> None:
    """Rename the staging folder to `dest`; an older table there is moved aside first and
    removed after."""
    old = None
    if dest.exists():
        old = dest.with_name(f".remove-{dest.name}-{os.getpid()}")
        os.replace(dest, old)
    os.replace(stage, dest)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def remove(tables: Path, ruleset: str) -> Path:
    """Remove the table of a ruleset (renamed aside first, so that a reader sees it whole or
    not at all); InstallError when there is none."""
    dest = tables / ruleset
    if not dest.is_dir():
        raise InstallError(f"no table of {ruleset} in {tables}")
    old = dest.with_name(f".remove-{dest.name}-{os.getpid()}")
    os.replace(dest, old)
    shutil.rmtree(old)
    return dest


__all__ = [
    "DownloadCut",
    "FolderSource",
    "HttpSource",
    "InstallError",
    "Installed",
    "check_manifest",
    "find_adapter",
    "install",
    "open_source",
    "remove",
]
