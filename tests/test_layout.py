"""The layout: one stage of the data flow per module, and no module imports a later stage."""

import ast
import tempfile
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "holdem"

# The data flow, lowest first (the README's layout table, row by row).
ORDER = [
    "errors", "_moved", "console", "cards", "hand", "formats", "table",
    "bots", "tournament", "stats", "pushfold", "solver", "vector", "acpc", "env", "learn", "server",
    "docs", "cli", "__main__",
]  # fmt: skip


def imports(tree: ast.Module) -> list[tuple[str, int]]:
    """Modules of holdem imported anywhere: at run time, lazily, or for type annotations only."""
    found = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("holdem."):
            found.append((node.module.split(".")[1], node.lineno))
        stack.extend(ast.iter_child_nodes(node))
    return found


def test_every_module_has_a_place_in_the_data_flow() -> None:
    """Each module of the package appears in ORDER (so the layering check covers it)."""
    modules = {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    packages = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert set() == (modules | packages) - set(ORDER)


def test_no_module_imports_a_later_stage() -> None:
    """Lower layers never import higher ones, not even for type annotations (so there are no
    import cycles, such as hand <-> views): cards know nothing of hands, hands nothing of bots."""
    rank = {name: i for i, name in enumerate(ORDER)}
    violations = []
    for path in PACKAGE.rglob("*.py"):
        module = path.relative_to(PACKAGE).parts[0].removesuffix(".py")  # the stage: a root module or package
        if module == "__init__":
            continue
        for target, line in imports(ast.parse(path.read_text())):
            if rank[target] > rank[module]:
                violations.append(f"{path.relative_to(PACKAGE)}:{line} imports holdem.{target}")
    assert [] == violations


FUNCTION_CAP = 60
"""Lines of code a function may hold (docstring, blank and comment lines apart): one screen."""

LONG_FUNCTIONS = {
    "hand/state.py:start": "Hand.start's fast set-up, every hand's hot path (scripts/bench_engine.py): its"
    " steps are inlined on purpose",
}
"""Functions over the cap, each with the reason it stays long."""


def _code_lines(lines: list[str], node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    body = node.body
    first = body[0] if body else None
    is_doc = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
    doc = (first.lineno, first.end_lineno or first.lineno) if is_doc and first is not None else (0, -1)
    assert node.end_lineno is not None
    return sum(
        1
        for number in range(node.lineno, node.end_lineno + 1)
        if not doc[0] <= number <= doc[1]
        and lines[number - 1].strip()
        and not lines[number - 1].strip().startswith("#")
    )


def test_no_function_is_over_60_lines_of_code_but_the_named_ones() -> None:
    """A function reads on one screen; modules may be as long as their one concept needs. Each
    exception is named in LONG_FUNCTIONS with its reason, and an exception that no longer needs to
    be one is taken off the list."""
    long = {}
    for path in PACKAGE.rglob("*.py"):
        source = path.read_text()
        lines = source.splitlines()
        for node in ast.walk(ast.parse(source)):
            is_function = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            if is_function and (n := _code_lines(lines, node)) > FUNCTION_CAP:  # type: ignore[arg-type]
                long[f"{path.relative_to(PACKAGE).as_posix()}:{node.name}"] = n
    assert set(LONG_FUNCTIONS) == set(long), long


def module_imports() -> dict[str, set[str]]:
    """Each module of the package (dotted, ``holdem.server.hub``) and the modules of the package it
    imports anywhere: at run time, lazily, or for type annotations only. A package's ``__init__`` is
    left out (it holds hints and re-exports), and ``from holdem.x import y`` names module ``holdem.x.y``
    when that is a module."""
    modules = {
        ".".join(("holdem", *p.relative_to(PACKAGE).with_suffix("").parts)): p
        for p in PACKAGE.rglob("*.py")
        if p.stem != "__init__"
    }
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("holdem"):
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    found.add(sub if sub in modules else node.module)
            elif isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names if alias.name.startswith("holdem.")}
        graph[name] = {target for target in found if target in modules and target != name}
    return graph


def test_no_two_modules_import_each_other_even_inside_a_subpackage() -> None:
    """The import graph of every module, subpackages' modules one by one (the stages above rank a
    subpackage as a unit, which let server.app, server.cluster and server.routes import each other),
    has no cycle: each circle found is listed."""
    graph = module_imports()
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the path being explored, 2: done

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                cycles.append([*path[path.index(target) :], target])
            elif target not in state:
                visit(target, [*path, target])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert [] == [" -> ".join(cycle) for cycle in cycles]
    assert "holdem.server.hub" in graph["holdem.server.routes"]  # the graph sees inside subpackages


def test_a_private_module_is_imported_only_inside_its_own_package() -> None:
    """``holdem.cards._tables`` is the evaluator's business: other packages use what `holdem.cards`
    exposes (`HandCategory.of`, `holdem.cards.batch.tables()`)."""
    outside = []
    for name, targets in module_imports().items():
        for target in targets:
            parts = target.split(".")
            if parts[-1].startswith("_") and not name.startswith(".".join(parts[:-1]) + "."):
                outside.append(f"{name} imports {target}")
    assert [] == sorted(outside)


def _exported_imports(path: Path) -> list[str]:
    """Names in a module's ``__all__`` that it imports from another module rather than defines."""
    tree = ast.parse(path.read_text())
    imported = {
        alias.asname or alias.name
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    exported: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in node.targets):
            exported = [ast.literal_eval(item) for item in getattr(node.value, "elts", [])]
    return [name for name in exported if name in imported]


def test_each_name_has_one_import_path_outside_the_package_front_doors() -> None:
    """A module other than a package's ``__init__`` exports only what it defines: no second path
    such as ``holdem.hand.state.HandResult`` beside ``holdem.hand.events.HandResult``."""
    shims = {
        str(path.relative_to(PACKAGE)): names
        for path in PACKAGE.rglob("*.py")
        if path.stem != "__init__" and (names := _exported_imports(path))
    }
    assert {} == shims


def test_every_error_is_defined_in_holdem_errors_and_is_a_holdem_error() -> None:
    """One place names every error (`holdem.errors`), and each is a `HoldemError`: a caller catches
    everything the library raises with one ``except``."""
    import holdem.errors

    elsewhere = [
        f"{path.relative_to(PACKAGE)}: {node.name}"
        for path in PACKAGE.rglob("*.py")
        if path.name != "errors.py"
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ClassDef)
        and not node.name.startswith("_")  # a private signal inside one module (client's _Silent)
        and any(getattr(base, "id", "").endswith(("Error", "Exception", "Lost")) for base in node.bases)
    ]
    assert [] == elsewhere
    for name in holdem.errors.__all__:
        assert issubclass(getattr(holdem.errors, name), holdem.errors.HoldemError), name


