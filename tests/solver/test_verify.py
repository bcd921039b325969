"""`boardlab verify`: the independent checker against a plain reference, each named error
planted in a small table, resume, and bad input (one line, exit 2, nothing changed)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boardlab.cli.main import main
from boardlab.core.checks import BAD_CHILD
from boardlab.games.dodgem.rules import DodgemRules, rules_for
from boardlab.games.dodgem.tiers import DodgemTiers, tiers_for
from boardlab.games.dodgem.verify_rules import TILE, checker_for
from boardlab.solver.api import build_table, table_path
from boardlab.solver.folder import pack_path
from boardlab.solver.packsolve import solve_in_memory
from boardlab.solver.plan import make_plan
from boardlab.solver.tierfile import MAGIC, PackFile, write_pack
from boardlab.solver.verify import RECORD, MovesChecker, verify_table

Capture = pytest.CaptureFixture[str]
VARIANTS = ("classic", "blocked-loses", "misere", "piecepack")


def run(capsys: Capture, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def reference_derive(
    rules: DodgemRules, game: DodgemTiers, tier: int, codes: dict[int, np.ndarray]
) -> np.ndarray:
    """What each entry of `tier` must hold, through the Python rules object one position at a
    time (the slow, obvious reference of the compiled checker)."""
    out = np.zeros(game.tier_size(tier), np.int64)
    for i in range(len(out)):
        pos = game.position(tier, i)
        if pos is None:
            continue
        end = rules.outcome(pos)
        if end is not None:
            out[i] = 2 if end.value_for(pos.to_move).value == "win" else 3
            continue
        kids = [
            int(codes[t][j])
            for t, j in (game.locate(rules.play(pos, m)) for m in rules.legal_moves(pos))
        ]
        if 0 in kids:
            out[i] = BAD_CHILD
        elif any(c >= 3 and c & 1 for c in kids):
            out[i] = 2 + 2 * (min((c - 3) // 2 for c in kids if c >= 3 and c & 1) + 1)
        elif 1 in kids:
            out[i] = 1
        else:
            out[i] = 3 + 2 * (max((c - 2) // 2 for c in kids) + 1)
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_checker_agrees_with_the_rules_object_on_damaged_tables(variant: str) -> None:
    """Random damage (wrong codes, invalid entries) in a solved 3×3 table: the compiled
    checker derives exactly what the rules object does, entry by entry, and derives the
    solved table itself unchanged."""
    rules = rules_for(variant, 3)
    game = tiers_for(rules)
    assert game is not None
    checker = checker_for(rules)
    assert checker is not None and checker.independent
    solved = solve_in_memory(game)
    rng = np.random.default_rng(7)
    damaged = {}
    for t, c in solved.items():
        d = c.copy()
        hit = rng.random(len(d)) < 0.05
        d[hit] = rng.integers(0, 40, int(hit.sum()))
        damaged[t] = d
    for codes in (solved, damaged):
        for t in sorted(codes):
            assert sorted(checker.child_tiers(t)) == sorted(game.child_tiers(t))
            kids = [codes[c] for c in checker.child_tiers(t)]
            got = checker.derive(t, codes[t], kids)
            want = reference_derive(rules, game, t, codes)
            valid = np.array([game.position(t, i) is not None for i in range(len(got))])
            assert np.array_equal(got[valid], want[valid]), (variant, t)
            assert np.all(got[~valid] == 0)
            if codes is solved:
                assert np.array_equal(got, codes[t])


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_adapter_moves_check_agrees_on_4x4(variant: str) -> None:
    """On the largest 4×4 tier, whose placements fill more than one band of the checker's
    second-side pass, the compiled rules and the adapter's moves derive the same codes."""
    rules = rules_for(variant, 4)
    game = tiers_for(rules)
    assert game is not None
    checker, by_moves = checker_for(rules), MovesChecker(game)
    assert checker is not None
    codes = solve_in_memory(game)
    t = max(codes, key=lambda k: len(codes[k]))
    assert max(checker.board.key_size[k] for k in divmod(t, checker.board.keys)) > TILE
    broken = codes[t].copy()
    broken[np.flatnonzero(broken)[::50]] = 1
    for tier_codes in (codes[t], broken):
        kids = [codes[c] for c in game.child_tiers(t)]
        mine = checker.derive(t, tier_codes, [codes[c] for c in checker.child_tiers(t)])
        assert np.array_equal(mine, by_moves.derive(t, tier_codes, kids))


