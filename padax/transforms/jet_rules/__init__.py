"""Taylor rules of padax's primitives, registered into `padax.transforms.jet.taylor_rules`.

One module per family: `elementwise`, `structural` (shapes, indexing, reductions,
cumulative and windowed ops, sorting, fft, dot, conv), `linalg` (decompositions,
solves, collectives, random bits) and `calls` (control flow, jit, remat, custom rules,
shard_map, names, checks and callbacks). `_common` holds the coefficient arithmetic and the rule families.
"""
from padax.transforms.jet_rules import calls, elementwise, linalg, structural  # noqa: F401
