"""padax's internal import graph, read with `ast` from every file (module level and inside functions).

The floors, lowest first: core (with config) < runtime < interpreters < functional < lowering <
transforms < everything else. An import from a floor to a higher one is a violation; so is a circle
of modules that spans two floors. `python tests/layering/imports.py` prints the picture.
"""
from __future__ import annotations

import ast
import collections
import dataclasses
import re
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "padax"
FLOORS: list[tuple[str, tuple[str, ...]]] = [
    ("core", ("padax.core", "padax.config")),
    ("runtime", ("padax.runtime",)),
    ("interpreters", ("padax.interpreters",)),
    ("functional", ("padax.functional",)),
    ("lowering", ("padax.lowering",)),
    ("transforms", ("padax.transforms",)),
]
REST = len(FLOORS)


def floor_of(module: str) -> int:
    for i, (_, prefixes) in enumerate(FLOORS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return i
    return REST


def floor_name(i: int) -> str:
    return FLOORS[i][0] if i < REST else "rest"


@dataclasses.dataclass(frozen=True)
class Import:
    source: str      # importing module
    line: int
    target: str      # imported padax module
    local: bool      # inside a function
    reason: str      # the comment on the import's line (function-local imports must say why)


def modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _targets(source: str, is_pkg: bool, node: ast.AST, known: dict) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name == "padax" or a.name.startswith("padax.")]
    assert isinstance(node, ast.ImportFrom)
    if node.level:
        base = source if is_pkg else source.rpartition(".")[0]
        for _ in range(node.level - 1):
            base = base.rpartition(".")[0]
        base = base + ("." + node.module if node.module else "")
    else:
        base = node.module or ""
    if not (base == "padax" or base.startswith("padax.")):
        return []
    return [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]


def _reason(line: str) -> str:
    """The comment on an import's line, less any `noqa: ...` codes (those silence ruff, they say no why)."""
    comment = line.split("#", 1)[1].strip() if "#" in line else ""
    return re.sub(r"^noqa(:\s*[A-Z]+\d+(\s*,\s*[A-Z]+\d+)*)?\s*", "", comment).strip(" ()")


def imports() -> list[Import]:
    known = modules()
    out = []
    for source, path in sorted(known.items()):
        text = path.read_text()
        lines = text.splitlines()
        tree = ast.parse(text)

        def visit(node, local):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    # the reason may sit on any line of a wrapped import (ruff's import sorting moves it)
                    span = lines[child.lineno - 1:child.end_lineno]
                    reason = next((r for r in map(_reason, reversed(span)) if r), "")
                    for t in _targets(source, path.name == "__init__.py", child, known):
                        out.append(Import(source, child.lineno, t, local, reason))
                visit(child, local or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))
        visit(tree, False)
    return out


def statements(found: list[Import]) -> tuple[list[Import], list[Import]]:
    """One entry per import statement (not per imported name): all of them, and those inside functions."""
    first = {}
    for i in found:
        first.setdefault((i.source, i.line), i)
    every = list(first.values())
    return every, [i for i in every if i.local]


def upward(found: list[Import]) -> list[Import]:
    return [i for i in found if floor_of(i.target) > floor_of(i.source)]


def cycles(found: list[Import]) -> list[list[str]]:
    """Strongly connected components (of more than one module) of the import graph."""
    known = modules()
    graph = collections.defaultdict(set)
    for i in found:
        if i.target in known and i.target != i.source:
            graph[i.source].add(i.target)
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(max(10000, sys.getrecursionlimit()))

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for m in sorted(known):
        if m not in index:
            strong(m)
    return comps


def cross_floor_cycles(found: list[Import]) -> list[list[str]]:
    return [c for c in cycles(found) if len({floor_of(m) for m in c}) > 1]


if __name__ == "__main__":
    found = imports()
    if len(sys.argv) > 2 and sys.argv[1] == "--local":    # the function-local imports of modules under a prefix
        for i in statements(found)[1]:
            if i.source.startswith(sys.argv[2]):
                print(f"{i.source}:{i.line} -> {i.target}" + (f"  # {i.reason}" if i.reason else "  (no reason)"))
        sys.exit(0)
    total, local = statements(found)
    print(f"{len(total)} internal import statements, {len(local)} inside functions ({100 * len(local) / len(total):.1f} %),"
          f" {sum(1 for i in local if not i.reason)} of those without a reason")
    up = upward(found)
    print(f"{len(up)} upward imports:")
    for i in up:
        print(f"  {i.source}:{i.line} -> {i.target}  [{floor_name(floor_of(i.source))} -> "
              f"{floor_name(floor_of(i.target))}]{' (local)' if i.local else ''}")
    cyc = cycles(found)
    print(f"{len(cyc)} circles, {len(cross_floor_cycles(found))} across floors, sizes {sorted(map(len, cyc))}")
    if "-v" in sys.argv:
        for c in cyc:
            print(" ", len(c), c)
