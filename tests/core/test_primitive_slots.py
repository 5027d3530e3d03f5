"""The rule slots of a Primitive: declared on every primitive, set by attribute or by the def_* decorators."""
from __future__ import annotations

import numpy as np

import padax
from padax.core.ad_util import Zero
from padax.extend.core import Primitive

SLOTS = ("abstract_eval", "jvp_rule", "transpose_rule", "batch_rule", "partial_eval_rule", "collective_batch_rule",
         "effects_rule")


def test_every_slot_is_declared():
    p = Primitive("slots_probe")
    for slot in SLOTS:
        assert getattr(p, slot) is None, slot
    assert p.batch_rule_takes_trace is False and p.taylor_pointwise is False and p.inline_jaxpr_param is None


def test_def_decorators_fill_the_slots():
    """A user-defined linear primitive (3x) with its jvp, transpose and batch rules set by def_*:
    grad goes through the transpose, vmap through the batch rule."""
    triple = Primitive("example_triple")
    triple.def_impl(lambda x: x * 3.0)
    triple.def_abstract_eval(lambda x: x)

    @triple.def_jvp
    def _jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return triple.bind(x), (t if type(t) is Zero else triple.bind(t))

    @triple.def_transpose
    def _transpose(ct, x):
        return [None if type(ct) is Zero else triple.bind(ct)]

    seen = []

    @triple.def_batch
    def _batch(args, dims):
        seen.append(list(dims))
        return triple.bind(args[0]), dims[0]

    assert triple.jvp_rule is _jvp and triple.transpose_rule is _transpose and triple.batch_rule is _batch
    x = padax.to_tensor([1.0, 2.0])
    np.testing.assert_allclose(padax.grad(lambda v: triple.bind(v).sum())(x).numpy(), [3.0, 3.0])
    np.testing.assert_allclose(padax.vmap(triple.bind)(padax.to_tensor([[1.0], [2.0]])).numpy(), [[3.0], [6.0]])
    assert seen == [[0]]
    np.testing.assert_allclose(padax.jvp(triple.bind, (x,), (padax.to_tensor([1.0, 0.5]),))[1].numpy(), [3.0, 1.5])
