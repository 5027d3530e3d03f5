"""The batteries (padax.nn, padax.optimizer, padax.scipy, ...) are built on padax's public API. The internal
modules each battery package still imports (padax.core.*, padax.runtime.*, padax.runtime.*,
padax.interpreters.*, padax.lowering.*, padax.transforms.*) are listed here, each with its reason (mostly:
padax has no public name for it yet). The list only shrinks: an import of an internal module that is not
listed fails the test, and so does an entry that no longer occurs. When a public name appears (as
`padax.dtypes` did), move the battery to it and delete the entry.

Not checked: padax/__init__ itself and the namespaces whose job is to re-export internals (padax.lax,
padax.extend, padax.experimental), and the internal floors themselves.
"""
from __future__ import annotations

import collections

from . import imports as graph

BATTERIES = ("padax.ad_checkpoint", "padax.amp", "padax.autograd", "padax.callbacks", "padax.debug",
             "padax.distribution", "padax.hapi", "padax.incubate", "padax.inference", "padax.io", "padax.metric",
             "padax.nn", "padax.numpy", "padax.ode", "padax.optimizer", "padax.profiler", "padax.random",
             "padax.regularizer", "padax.scipy", "padax.sharding", "padax.signal", "padax.static", "padax.tensor",
             "padax.utils", "padax.vision", "padax.geometric", "padax.audio", "padax.text",
             "padax.sparse", "padax.onnx")
INTERNAL = ("padax.core", "padax.runtime", "padax.interpreters", "padax.lowering", "padax.transforms")

_ERRORS = "no public name for padax's error constructors (op_value_error, op_type_error, require_members)"
_TRACER = "no public name for the tracer type (isinstance checks for traced values)"
_EARLY = "padax.numpy loads inside padax/__init__, so it reads the floor below, not padax's half-built namespace"

# battery package -> {internal module it imports: why}
ALLOWED: dict[str, dict[str, str]] = {
    "padax.ad_checkpoint": {
        "padax.transforms.remat": "the module re-exports remat's names (checkpoint_name, saved_residuals, ... "
                                  "have no other public home), as jax.ad_checkpoint does",
    },
    "padax.amp": {
        "padax.core.primitive": "no public name for the primitive registry (custom lists may name primitives)",
        "padax.core.trace": "no public name for the dtype-policy hook of Primitive.bind (bind_policy, trace_state)",
    },
    "padax.debug": {
        "padax.core.trace": _TRACER,
    },
    "padax.distribution": {
        "padax.core.errors": _ERRORS,
        "padax.core.trace": _TRACER,
    },
    "padax.incubate": {
        "padax.core.errors": _ERRORS,
    },
    "padax.inference": {
        "padax.core.abstract": "no public name for ShapedArray (the avals of a saved program's signature)",
        "padax.lowering.export": "no public API for the portable StableHLO artifact (to_portable, check_portable)",
        "padax.lowering.mlir": "no public API to lower a jaxpr to StableHLO (lower_jaxpr)",
        "padax.transforms.jit_primitive": "no public name for hoist_consts (a jitted program's constants)",
        "padax.transforms.spmd": "no public name for needs_spmd (whether a program is partitioned)",
        "padax.transforms.staging": "no public name for trace_flat (tracing flat arguments to a jaxpr)",
    },
    "padax.io": {
        "padax.runtime.put": "no public name for device_by_name ('cpu', 'gpu:0' -> Device)",
        "padax.runtime.sharding": "no public name for resolve_sharding (a PartitionSpec on the context mesh)",
    },
    "padax.audio": {
        "padax.core.atomic_file": "no public name for atomic_write (WAV saves, all at once)",
    },
    "padax.metric": {
        "padax.core.errors": _ERRORS,
    },
    "padax.nn": {
        "padax.core.errors": _ERRORS,
        "padax.core.source_info": "no public name for user_location (where a layer or parameter was created)",
        "padax.core.trace": "no public name for the tracer and trace state (Tracer, EvalTrace, current_trace)",
        "padax.core.node_state": "layers install how transformations carry their state back (a hook, "
                                       "not public)",
    },
    "padax.numpy": {
        "padax.core.dtypes": "padax.numpy's promotion reads the kind rank of a dtype (kind_rank), not public",
        "padax.core.errors": _ERRORS,
        "padax.core.trace": _TRACER,
        "padax.runtime.array": _EARLY + " (padax.Tensor)",
        "padax.runtime.backend": _EARLY + " (padax.default_device, padax.runtime)",
        "padax.runtime.printing": "re-exports printoptions (numpy's, as jax.numpy.printoptions)",
        "padax.runtime.put": _EARLY + " (padax.device_put)",
        "padax.core.atomic_file": "no public name for atomic_write (numpy.save's file writes)",
        "padax.transforms.batching": _EARLY + " (padax.vmap)",
    },
    "padax.onnx": {
        "padax.core.atomic_file": "no public name for atomic_write (the .onnx file, written all at once)",
    },
    "padax.ode": {
        "padax.core.errors": _ERRORS,
        "padax.core.trace": _TRACER,
    },
    "padax.optimizer": {
        "padax.core.errors": _ERRORS,
    },
    "padax.profiler": {
        "padax.runtime.profiling": "no public API for the XLA profiler session and its events (xspace_events)",
    },
    "padax.random": {
        "padax.core.errors": _ERRORS,
        "padax.core.trace": "no public name for evaluating eagerly inside a trace (set_current_trace, EvalTrace)",
        "padax.core.ref": "the global key's Ref is built eagerly from its value (Ref(value, aval)), below new_ref",
    },
    "padax.regularizer": {
        "padax.core.errors": _ERRORS,
    },
    "padax.scipy": {
        "padax.core.errors": _ERRORS,
        "padax.core.trace": _TRACER,
    },
    "padax.sharding": {
        "padax.core.trace": _TRACER,
        "padax.runtime.put": "no public name for put_sharded (an eager move to a sharding)",
        "padax.runtime.sharding": "padax.sharding is the public home of the mesh and sharding types: it re-exports "
                                  "them",
    },
    "padax.signal": {
        "padax.core.errors": _ERRORS,
        "padax.core.trace": _TRACER,
    },
    "padax.static": {
        "padax.core.abstract": "no public name for ShapedArray (the types of a Program's inputs and of a loaded "
                               "inference model's variables)",
        "padax.core.primitive": "no public name for the primitive registry (a loaded inference model names its ops)",
        "padax.core.trace": "no public name for the trace state: static mode makes a Program's staging trace the "
                            "current one (trace_state, set_current_trace, EvalTrace)",
        "padax.interpreters.staging": "a Program is a long-lived staging trace (JaxprTrace, JaxprTracer, trace_flat "
                                      "for sub-programs replayed at the fed sizes)",
    },
    "padax.vision": {
        "padax.core.errors": _ERRORS,
        "padax.core.trace": _TRACER,
    },
}


