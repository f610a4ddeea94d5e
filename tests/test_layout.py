"""The house's layout, read from the source: no module imports another in a circle (nor a package
another package), and no layer imports one above it (the core, then the use cases `judge.app`, the
mail commands, the mail's words, then the shell: `judge.runtime`, `judge.web`, `judge.cli`), whether
at the top of a module or inside a function.

Imports are read with `ast`, not by importing: every `import` and `from ... import` anywhere in a
module counts, and importing `a.b.c` also runs the packages `a` and `a.b`, so it counts as importing
them too. An import under `if TYPE_CHECKING:` never runs: it counts for the shell rule (the core
does not even name the shell's types) but not for cycles.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import judge

# in layer order, each above the core and the layers before it: the use cases, the mail command
# language that calls them, the mail's words; then the shell,
# where the runtime never imports the web pages, nor either the command line
LAYERS = ("judge.app", "judge.commands", "judge.mailout", "judge.runtime", "judge.web", "judge.cli")
SHELL = LAYERS[3:]


@dataclass(frozen=True)
class Import:
    target: str  # the module imported (importing it runs its packages too: `runs`)
    line: int
    typing_only: bool  # under `if TYPE_CHECKING:`


@dataclass
class Package:
    """Each module of a package by its dotted name, and what it imports of the package."""

    modules: dict[str, Path] = field(default_factory=dict)
    imports: dict[str, list[Import]] = field(default_factory=dict)


def read_package(root: Path, name: str) -> Package:
    """Every module under `root` (the folder of the package `name`) and its imports of `name`."""
    package = Package()
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        dotted = ".".join((name, *parts[:-1])) if parts[-1] == "__init__" else ".".join((name, *parts))
        package.modules[dotted] = path
    for module, path in package.modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        is_package = path.name == "__init__.py"
        package.imports[module] = sorted(set(_imports(tree, module, is_package, name, package.modules)),
                                         key=lambda i: (i.line, i.target))
    return package


def _imports(tree: ast.AST, module: str, is_package: bool, name: str, modules: dict[str, Path]
             ) -> list[Import]:
    typing_only = _typing_only_nodes(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, module, is_package)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                       for alias in node.names]
        else:
            continue
        found += [Import(runs(target, modules)[-1], node.lineno, id(node) in typing_only)
                  for target in targets if target == name or target.startswith(name + ".")]
    return found


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    parts = module.split(".")
    base = parts[:len(parts) - node.level + (1 if is_package else 0)]
    return ".".join(base + ([node.module] if node.module else []))


def runs(target: str, modules: dict[str, Path]) -> list[str]:
    """The modules an import of `target` runs: the deepest existing module and its packages."""
    parts = target.split(".")
    return [".".join(parts[:n]) for n in range(1, len(parts) + 1) if ".".join(parts[:n]) in modules]


def _typing_only_nodes(tree: ast.AST) -> set[int]:
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            inside |= {id(child) for stmt in node.body for child in ast.walk(stmt)}
    return inside


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


# --- the rules ----------------------------------------------------------------------------------------

def module_graph(package: Package) -> dict[str, set[str]]:
    """Module -> the modules it runs by importing. A module's own packages are left out: they are
    already running when it is imported."""
    graph: dict[str, set[str]] = {}
    for module, imports in package.imports.items():
        own = {".".join(module.split(".")[:n]) for n in range(1, module.count(".") + 1)}
        graph[module] = {ran for i in imports if not i.typing_only for ran in runs(i.target, package.modules)
                         if ran != module and ran not in own}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node, each sorted, in sorted order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def package_cycles(package: Package) -> list[str]:
    """For each package, its members (subpackages and modules) that import one another in a circle,
    with the imports that close it."""
    graph = module_graph(package)
    problems = []
    for parent in sorted(m for m, path in package.modules.items() if path.name == "__init__.py"):
        members: dict[str, set[str]] = {}
        why: dict[tuple[str, str], str] = {}
        for module, targets in sorted(graph.items()):
            one = _member_of(module, parent)
            for target in sorted(targets):
                other = _member_of(target, parent)
                if one and other and one != other:
                    members.setdefault(one, set()).add(other)
                    why.setdefault((one, other), f"{module} -> {target}")
        for component in cycles(members):
            edges = sorted(why[(a, b)] for a in component for b in members.get(a, ()) if b in component)
            problems.append(f"{parent}: {' <-> '.join(component)} ({'; '.join(edges)})")
    return problems


def _member_of(module: str, parent: str) -> str | None:
    if not module.startswith(parent + "."):
        return None
    return f"{parent}.{module[len(parent) + 1:].split('.')[0]}"


def layer(module: str, shell: tuple[str, ...]) -> int:
    """0 for the core, then each part of the shell in order."""
    for number, part in enumerate(shell, start=1):
        if module == part or module.startswith(part + "."):
            return number
    return 0


def upward_imports(package: Package, shell: tuple[str, ...] = LAYERS) -> list[str]:
    """Each import of a module of a higher layer (the core importing the shell, the use cases the
    commands), typing or not."""
    return [f"{module}:{i.line} imports {i.target}" for module, imports in package.imports.items()
            for i in imports if layer(i.target, shell) > layer(module, shell)]


# --- the tests ----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def the_judge() -> Package:
    return read_package(Path(judge.__file__).parent, "judge")


def test_no_module_imports_another_in_a_circle(the_judge):
    assert cycles(module_graph(the_judge)) == []


def test_no_package_imports_another_in_a_circle(the_judge):
    assert package_cycles(the_judge) == []


def test_no_layer_imports_a_layer_above_it(the_judge):
    assert upward_imports(the_judge) == []


def test_the_layers_are_where_the_layout_says(the_judge):
    assert set(LAYERS) <= set(the_judge.modules)


def fake_package(root: Path, files: dict[str, str]) -> Package:
    for name, text in files.items():
        path = root / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return read_package(root / "pkg", "pkg")


def test_the_reader_sees_imports_in_functions_relative_ones_and_packages_run_on_the_way(tmp_path):
    package = fake_package(tmp_path, {
        "__init__.py": "",
        "a/__init__.py": "from pkg.a import low\n",
        "a/low.py": "def f():\n    from ..b import high\n",
        "b/__init__.py": "",
        "b/high.py": "import pkg.a.low\n",
    })
    assert module_graph(package) == {"pkg": set(), "pkg.a": {"pkg.a.low"}, "pkg.a.low": {"pkg.b", "pkg.b.high"},
                                     "pkg.b": set(), "pkg.b.high": {"pkg.a", "pkg.a.low"}}
    assert cycles(module_graph(package)) == [["pkg.a", "pkg.a.low", "pkg.b.high"]]
    assert package_cycles(package) == ["pkg: pkg.a <-> pkg.b (pkg.a.low -> pkg.b; pkg.b.high -> pkg.a)"]


def test_a_typing_only_import_is_no_cycle_but_still_an_upward_import(tmp_path):
    package = fake_package(tmp_path, {
        "__init__.py": "",
        "core.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.runtime import shell\n",
        "runtime/__init__.py": "",
        "runtime/shell.py": "from pkg import core\n",
    })
    assert cycles(module_graph(package)) == [] and package_cycles(package) == []
    assert upward_imports(package, ("pkg.runtime",)) == ["pkg.core:3 imports pkg.runtime.shell"]


def test_a_use_case_importing_the_mail_commands_goes_up_a_layer(tmp_path):
    package = fake_package(tmp_path, {
        "__init__.py": "",
        "app/__init__.py": "",
        "app/orders.py": "from pkg.commands import syntax\n",
        "commands/__init__.py": "",
        "commands/syntax.py": "from pkg.app import orders\n",
    })
    assert upward_imports(package, ("pkg.app", "pkg.commands")) == ["pkg.app.orders:1 imports pkg.commands.syntax"]