# The server's state owners: the module that alone writes each one's attributes (item 1 of issue 60).
STATE_OWNERS = {
    "registry": "registry.py", "readers": "readers.py", "hub": "hub.py", "room": "room.py",
    "home": "home.py", "tourney": "tourney.py",
}  # fmt: skip
_MUTATORS = {"pop", "add", "discard", "append", "update", "setdefault", "clear", "remove", "extend", "insert"}


def _owner(node: ast.AST) -> str | None:
    """The owner named by ``owner.attr`` or ``self.owner.attr`` (or that, subscripted)."""
    if isinstance(node, ast.Subscript):
        node = node.value
    if not isinstance(node, ast.Attribute):
        return None
    obj = node.value
    name = obj.attr if isinstance(obj, ast.Attribute) else obj.id if isinstance(obj, ast.Name) else None
    return name if name in STATE_OWNERS else None


def _foreign_writes(path: Path) -> list[str]:
    """Where a server module writes (assigns, deletes, mutates in place) an attribute of a state
    owner other than its own, or calls one of its private methods."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = [
                t
                for target in node.targets
                for t in (target.elts if isinstance(target, ast.Tuple) else [target])
            ]
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            attr = node.func.attr
            if attr in _MUTATORS:
                targets = [node.func.value]
            elif attr.startswith("_") and not attr.startswith("__") and _owner(node.func) is not None:
                targets = [node.func]
        for target in targets:
            owner = _owner(target)
            if owner is not None and STATE_OWNERS[owner] != path.name:
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(target)}")
    return found


def test_the_servers_state_is_written_only_by_its_owner() -> None:
    """The registry, the readers, the hub, a room, a home game and a tournament each change only their
    own attributes, through methods named for what they do (`Registry.add_tourney`,
    `Readers.note_stored`, `Room.break_up`…): no module assigns, deletes or mutates another's
    attributes, or calls its private methods."""
    assert [] == [
        line for path in sorted((PACKAGE / "server").glob("*.py")) for line in _foreign_writes(path)
    ]


def test_the_owner_check_sees_a_foreign_write() -> None:
    """The check above is not vacuous: the writes this change removed are each found."""
    old = (
        "def f(hub, room, registry, self):\n"
        "    hub.registry.tourneys[t.id] = t\n"
        "    room.turn_started = now\n"
        "    self.readers.stored.update(pairs)\n"
        "    hub._add(room)\n"
        "    busted, room.busted = room.busted, []\n"
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "routes.py"
        path.write_text(old)
        assert 5 == len(_foreign_writes(path))
