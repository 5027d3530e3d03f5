"""The floors hold: no import from a lower floor to a higher one, no circle across floors, and few
function-local imports, each with its reason (see tests/layering/imports.py and CONTRIBUTING.md)."""
from __future__ import annotations

from . import imports as graph

# share of internal import statements that sit inside functions, and how many lack a reason
MAX_LOCAL_SHARE = 0.10
MAX_LOCAL_WITHOUT_REASON = 0


def test_no_upward_import():
    up = graph.upward(graph.imports())
    assert not up, "imports from a lower floor to a higher one (move the code or install a hook):\n" + "\n".join(
        f"  {i.source}:{i.line} imports {i.target} "
        f"[{graph.floor_name(graph.floor_of(i.source))} -> {graph.floor_name(graph.floor_of(i.target))}]"
        for i in up)


def test_no_circle_across_floors():
    circles = graph.cross_floor_cycles(graph.imports())
    assert not circles, "circles of modules across floors:\n" + "\n".join(
        f"{len(c)} modules: {', '.join(c[:12])}{' ...' if len(c) > 12 else ''}" for c in circles)


def test_function_local_imports_are_few_and_explained():
    every, local = graph.statements(graph.imports())
    share = len(local) / len(every)
    assert share <= MAX_LOCAL_SHARE, f"{len(local)} of {len(every)} internal imports are inside functions ({share:.1%})"
    unexplained = [i for i in local if not i.reason]
    assert len(unexplained) <= MAX_LOCAL_WITHOUT_REASON, (
        f"{len(unexplained)} function-local imports carry no '# reason' comment, e.g. "
        + ", ".join(f"{i.source}:{i.line}" for i in unexplained[:10]))


def test_the_floors_are_ordered_as_documented():
    assert [name for name, _ in graph.FLOORS] == ["core", "runtime", "interpreters", "functional", "lowering",
                                                  "transforms"]
    assert graph.floor_of("padax.config") == 0 and graph.floor_of("padax.nn.layer") == graph.REST
