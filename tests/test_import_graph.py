"""The package's import graph: no cycles, and no edge against the layers

    core <- games <- (solver, ai) <- (cli, web, integrations)

read from the source (every import statement, in functions and `TYPE_CHECKING` blocks too,
and every `import_module("boardlab…")` with a literal name).
Pieces a game declares in a higher layer (its players) are named by `Ref`, resolved at run
time as entry points are; they are checked apart: each must resolve, and only into the
layers of that game's own folders.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import boardlab
from boardlab.core.registry import GameInfo, Ref, games

SRC = Path(boardlab.__file__).parent
LAYERS = {"core": 0, "games": 1, "solver": 2, "ai": 2, "cli": 3, "web": 3, "integrations": 3}
TOP = 4  # boardlab.__main__, which starts the command line


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(SRC.rglob("*.py"))}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The boardlab modules `name` imports; `from pkg import mod` counts as pkg.mod."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == "boardlab")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            if target.split(".")[0] != "boardlab":
                continue
            subs = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in known]
            if len(subs) == len(node.names):
                out.update(subs)
            else:
                out.add(target)
                out.update(subs)
        elif isinstance(node, ast.Call) and _called(node) == "import_module" and node.args:
            arg = node.args[0]
            if (
                isinstance(arg, ast.Constant)
                and isinstance(arg.value, str)
                and arg.value.split(".")[0] == "boardlab"
            ):
                out.add(arg.value)
    out.discard(name)
    return {m for m in out if m in known}


def _called(node: ast.Call) -> str:
    """The name a call calls: `f(...)` and `x.f(...)` both give 'f'."""
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {name: imports_of(name, path, known) for name, path in mods.items()}


def layer(name: str) -> int:
    parts = name.split(".")
    if len(parts) == 1:
        return 0  # the package itself holds only its version
    if parts[1] == "__main__":
        return TOP
    return LAYERS[parts[1]]


def find_cycle(g: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a path, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str) -> list[str] | None:
        state[n] = 1
        stack.append(n)
        for m in sorted(g.get(n, ())):
            if state.get(m) == 1:
                return [*stack[stack.index(m) :], m]
            if m not in state:
                found = visit(m)
                if found:
                    return found
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(g):
        if n not in state:
            found = visit(n)
            if found:
                return found
    return None


def test_every_package_is_in_a_layer() -> None:
    for name in modules():
        layer(name)  # KeyError for a package the layering does not know


def test_no_import_cycle() -> None:
    assert find_cycle(graph()) is None


def test_no_edge_against_the_layers() -> None:
    bad = [
        f"{a} -> {b}"
        for a, targets in sorted(graph().items())
        for b in sorted(targets)
        if layer(b) > layer(a)
    ]
    assert bad == []


def test_the_graph_reader_sees_cycles_and_upward_edges() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    g = graph()
    assert "boardlab.core.registry" in g["boardlab.games.dodgem"]
    assert "boardlab.games.dodgem.kernel" in g["boardlab.ai.dodgem.search"]
    assert layer("boardlab.web.app") > layer("boardlab.ai.base") > layer("boardlab.core.rules")
    # a module imported by a literal name is an edge too
    assert "boardlab.solver.api" in g["boardlab.web.processes"]


def test_a_literal_import_module_is_an_edge(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text(
        "import importlib\nfrom importlib import import_module\n"
        "def f():\n    importlib.import_module('boardlab.web.app')\n"
        "    import_module('boardlab.core.rules')\n    import_module(name)\n"
    )
    known = {"boardlab.web.app", "boardlab.core.rules", "boardlab.ai.base"}
    assert imports_of("boardlab.ai.base", path, known) == {
        "boardlab.web.app",
        "boardlab.core.rules",
    }


def test_outside_players_are_declared_entry_points_that_resolve() -> None:
    """Players from outside frameworks register by entry point (`boardlab.players`), as
    games do, instead of a hidden import; each names a callable in the integrations."""
    from importlib.metadata import entry_points

    found = {ep.name: ep.value for ep in entry_points(group="boardlab.players")}
    assert found.get("openspiel") == "boardlab.integrations.openspiel:openspiel_player"
    for value in found.values():
        module = value.partition(":")[0]
        assert module in modules() and layer(module) == LAYERS["integrations"]


@pytest.mark.parametrize("name", sorted(games()))
def test_declared_pieces_resolve_within_the_games_own_folders(name: str) -> None:
    info: GameInfo = games()[name]
    pieces = [info.levels, info.forced, info.solver_adapter, info.table_checker, info.solver_shape]
    if info.setup is not None:
        pieces.append(info.setup.agent)
    for piece in pieces:
        if isinstance(piece, Ref):
            assert callable(piece.load())
            target = piece.target.partition(":")[0]
            assert target.startswith(
                (f"boardlab.games.{name}.", f"boardlab.ai.{name}.", f"boardlab.solver.{name}.")
            ), target