def _battery(module: str) -> str | None:
    for b in BATTERIES:
        if module == b or module.startswith(b + "."):
            return b
    return None


def _internal(target: str) -> bool:
    return any(target == p or target.startswith(p + ".") for p in INTERNAL)


def internal_imports() -> dict[str, dict[str, list[str]]]:
    """battery package -> internal module -> the import sites ('module:line')."""
    found: dict[str, dict[str, list[str]]] = collections.defaultdict(lambda: collections.defaultdict(list))
    for i in graph.imports():
        b = _battery(i.source)
        if b is not None and _internal(i.target):
            found[b][i.target].append(f"{i.source}:{i.line}")
    return found


def test_batteries_import_no_new_internal_module():
    found = internal_imports()
    new = [f"  {b} -> {t}  ({', '.join(sites[:4])}{' ...' if len(sites) > 4 else ''})"
           for b, targets in sorted(found.items()) for t, sites in sorted(targets.items())
           if t not in ALLOWED.get(b, {})]
    assert not new, ("batteries import padax internals not in ALLOWED (use the public name, e.g. padax.jit, "
                     "padax.stop_gradient, padax.tree, padax.Tensor; or add the entry with its reason):\n"
                     + "\n".join(new))


def test_allowed_internal_imports_still_occur():
    found = internal_imports()
    stale = [f"  {b} -> {t}" for b, targets in sorted(ALLOWED.items()) for t in sorted(targets)
             if t not in found.get(b, {})]
    assert not stale, "remove these from ALLOWED (the battery no longer imports them):\n" + "\n".join(stale)


def test_allowed_names_batteries_and_internal_modules():
    known = graph.modules()
    assert set(ALLOWED) <= set(BATTERIES)
    for b, targets in ALLOWED.items():
        for t, why in targets.items():
            assert _internal(t) and t in known, f"{b} -> {t}: not an internal padax module"
            assert why.strip(), f"{b} -> {t}: give the reason"
