"""The layers hold: ``engine/`` never imports ``editor/`` or Qt, and no module of ``engine/`` or
``editor/`` imports itself round a circle.

Every import statement counts, wherever it stands: at the top, inside a function (a "lazy"
import is still a dependency) or under ``if TYPE_CHECKING:`` (a type that names the module
above is still an upward dependency).  A package's ``__init__`` importing its own submodules
is its public face, not a cycle.  See docs/architecture.md for the allowed directions.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "editor")
QT = ("PySide6", "PyQt5", "PyQt6", "shiboken6")


def module_files(root: Path, packages=PACKAGES) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` under the packages."""
    found = {}
    for pkg in packages:
        for path in sorted((root / pkg).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imported_names(name: str, path: Path) -> set[str]:
    """Every dotted name an import statement of the module may load (``from a import b``
    gives both ``a`` and ``a.b``, since ``b`` may be a submodule)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")[: len(here.split(".")) - node.level + 1]
                mod = ".".join(base + [node.module] if node.module else base)
            else:
                mod = node.module or ""
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)
    return out


def import_graph(root: Path, packages=PACKAGES) -> tuple[dict[str, set[str]], set[str]]:
    """Module -> the modules of the packages it imports; and the modules importing Qt."""
    files = module_files(root, packages)
    graph: dict[str, set[str]] = {}
    uses_qt: set[str] = set()
    for name, path in files.items():
        deps = set()
        for target in imported_names(name, path):
            if target.split(".")[0] in QT:
                uses_qt.add(name)
            parts = target.split(".")
            while parts and ".".join(parts) not in files:
                parts.pop()  # engine.model.Scenario -> engine.model
            dep = ".".join(parts)
            if not dep or dep == name:
                continue
            if path.name == "__init__.py" and dep.startswith(name + "."):
                continue  # a package re-exporting its own submodules
            deps.add(dep)
        graph[name] = deps
    return graph, uses_qt


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (iterative Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in graph:
                    continue
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                group = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    group.append(w)
                    if w == v:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def wrong_way(graph: dict[str, set[str]], uses_qt: set[str]) -> list[str]:
    """Engine modules importing the editor or Qt, as ``a -> b`` lines."""
    bad = [f"{m} -> {d}" for m, deps in graph.items() if m.split(".")[0] == "engine"
           for d in sorted(deps) if d.split(".")[0] == "editor"]
    bad += [f"{m} -> Qt" for m in sorted(uses_qt) if m.split(".")[0] == "engine"]
    return sorted(bad)


# ------------------------------------------------------------------ the checkout


def test_no_import_cycle_in_engine_or_editor():
    graph, _ = import_graph(ROOT)
    assert len(graph) > 100  # the scan did find the code
    assert cycles(graph) == []


def test_engine_never_imports_editor_or_qt():
    graph, uses_qt = import_graph(ROOT)
    assert wrong_way(graph, uses_qt) == []
    assert "editor.main_window" in uses_qt  # Qt imports are seen where they are


def test_only_the_app_assembly_imports_the_main_window():
    graph, _ = import_graph(ROOT)
    assert sorted(m for m, deps in graph.items() if "editor.main_window" in deps) == ["editor.app"]


def test_one_dot_type():
    """Dots and points are named once, in engine.lattice (``Dot``, ``Dot3``, ``Point``): no
    module of engine/, editor/ or tests/ defines its own tuple alias for them."""
    found = []
    for path in sorted([*ROOT.glob("engine/**/*.py"), *ROOT.glob("editor/**/*.py"),
                        *ROOT.glob("tests/**/*.py")]):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Subscript)
                    and isinstance(node.value.value, ast.Name) and node.value.value.id == "tuple"):
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
                found += [f"{path.relative_to(ROOT)}:{n}" for n in names
                          if "dot" in n.lower() or "point" in n.lower()]
    assert found == ["engine/lattice.py:Dot", "engine/lattice.py:Dot3", "engine/lattice.py:Point"]


def test_engine_imports_and_runs_without_pyside6():
    """With PySide6 made unimportable, the engine, its CLI and a LOS question still work."""
    code = textwrap.dedent("""
        import sys
        sys.modules["PySide6"] = None  # any import of it now raises ImportError
        import engine.cli, engine.validate, engine.play.game, engine.play.headless
        sys.exit(engine.cli.main(["los", "scenarios/street-ambush.yaml", "20,6,5", "31,14"]))
    """)
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert "CLEAR" in run.stdout


# ------------------------------------------------------------------ the checker can fail


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text), encoding="utf-8")
    return tmp_path


def test_a_lazy_import_inside_a_function_closes_a_cycle(tmp_path):
    root = _package(tmp_path, {
        "engine/__init__.py": "",
        "engine/a.py": "from engine.b import thing\n",
        "engine/b.py": "def thing():\n    from engine import a\n    return a\n",
        "engine/c.py": "import engine.a\n",
        "editor/__init__.py": "",
    })
    graph, _ = import_graph(root)
    assert cycles(graph) == [["engine.a", "engine.b"]]


def test_a_type_checking_import_closes_a_cycle(tmp_path):
    root = _package(tmp_path, {
        "engine/__init__.py": "",
        "editor/__init__.py": "",
        "editor/window.py": "from editor.tools import base\n",
        "editor/tools/__init__.py": "",
        "editor/tools/base.py": """
            from typing import TYPE_CHECKING
            if TYPE_CHECKING:
                from ..window import Window
        """,
    })
    graph, _ = import_graph(root)
    assert cycles(graph) == [["editor.tools.base", "editor.window"]]


def test_a_package_face_is_no_cycle_but_a_longer_circle_is(tmp_path):
    root = _package(tmp_path, {
        "engine/__init__.py": "",
        "engine/play/__init__.py": "from engine.play.game import Game\n",
        "engine/play/game.py": "from engine.play import turn\nclass Game: ...\n",
        "engine/play/turn.py": "from engine.rules import dmz\n",
        "engine/rules/__init__.py": "",
        "engine/rules/dmz.py": "from engine.play.game import Game\n",
        "editor/__init__.py": "",
    })
    graph, _ = import_graph(root)
    assert cycles(graph) == [["engine.play.game", "engine.play.turn", "engine.rules.dmz"]]


def test_engine_importing_editor_or_qt_is_caught(tmp_path):
    root = _package(tmp_path, {
        "engine/__init__.py": "",
        "engine/cli.py": "def edit():\n    from editor.app import run\n    return run\n",
        "engine/draw.py": "from PySide6.QtGui import QPainter\n",
        "editor/__init__.py": "",
        "editor/app.py": "import engine.cli\nfrom PySide6 import QtWidgets\n",
    })
    graph, uses_qt = import_graph(root)
    assert wrong_way(graph, uses_qt) == ["engine.cli -> editor.app", "engine.draw -> Qt"]
    assert cycles(graph) == [["editor.app", "engine.cli"]]