# -- planted errors ---------------------------------------------------------------------------


@pytest.fixture
def table3(tmp_path: Path) -> Path:
    build_table(rules_for("classic", 3), tmp_path)
    return table_path(rules_for("classic", 3), tmp_path)


def plant(folder: Path, position: str, code: int) -> tuple[int, int]:
    """Rewrite the pack holding `position` with `code` at its entry (checksums made right)."""
    rules = rules_for("classic", 3)
    game = tiers_for(rules)
    assert game is not None
    tier, index = game.locate(rules.parse_position(position))
    plan = make_plan(game)
    name = plan.pack_of[tier]
    pf = PackFile(pack_path(folder, name), "x")
    tiers = []
    for t in sorted(pf.tiers):
        codes = pf.tier_codes(t)
        if t == tier:
            codes[index] = code
        tiers.append((t, codes))
    header = {k: v for k, v in pf.header.items() if k in ("ruleset", "pack", "level", "layout")}
    header.update({k: v for k, v in pf.header.items() if k in ("win", "loss", "draw", "invalid")})
    pf.close()
    write_pack(pack_path(folder, name), tiers, header)
    return tier, index


def stored(folder: Path, position: str) -> int:
    rules = rules_for("classic", 3)
    game = tiers_for(rules)
    assert game is not None
    tier, index = game.locate(rules.parse_position(position))
    pf = PackFile(pack_path(folder, make_plan(game).pack_of[tier]), "x")
    try:
        return pf.code(tier, index)
    finally:
        pf.close()


def verify_json(capsys: Capture, folder: Path, *extra: str) -> tuple[int, dict[str, Any]]:
    status, out, _ = run(
        capsys, "verify", "--size", "3", "--tables", str(folder.parent), "--json", *extra
    )
    return status, json.loads(out)


def test_a_sound_table_passes(table3: Path, capsys: Capture) -> None:
    status, data = verify_json(capsys, table3)
    assert status == 0 and data["failures"] == 0 and data["complete"]
    assert data["independent"] and data["entries"] == 2414 and data["sampled"] == 1000


START = "B2/B2/1RR b"  # a first-player win in 19


def test_a_remoteness_off_by_k_is_named(table3: Path, capsys: Capture) -> None:
    assert stored(table3, START) == 2 + 2 * 19
    plant(table3, START, 2 + 2 * 17)
    status, data = verify_json(capsys, table3, "--sample", "0")
    assert status == 1 and data["errors"].get("remoteness off", 0) >= 1
    line = next(x for x in data["findings"] if START in x)
    assert line.startswith("remoteness off by 2:") and "stored a win in 17" in line
    assert "a win in 19" in line


def test_a_contradicted_value_is_named(table3: Path, capsys: Capture) -> None:
    plant(table3, START, 3 + 2 * 19)  # a loss where it is a win
    status, data = verify_json(capsys, table3, "--sample", "0")
    assert status == 1 and data["errors"].get("value contradicted", 0) >= 1
    line = next(x for x in data["findings"] if START in x)
    assert line.startswith("value contradicted:") and "stored a loss in 19" in line


def test_a_drawn_entry_that_is_decided_is_named(table3: Path, capsys: Capture) -> None:
    plant(table3, START, 1)
    status, data = verify_json(capsys, table3, "--sample", "0")
    assert status == 1
    line = next(x for x in data["findings"] if START in x)
    assert line.startswith("value contradicted:") and "stored a draw" in line


def test_an_entry_stored_as_no_position_is_named(table3: Path, capsys: Capture) -> None:
    plant(table3, START, 0)
    status, data = verify_json(capsys, table3, "--sample", "0")
    assert status == 1
    assert data["errors"].get("entry missing") == 1
    assert data["errors"].get("child entry invalid", 0) >= 0
    assert any(x.startswith("entry missing:") and START in x for x in data["findings"])


def test_text_output_names_each_finding(table3: Path, capsys: Capture) -> None:
    plant(table3, START, 2 + 2 * 21)
    status, out, _ = run(capsys, "verify", "--size", "3", "--tables", str(table3.parent))
    assert status == 1
    assert "remoteness off by 2:" in out and "disagreements:" in out


# -- bad input: one line, exit 2, nothing changed ----------------------------------------------


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def refused(capsys: Capture, folder: Path, says: str, variant: str = "classic") -> None:
    before = snapshot(folder.parent)
    status, _, err = run(
        capsys, "verify", "--size", "3", "--variant", variant, "--tables", str(folder.parent)
    )
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1 and says in lines[0], err
    assert snapshot(folder.parent) == before
    assert not (folder / RECORD).exists()


