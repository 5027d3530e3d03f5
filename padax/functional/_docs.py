"""Docstrings for factory-made functions (one `def` producing many public functions).

A factory cannot write a literal example per product, so each module keeps a small table of examples with the
expected output written out, and `document` turns one row into a docstring that doctest runs.
"""
from __future__ import annotations

from typing import Any, Callable


def document(fn: Callable[..., Any], summary: str, example: str, expected: str) -> None:
    """Give `fn` the docstring `summary` plus an Examples section: `import padax`, then the one-line `example`
    whose printed value is `expected` (doctest checks it; floats are matched to the digits written).

    Examples:
        >>> import padax
        >>> def twice(x):
        ...     return padax.multiply(x, 2)
        >>> document(twice, "Twice x.", "twice(padax.to_tensor([1.0, 2.0])).tolist()", "[2.0, 4.0]")
        >>> twice.__doc__.splitlines()[0]
        'Twice x.'
        >>> import doctest
        >>> [(e.source.strip(), e.want.strip()) for e in doctest.DocTestParser().get_examples(twice.__doc__)]
        [('import padax', ''), ('twice(padax.to_tensor([1.0, 2.0])).tolist()', '[2.0, 4.0]')]
    """
    fn.__doc__ = (f"{summary}\n\n    Examples:\n        >>> import padax\n        >>> {example}\n"
                  f"        {expected}\n    ")
