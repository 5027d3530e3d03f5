"""Errors that speak the user's language: the op, the shapes/dtypes, the user's line."""
from __future__ import annotations

from padax.core.source_info import user_location, user_op


class PadaxError(Exception):
    """Base of padax's own error types."""


class ConcretizationTypeError(PadaxError, TypeError):
    """A traced value was used where Python needs a concrete one (bool, int, numpy)."""


class UnexpectedTracerError(PadaxError):
    """A tracer escaped the transformation that created it and was used later."""


class ForkedProcessError(PadaxError, RuntimeError):
    """padax was used in a child forked after the parent had started XLA's runtime (its threads are gone)."""


class DeletedBufferError(PadaxError, RuntimeError):
    """A Tensor whose device buffer is gone (donated to a jit call with donate_argnums, or deleted) was used."""


class OutOfMemoryError(PadaxError, MemoryError):
    """A device (or the host, for CPU) could not allocate a program's buffers (XLA's RESOURCE_EXHAUSTED)."""


class MissingRuleError(PadaxError, TypeError):
    """A transformation met a primitive that has no rule for it (a user-defined primitive)."""


class ImmutableTensorError(PadaxError, TypeError):
    """An in-place update padax cannot carry out by rebinding the object (`x.add_(y)` on a Tensor from
    outside a jitted function, or on a jitted function's argument), or a gradient-tape setter
    (`x.stop_gradient = False`, `x.requires_grad_()`); the message names the form to use instead."""


def immutable_error(what: str, instead: str) -> ImmutableTensorError:
    return ImmutableTensorError(f"{what}: padax Tensors have no gradient tape and their contents are values, "
                                f"not storage{user_location()}. Use the functional form instead: {instead}")


def missing_rule(prim, rule: str, transform: str, how: str) -> MissingRuleError:
    return MissingRuleError(f"{transform}: primitive '{prim.name}' has no {rule}{user_location()}. Define it "
                            f"({how}) or build the operation from primitives that have one.")


def require_members(cls: type, kind: str, members: dict[str, str]) -> None:
    """At class definition: a TypeError unless `cls` defines every member (name -> how to define it).

    Base classes of extension points (Trace, Sharding, Optimizer, ...) leave these members
    out and check their subclasses here, so a missing one fails when the class is written,
    not with a stub's error in the middle of a run.
    """
    for name, how in members.items():
        if not hasattr(cls, name):
            raise TypeError(f"{cls.__name__}: a {kind} must define {how}")


def _op_path(op: str) -> str:
    """`op`, led by the function the user called when that one failed inside another op
    (`F.mse_loss` whose subtract cannot broadcast: "mse_loss: in subtract")."""
    called = user_op()
    if called is None or called.lower() in op.lower() or op.lower() in called.lower():
        return op
    return f"{called}: in {op}"


def op_type_error(op: str, msg: str) -> TypeError:
    return TypeError(f"{_op_path(op)}: {msg}{user_location()}")


def op_value_error(op: str, msg: str) -> ValueError:
    return ValueError(f"{_op_path(op)}: {msg}{user_location()}")


def shapes_str(*avals) -> str:
    return ", ".join(a.str_short() for a in avals)


def input_error(cls: type[Exception], msg: str) -> Exception:
    """`cls` with `msg` prefixed by the op the user called and followed by the user's line: for
    shared helpers (argument conversion, dtype names) that do not know which op they serve."""
    op = user_op()
    lead = f"{op}: " if op and not msg.startswith(f"{op}: ") else ""
    return cls(f"{lead}{msg}{user_location()}")