def test_a_pack_that_fails_its_checksum(table3: Path, capsys: Capture) -> None:
    path = sorted((table3 / "packs").glob("*.bltier"))[3]
    data = bytearray(path.read_bytes())
    data[-5] ^= 0xFF
    path.write_bytes(bytes(data))
    refused(capsys, table3, "pack fails its checksum:")


def test_a_missing_child_tier(table3: Path, capsys: Capture) -> None:
    sorted((table3 / "packs").glob("*.bltier"))[2].unlink()
    refused(capsys, table3, "child tier missing: pack")


def test_a_table_of_another_ruleset(table3: Path, capsys: Capture) -> None:
    other = table_path(rules_for("misere", 3), table3.parent)
    shutil.copytree(table3, other)
    refused(capsys, other, "foreign table:", variant="misere")


def test_a_pack_of_another_format_version(table3: Path, capsys: Capture) -> None:
    path = sorted((table3 / "packs").glob("*.bltier"))[1]
    data = path.read_bytes()
    (hlen,) = struct.unpack_from("<I", data, len(MAGIC))
    start = len(MAGIC) + 4
    header = json.loads(data[start : start + hlen])
    header["format_version"] = 1
    text = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    rest = data[start + hlen + 4 :]
    path.write_bytes(
        MAGIC + struct.pack("<I", len(text)) + text + struct.pack("<I", zlib.crc32(text)) + rest
    )
    refused(capsys, table3, "foreign format:")


def test_no_table(tmp_path: Path, capsys: Capture) -> None:
    status, _, err = run(capsys, "verify", "--size", "3", "--tables", str(tmp_path))
    assert status == 2 and "no complete tables" in err and "boardlab solve" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("fraction", ["0", "-0.5", "1.5", "nan"])
def test_fraction_must_be_a_share(tmp_path: Path, capsys: Capture, fraction: str) -> None:
    status, _, err = run(
        capsys, "verify", "--size", "3", "--tables", str(tmp_path), "--fraction", fraction
    )
    assert status == 2 and "--fraction" in err


# -- resume -----------------------------------------------------------------------------------


class Stop(Exception):
    pass


def test_a_stopped_verification_resumes_to_the_same_verdict(tmp_path: Path) -> None:
    rules = rules_for("classic", 4)
    build_table(rules, tmp_path)
    folder = table_path(rules, tmp_path)
    game = tiers_for(rules)
    checker = checker_for(rules)
    assert game is not None and checker is not None
    plan = make_plan(game)
    # plant a wrong remoteness in a pack halfway through the plan
    victim = plan.packs[len(plan.packs) // 2]
    pf = PackFile(pack_path(folder, victim.name), "x")
    tiers = []
    planted = False
    for t in sorted(pf.tiers):
        codes = pf.tier_codes(t)
        decided = np.flatnonzero(codes >= 4)
        if not planted and len(decided):
            codes[decided[0]] += 2
            planted = True
        tiers.append((t, codes))
    assert planted
    header = {k: pf.header[k] for k in ("ruleset", "pack", "level")}
    pf.close()
    write_pack(pack_path(folder, victim.name), tiers, header)
    whole = verify_table(game, checker, folder, fresh=True)
    assert not whole.ok and whole.resumed == 0
    (folder / RECORD).unlink()

    seen = []

    def stop_after_five(level: int, done: int, packs: int, positions: int, total: int) -> None:
        seen.append(done)
        if done >= 5:
            raise Stop

    with pytest.raises(Stop):
        verify_table(game, checker, folder, on_progress=stop_after_five)
    record = json.loads((folder / RECORD).read_text())
    assert len(record["packs"]) == 5
    again = verify_table(game, checker, folder)
    assert again.resumed == 5 and again.packs == len(plan.packs)
    assert again.errors == whole.errors and again.findings == whole.findings
    # all from the record now; a pack rewritten (its bytes changed) is checked again
    third = verify_table(game, checker, folder)
    assert third.resumed == len(plan.packs) and third.errors == whole.errors
    shutil.copy(pack_path(folder, victim.name), tmp_path / "keep")
    build_table(rules, tmp_path / "fresh")
    shutil.copy(
        pack_path(table_path(rules, tmp_path / "fresh"), victim.name),
        pack_path(folder, victim.name),
    )
    healed = verify_table(game, checker, folder)
    assert healed.ok and healed.resumed < len(plan.packs)


def verifying(size: int, tables: Path, on_sigint: Any) -> subprocess.Popen[str]:
    """`boardlab verify` of classic SIZE on two threads, started in a group of its own, as a
    terminal starts a command (Ctrl-C handled: SIG_DFL) or a shell a background job (Ctrl-C
    ignored: SIG_IGN); its progress lines readable from `stderr`."""
    cmd = [sys.executable, "-m", "boardlab", "verify", "--size", str(size), "--workers", "2"]
    proc = subprocess.Popen(
        [*cmd, "--tables", str(tables)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, on_sigint),
    )
    assert proc.stderr is not None
    return proc


def stopped_cleanly(proc: subprocess.Popen[str], folder: Path) -> None:
    """The stopped verification said "interrupted" and exited 130, leaving no process of its
    group and no temporary file beside the tables."""
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1] == "interrupted"
    with pytest.raises(ProcessLookupError):
        os.killpg(proc.pid, 0)
    assert not list(folder.glob(".*"))


