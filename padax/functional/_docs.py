"""Docstrings for factory-made functions (one `def` producing many public functions).

A factory cannot write a literal example per product, so each module keeps a small table of examples with the
expected output written out, and `example_doc` turns one row into a docstring (Args, Returns, Examples) that
doctest runs. Every factory in padax builds its docstrings here, so they all read alike.
"""
from __future__ import annotations

from typing import Sequence

_PADAX = ("import padax",)
LAX_IMPORTS = ("import padax", "from padax import lax")   # the first lines of every lax-level example


def example_doc(summary: str, examples: Sequence[tuple[str, str]], *, imports: Sequence[str] = _PADAX,
                args: str | None = None, returns: str | None = None) -> str:
    """A docstring: `summary`, optional Args and Returns text, then Examples: the `imports`, then each
    (source, expected output) pair; a multi-line source continues with `...` prompts.

    Examples:
        >>> example_doc("Twice x.", [("twice(1)", "2")], returns="x + x.").splitlines()
        ['Twice x.', '', '    Returns:', '        x + x.', '', '    Examples:', '        >>> import padax', '        >>> twice(1)', '        2', '    ']
    """
    parts = [summary, ""]
    if args:
        parts += ["    Args:", f"        {args}", ""]
    if returns:
        parts += ["    Returns:", f"        {returns}", ""]
    parts.append("    Examples:")
    parts += [f"        >>> {line}" for line in imports]
    for source, expected in examples:
        first, *rest = source.splitlines()
        parts.append(f"        >>> {first}")
        parts += [f"        ... {line}" for line in rest]
        if expected:
            parts.append(f"        {expected}")
    return "\n".join(parts) + "\n    "

