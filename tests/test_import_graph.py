"""No import circle anywhere in ``referee`` and ``modulebuilder``, counting every import statement: at module
level, inside a function, under ``if TYPE_CHECKING:`` (grimp reads them all).  The import-linter contracts
(``.importlinter``, tests/engine/test_architecture.py) hold one package at a time; this test holds the whole
graph, across packages too, and prints each circle it finds.

Imports inside functions are allowed only where start-up needs them, and each is listed with its reason in
docs/architecture.md ("Imports inside functions"); the last test holds that list to the code."""
from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

grimp = pytest.importorskip("grimp", reason="grimp comes with import-linter (pip install -e '.[test]')")

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("referee", "modulebuilder")
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def strongly_connected(graph) -> list[list[str]]:
    """The graph's strongly connected components of more than one module (Tarjan's, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.find_modules_directly_imported_by(nxt)))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        m = stack.pop()
                        on_stack.discard(m)
                        component.append(m)
                        if m == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def circle(graph, component: list[str]) -> str:
    """One circle through the component's first module, with the line of each import on it."""
    start = component[0]
    members = set(component)
    back = min((graph.find_shortest_chain(importer=nxt, imported=start) or () for nxt in
                sorted(graph.find_modules_directly_imported_by(start)) if nxt in members), key=len)
    path = [start, *back]
    steps = []
    for a, b in zip(path, path[1:]):
        d = graph.get_import_details(importer=a, imported=b)
        where = f"  (line {d[0]['line_number']}: {d[0]['line_contents']})" if d else ""
        steps.append(f"{a} -> {b}{where}")
    return f"{len(component)} modules: " + ", ".join(component) + "\n    " + "\n    ".join(steps)


def circles(*packages: str) -> list[str]:
    graph = grimp.build_graph(*packages, include_external_packages=False, cache_dir=None)
    return [circle(graph, c) for c in strongly_connected(graph)]


def test_no_import_circle_in_the_whole_graph():
    found = circles(*PACKAGES)
    assert not found, "import circles:\n" + "\n".join(found)


def write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.fixture
def package_on_path(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))

    def make(name: str, files: dict[str, str]) -> str:
        write(tmp_path / name, {"__init__.py": "", **files})
        sys.modules.pop(name, None)
        return name
    return make


def test_a_circle_through_a_function_level_import_is_found(package_on_path):
    """The shape the definitions loader had: a low module importing a high one inside a function."""
    pkg = package_on_path("circle_in_function", {
        "low.py": "def code():\n    from .high import load\n    return load\n",
        "high.py": "from .low import code\n\ndef load():\n    return code\n",
        "apart.py": "from .low import code\n",
    })
    found = circles(pkg)
    assert len(found) == 1, found
    assert found[0].startswith("2 modules: circle_in_function.high, circle_in_function.low")
    assert "circle_in_function.low -> circle_in_function.high  (line 2: from .high import load)" in found[0]


def test_a_circle_through_type_checking_imports_is_found(package_on_path):
    """The shape the log readers had: annotations imported back under TYPE_CHECKING, over three modules."""
    pkg = package_on_path("circle_in_types", {
        "a.py": "from .b import B\n",
        "b.py": "from .c import C\nB = 1\n",
        "c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import A\nC = 2\n",
    })
    found = circles(pkg)
    assert len(found) == 1 and found[0].startswith("3 modules: circle_in_types.a, circle_in_types.b, "
                                                    "circle_in_types.c"), found


# ------------------------------------------------------------------------------ imports inside functions

def is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def function_level_imports() -> set[tuple[str, str, str]]:
    """(file, function, module) of every import of the project's own modules made inside a function."""
    found: set[tuple[str, str, str]] = set()

    class Visitor(ast.NodeVisitor):
        def __init__(self, path: str, package: str) -> None:
            self.path, self.package, self.names, self.depth = path, package, [], 0

        def visit_FunctionDef(self, node) -> None:
            self.names.append(node.name)
            self.depth += 1
            self.generic_visit(node)
            self.depth -= 1
            self.names.pop()

        visit_AsyncFunctionDef = visit_FunctionDef

        def visit_ClassDef(self, node) -> None:
            self.names.append(node.name)
            self.generic_visit(node)
            self.names.pop()

        def visit_Import(self, node) -> None:
            if self.depth:
                for alias in node.names:
                    self.add(alias.name)

        def visit_ImportFrom(self, node) -> None:
            if self.depth:
                base = self.package.split(".")
                module = (".".join(base[:len(base) - node.level + 1] + ([node.module] if node.module else []))
                          if node.level else node.module or "")
                for alias in node.names:        # ``from package import module`` imports the module
                    sub = f"{module}.{alias.name}"
                    self.add(sub if is_module(sub) else module)

        def add(self, module: str) -> None:
            if module.split(".")[0] in PACKAGES:
                found.add((self.path, ".".join(self.names), module))

    for top in PACKAGES:
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            package = rel[:-3].replace("/", ".")
            if path.name != "__init__.py":
                package = package.rsplit(".", 1)[0]
            else:
                package = package[:-len(".__init__")]
            Visitor(rel, package).visit(ast.parse(path.read_text("utf-8")))
    return found


def listed_imports() -> set[tuple[str, str, str]]:
    """The rows of docs/architecture.md's table "Imports inside functions": file, function, modules, why."""
    text = ARCHITECTURE.read_text("utf-8")
    section = text.split("## Imports inside functions", 1)[1].split("\n## ", 1)[0]
    rows: set[tuple[str, str, str]] = set()
    for line in section.splitlines():
        m = re.match(r"\| `([^`]+)` \| `([^`]+)` \| ([^|]+) \| ([^|]+) \|$", line)
        if m:
            assert m.group(4).strip(), line             # every row says why
            for module in re.findall(r"`([^`]+)`", m.group(3)):
                rows.add((m.group(1), m.group(2), module))
    return rows


def test_every_function_level_import_is_listed_with_its_reason():
    in_code, listed = function_level_imports(), listed_imports()
    assert in_code, "the scan found no import inside a function: it is broken"
    assert sorted(in_code - listed) == [], "imports inside functions not listed in docs/architecture.md"
    assert sorted(listed - in_code) == [], "listed in docs/architecture.md but not in the code"