def test_ctrl_c_leaves_no_process_and_no_half_written_file(tmp_path: Path) -> None:
    """SIGINT to the process group during a verification on two threads: exit 130, no
    process left, no temporary file, and the record (if any) whole."""
    rules = rules_for("classic", 4)
    build_table(rules, tmp_path)
    folder = table_path(rules, tmp_path)
    proc = verifying(4, tmp_path, signal.SIG_DFL)
    first = proc.stderr.readline()  # the first progress line: the check has begun
    assert "packs" in first
    os.killpg(proc.pid, signal.SIGINT)
    stopped_cleanly(proc, folder)
    if (folder / RECORD).exists():
        json.loads((folder / RECORD).read_text())


@pytest.mark.slow
def test_sigterm_ends_a_verification_and_keeps_what_it_checked(tmp_path: Path) -> None:
    """SIGTERM (`kill`, a service manager) during a 5×5 verification on two threads, started
    as a shell starts a background job (Ctrl-C ignored): it ends as Ctrl-C would, with no
    process and no temporary file left, and its record holds every pack the progress had
    counted, so a rerun goes on from there to the verdict of a whole run."""
    rules = rules_for("classic", 5)
    build_table(rules, tmp_path, 2)
    folder = table_path(rules, tmp_path)
    proc = verifying(5, tmp_path, signal.SIG_IGN)
    counted = 0
    while counted < 30:  # well into the check, far from its end
        line = proc.stderr.readline()
        assert line, "the verification ended before it was stopped"
        counted = int(line.split(" packs")[0].split()[-1].split("/")[0])
    os.kill(proc.pid, signal.SIGTERM)
    stopped_cleanly(proc, folder)
    packs = len(make_plan(DodgemTiers(rules)).packs)
    kept = len(json.loads((folder / RECORD).read_text())["packs"])
    assert counted <= kept < packs
    game, checker = tiers_for(rules), checker_for(rules)
    assert game is not None and checker is not None
    rest = verify_table(game, checker, folder)
    assert rest.ok and rest.resumed == kept and rest.packs == packs


def test_the_local_cluster_listens_on_this_machine_only() -> None:
    import psutil

    from boardlab.solver.cluster import connect, disconnect

    me = psutil.Process(os.getpid())
    before = {c.laddr for c in me.net_connections() if c.status == psutil.CONN_LISTEN}
    client, cluster, _ = connect(2, None)
    try:
        opened = [
            c.laddr
            for c in me.net_connections()
            if c.status == psutil.CONN_LISTEN and c.laddr not in before
        ]
        assert opened and all(addr.ip == "127.0.0.1" for addr in opened), opened
        assert str(client.dashboard_link).startswith("http://127.0.0.1:")
    finally:
        disconnect(client, cluster)


def test_a_fraction_checks_a_share_of_the_packs(table3: Path, capsys: Capture) -> None:
    status, data = verify_json(capsys, table3, "--fraction", "0.5", "--sample", "0")
    assert status == 0 and not data["complete"]
    assert data["packs"] == data["packs_total"] // 2 > 0
    assert data["packs_total"] == len(list((table3 / "packs").glob("*.bltier")))
    status, data = verify_json(capsys, table3, "--sample", "0")
    assert status == 0 and data["complete"] and 0 < data["packs_from_record"] < data["packs"]
