"""A stable fingerprint of a jaxpr, so a warm process can find its compiled program without lowering it.

The persistent compilation cache is keyed by what XLA compiles; finding that
key from the lowered module means lowering first (and importing jaxlib's MLIR
bindings and every lowering rule). A jaxpr whose every part has a faithful,
process-independent byte form gets a SHA-256 over it instead: equations in
order, primitives by name, params, avals, literals and the variables' use,
with nested jaxprs in the same form. Source locations are left out (moving a
line does not change the program). Anything without such a form (a Python
function or an unknown object in the params, consts, a primitive not defined
and lowered by padax) gives no fingerprint, and the program is lowered and
keyed by its module as before.
"""
from __future__ import annotations

import enum
import hashlib
import os
import struct
from typing import Any, Callable, Sequence

import numpy as np

from padax.core import primitive as _primitive
from padax.core.abstract import ShapedArray
from padax.core.jaxpr import ClosedJaxpr, Jaxpr, Literal
from padax.core.version import __version__

# Bump when the byte form below changes.
_FORMAT = b"padax-jaxpr-fingerprint-1"


class _NoFingerprint(Exception):
    """Part of the jaxpr has no faithful byte form."""


def program_fingerprint(jaxpr: Jaxpr, name: str, donated: Sequence[bool] = ()) -> bytes | None:
    """SHA-256 over the program `lower_jaxpr(jaxpr, name=name, donated=donated)` would build, or None."""
    h = hashlib.sha256(_FORMAT)
    write = h.update
    try:
        write(_str(name))
        write(repr(tuple(bool(d) for d in donated)).encode())
        _jaxpr(jaxpr, write)
    except _NoFingerprint:
        return None
    h.update(_source_stamp())
    return h.digest()


def _str(s: str) -> bytes:
    b = s.encode()
    return struct.pack("<q", len(b)) + b


_aval_bytes: dict[ShapedArray, bytes] = {}


def _aval(a: Any) -> bytes:
    if type(a) is not ShapedArray:
        raise _NoFingerprint
    b = _aval_bytes.get(a)
    if b is None:
        if len(_aval_bytes) > 4096:
            _aval_bytes.clear()
        form = (tuple(map(int, a.shape)), a.dtype.name, a.dtype.str, bool(a.weak_type))
        b = _aval_bytes[a] = b"A" + repr(form).encode()
    return b


def _jaxpr(j: Jaxpr, write: Callable[[bytes], Any]) -> None:
    ids: dict = {}
    for tag, vs in ((b"C", j.constvars), (b"I", j.invars)):
        write(tag + struct.pack("<q", len(vs)))
        for v in vs:
            ids[v] = len(ids)
            write(_aval(v.aval))

    def atom(v) -> bytes:
        if type(v) is Literal:
            return b"L" + _value(v.val) + _aval(v.aval)
        return b"V" + struct.pack("<q", ids[v])

    for eqn in j.eqns:
        prim = eqn.primitive
        if not prim.lowering_by_padax or _primitive.registry.get(prim.name) is not prim:
            raise _NoFingerprint
        write(b"E" + _str(prim.name) + struct.pack("<qq", len(eqn.invars), len(eqn.outvars)))
        for v in eqn.invars:
            write(atom(v))
        for v in eqn.outvars:
            ids[v] = len(ids)
            write(_aval(v.aval))
        names = sorted(eqn.params) if prim.lowering_params is None else prim.lowering_params
        write(struct.pack("<q", len(names)))
        for k in names:
            if k not in eqn.params:
                raise _NoFingerprint
            write(_str(k))
            _param(eqn.params[k], write)
    write(b"O" + struct.pack("<q", len(j.outvars)))
    for v in j.outvars:
        write(atom(v))


def _value(x: Any) -> bytes:
    """A host scalar or array: its type, dtype, shape and bytes."""
    t = type(x)
    if t is bool or t is int or t is float or t is complex:
        return b"S" + _str(t.__name__) + _str(repr(x))
    if isinstance(x, (np.ndarray, np.generic)):
        a = np.ascontiguousarray(x)
        if a.dtype.hasobject:
            raise _NoFingerprint
        return b"N" + _str(a.dtype.name) + _str(a.dtype.str) + repr(a.shape).encode() + _str(a.tobytes().hex())
    raise _NoFingerprint


def _param(p: Any, write: Callable[[bytes], Any]) -> None:
    t = type(p)
    if p is None:
        write(b"n")
    elif t is str:
        write(b"s" + _str(p))
    elif t is bytes:
        write(b"b" + _str(p.hex()))
    elif isinstance(p, tuple) and hasattr(t, "_fields") and t.__module__.startswith("padax."):
        write(b"T" + _str(f"{t.__module__}.{t.__qualname__}") + struct.pack("<q", len(p)))  # padax's NamedTuples
        for q in p:
            _param(q, write)
    elif t is tuple or t is list:
        write((b"t" if t is tuple else b"l") + struct.pack("<q", len(p)))
        for q in p:
            _param(q, write)
    elif isinstance(p, np.dtype):
        write(b"d" + _str(p.name) + _str(p.str))
    elif t is ShapedArray:
        write(_aval(p))
    elif t is ClosedJaxpr:
        if p.consts:
            raise _NoFingerprint
        write(b"J")
        _jaxpr(p.jaxpr, write)
    elif t is Jaxpr:
        write(b"j")
        _jaxpr(p, write)
    elif isinstance(p, enum.Enum):
        write(b"e" + _str(f"{t.__module__}.{t.__qualname__}.{p.name}"))
        if not t.__module__.startswith("padax."):
            raise _NoFingerprint
    elif t is slice:
        write(b"S")
        for q in (p.start, p.stop, p.step):
            _param(q, write)
    else:
        write(_value(p))


_stamp: list[bytes] = []


_PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the padax package


def _source_stamp() -> bytes:
    """padax's version and the sources a program's lowering depends on (name, size, mtime), once per process:
    an edited lowering rule or primitive never finds a program lowered by its old version."""
    if not _stamp:
        root = _PACKAGE_ROOT
        h = hashlib.sha256(_str(__version__))
        for sub in ("lowering", "core", os.path.join("functional", "lax")):
            for dirpath, dirnames, filenames in os.walk(os.path.join(root, sub)):
                dirnames.sort()
                for f in sorted(filenames):
                    if f.endswith(".py"):
                        path = os.path.join(dirpath, f)
                        try:
                            st = os.stat(path)
                        except OSError:
                            continue
                        h.update(_str(os.path.relpath(path, root)) + struct.pack("<qq", st.st_size, st.st_mtime_ns))
        _stamp.append(h.digest())
    return _stamp[0]
