"""Games declare themselves (`GameInfo`): shared code outside `games/<game>/` and
`ai/<game>/` does not name a game in its strings, so a new game touches no shared file. A few
files still name the default game or a game in help text; they may only name fewer."""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "boardlab"
NAMES = re.compile(r"(?i)\b(dodgem|dotdash|dot dash)\b")
OWN = ("games/", "ai/dodgem/", "ai/dotdash/")
# the default game of a command, a request or an untagged record, and help texts
STILL_NAMING = {
    "cli/common.py": 1,
    "cli/league.py": 1,
    "cli/play.py": 1,
    "core/records.py": 1,
    "integrations/pettingzoo.py": 1,
    "solver/api.py": 1,
    "web/app.py": 1,
    "web/friends/schemas.py": 1,
    "web/learn.py": 2,
    "web/routes.py": 2,
    "web/schemas.py": 3,
}


def quoted_names(path: Path) -> list[int]:
    """Lines of the string constants that name a game (documentation aside: a string that
    stands alone as a statement)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}
    return [
        n.lineno
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant)
        and isinstance(n.value, str)
        and id(n) not in docs
        and NAMES.search(n.value)
    ]


def test_shared_code_names_no_game() -> None:
    found = {}
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith(OWN):
            continue
        lines = quoted_names(path)
        if len(lines) > STILL_NAMING.get(rel, 0):
            found[rel] = lines
    assert not found, f"a game named in shared code (declare it in GameInfo instead): {found}"


def test_the_files_that_asked_games_by_name_now_read_their_declarations() -> None:
    for rel in (
        "integrations/codec.py",
        "integrations/track.py",
        "web/service.py",
        "web/warmup.py",
        "ai/base.py",
        "ai/levels.py",
        "ai/ladder.py",
    ):
        assert quoted_names(SRC / rel) == [], rel
    assert not (SRC / "web" / "facts.py").exists()


def test_the_scan_sees_a_quoted_name(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text('"""Dodgem in a docstring is prose."""\nGAME = "dotdash"\nX = f"{1} Dot Dash"\n')
    assert quoted_names(bad) == [2, 3]


JS = SRC / "web" / "static" / "js"
JS_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|`(?:[^`\\]|\\.)*`')
# the front end's help texts and translations name the games in prose; the store's defaults
# name the default game; each game's own renderer is boards/<renderer>.js
JS_STILL_NAMING = {"help.js": 5, "i18n.js": 8, "state.js": 2}


def js_quoted_names(text: str) -> int:
    """How many string literals of a JavaScript module name a game (comments aside)."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = "\n".join(re.sub(r"(^|\s)//.*$", "", line) for line in text.split("\n"))
    return sum(1 for m in JS_STRING.finditer(text) if NAMES.search(m.group(0)))


def test_the_front_end_names_no_game_outside_its_renderers() -> None:
    found = {}
    for path in sorted(JS.rglob("*.js")):
        rel = path.relative_to(JS).as_posix()
        if rel.startswith("boards/") and rel != "boards/registry.js":
            continue
        n = js_quoted_names(path.read_text(encoding="utf-8"))
        if n > JS_STILL_NAMING.get(rel, 0):
            found[rel] = n
    assert not found, f"a game named in shared front-end code (declare it instead): {found}"


def test_the_js_scan_sees_a_quoted_name() -> None:
    src = '// dodgem in a comment\n/* Dot Dash */ const g = "dotdash"; const u = `Dodgem ${1}`;\n'
    assert js_quoted_names(src) == 2
