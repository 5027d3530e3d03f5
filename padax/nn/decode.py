"""Step-by-step decoding as Paddle's paddle.nn.decode: the Decoder interface, beam search, dynamic_decode.

A decoder's `initialize(inits)` gives (inputs, states, finished) and `step(time, inputs, states)`
gives (outputs, next_states, next_inputs, finished); `dynamic_decode` repeats the step until every
sequence is finished (or max_step_num is passed) and stacks the outputs over time. Eagerly this
is a Python loop that stops as soon as all are finished, as in Paddle. Inside a traced function
(jit) the number of steps must be static: there max_step_num is required, and the loop is a
`scan` of max_step_num + 1 steps whose finished entries keep their state, so the outputs have that
fixed length.

`generate` (padax's) continues token sequences with a language model `model(tokens, cache) -> (logits,
cache)`, greedy or sampled (top-k / top-p), compiled as one while_loop over a preallocated cache.
"""
from __future__ import annotations

import abc
from typing import Any, Callable, NamedTuple

import numpy as np

from padax import dtypes, tree_util
from padax.core.errors import op_value_error
from padax.functional import math as M, reduction as R
from padax.functional._arrays import asarray, broadcast_to
from padax.functional.creation import full, zeros_like
from padax.functional.indexed import take_along
from padax.functional.lax.control import scan
from padax.functional.manipulation import moveaxis, reshape, stack, unsqueeze
from padax.nn._generation import generate  # noqa: F401 (decode's name for it)
from padax.nn.functional.activation import log_softmax
from padax.nn.functional.extension import gather_tree
from padax.random import _state as _global_rng

_KINF = 1e9  # Paddle's "minus infinity" for impossible beams


class Decoder(abc.ABC):
    """The interface `dynamic_decode` drives: initialize, step and (optionally) finalize."""

    @abc.abstractmethod
    def initialize(self, inits: Any) -> tuple[Any, Any, Any]:
        """(initial inputs, initial states, initial finished flags) from the caller's `inits`."""

    @abc.abstractmethod
    def step(self, time: Any, inputs: Any, states: Any, **kwargs: Any) -> tuple[Any, Any, Any, Any]:
        """(outputs, next_states, next_inputs, finished) of one decoding step."""

    def finalize(self, outputs: Any, final_states: Any, sequence_lengths: Any) -> tuple[Any, Any]:
        """Post-processing of the stacked outputs; by default they are returned unchanged."""
        return outputs, final_states

    @property
    def tracks_own_finished(self) -> bool:
        """True when step() keeps its own finished flags (dynamic_decode then leaves them alone)."""
        return False


def _map(fn: Callable, *trees: Any) -> Any:
    return tree_util.tree_map(fn, *trees)


class BeamSearchDecoder(Decoder):
    """Beam search over a cell's outputs: keeps the beam_size best partial sequences per batch entry,
    scoring by summed token log-probabilities; finished beams only extend with end_token at no cost.

    Args:
        cell: an RNN cell stepping (inputs, states) -> (outputs, new states).
        start_token, end_token: the ids that start and end a sequence.
        beam_size: the number of beams kept per batch entry.
        embedding_fn: maps token ids to the cell's inputs (None: ids are fed as they are).
        output_fn: maps the cell's outputs to vocabulary logits (None: the outputs are logits).

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> cell = padax.nn.GRUCell(4, 4)
        >>> emb, proj = padax.nn.Embedding(5, 4), padax.nn.Linear(4, 5)  # a vocabulary of 5 tokens
        >>> decoder = padax.nn.BeamSearchDecoder(cell, 0, 1, beam_size=2, embedding_fn=emb, output_fn=proj)
        >>> inputs, states, finished = decoder.initialize(cell.get_initial_states(padax.ones([3, 4])))
        >>> inputs.shape, states.log_probs.tolist()[0], finished.shape  # [batch, beam, ...]: one live beam
        ((3, 2, 4), [0.0, -1000000000.0], (3, 2))
    """

    class OutputWrapper(NamedTuple):
        scores: Any
        predicted_ids: Any
        parent_ids: Any

    class StateWrapper(NamedTuple):
        cell_states: Any
        log_probs: Any
        finished: Any
        lengths: Any

    def __init__(self, cell: Any, start_token: int, end_token: int, beam_size: int, embedding_fn: Any = None,
                 output_fn: Any = None) -> None:
        self.cell, self.embedding_fn, self.output_fn = cell, embedding_fn, output_fn
        self.start_token, self.end_token, self.beam_size = start_token, end_token, beam_size

    @staticmethod
    def tile_beam_merge_with_batch(x: Any, beam_size: int) -> Any:
        """[B, ...] -> [B * beam_size, ...], each entry repeated beam_size times in a row."""
        x = asarray(x)
        tiled = broadcast_to(unsqueeze(x, 1), (x.aval.shape[0], beam_size) + x.aval.shape[1:])
        return reshape(tiled, (-1,) + x.aval.shape[1:])

    def _split_batch_beams(self, x: Any) -> Any:
        return reshape(x, (-1, self.beam_size) + x.aval.shape[1:])

    def _merge_batch_beams(self, x: Any) -> Any:
        return reshape(x, (-1,) + x.aval.shape[2:])

    def _expand_to_beam_size(self, x: Any) -> Any:
        return broadcast_to(unsqueeze(x, 1), (x.aval.shape[0], self.beam_size) + x.aval.shape[1:])

    def _gather(self, x: Any, indices: Any) -> Any:
        """x [B, beam, ...] at beam `indices` [B, beam]."""
        idx = reshape(indices, indices.aval.shape + (1,) * (x.aval.ndim - 2))
        return take_along(x, broadcast_to(idx, indices.aval.shape + x.aval.shape[2:]), 1)

    def initialize(self, initial_cell_states: Any) -> tuple[Any, "BeamSearchDecoder.StateWrapper", Any]:
        """Start tokens, cell states tiled over the beams, log-probs [0, -1e9, ...] per entry."""
        state = tree_util.tree_leaves(initial_cell_states)[0]
        batch = state.aval.shape[0]
        cell_states = _map(self._expand_to_beam_size, initial_cell_states)
        inputs = full([batch, self.beam_size], self.start_token, dtypes.int64)
        first = np.array([[0.0] + [-_KINF] * (self.beam_size - 1)], dtype=dtypes.default_float_dtype())
        log_probs = broadcast_to(asarray(first), (batch, self.beam_size))
        finished = full([batch, self.beam_size], False, dtypes.bool_)
        lengths = zeros_like(inputs)
        if self.embedding_fn is not None:
            inputs = self.embedding_fn(inputs)
        return inputs, self.StateWrapper(cell_states, log_probs, finished, lengths), finished

    def _beam_search_step(self, logits: Any, next_cell_states: Any, beam_state: Any) -> tuple[Any, Any]:
        vocab = logits.aval.shape[-1]
        step_lp = log_softmax(logits, axis=-1)
        noend = np.full(vocab, -_KINF, logits.aval.dtype)
        noend[self.end_token] = 0.0
        # a finished beam puts all its probability on end_token
        step_lp = M.where(unsqueeze(beam_state.finished, 2), asarray(noend), step_lp)
        log_probs = M.add(step_lp, unsqueeze(beam_state.log_probs, 2))
        flat = reshape(log_probs, (-1, self.beam_size * vocab))
        top_scores, top_idx = R.topk(flat, self.beam_size)
        beam_idx = M.floor_divide(top_idx, vocab)
        token_idx = M.remainder(top_idx, vocab)
        cell_states = _map(lambda x: self._gather(x, beam_idx), next_cell_states)
        finished = self._gather(beam_state.finished, beam_idx)
        lengths = M.add(self._gather(beam_state.lengths, beam_idx), M.cast(M.logical_not(finished), dtypes.int64))
        finished = M.logical_or(finished, M.equal(token_idx, self.end_token))
        return (self.OutputWrapper(top_scores, token_idx, beam_idx),
                self.StateWrapper(cell_states, top_scores, finished, lengths))

    def step(self, time: Any, inputs: Any, states: Any, **kwargs: Any) -> tuple[Any, Any, Any, Any]:
        """One beam-search step: run the cell on every beam, keep the best beam_size continuations."""
        merged_inputs = _map(self._merge_batch_beams, inputs)
        cell_states = _map(self._merge_batch_beams, states.cell_states)
        outputs, next_cell_states = self.cell(merged_inputs, cell_states, **kwargs)
        outputs = _map(self._split_batch_beams, outputs)
        next_cell_states = _map(self._split_batch_beams, next_cell_states)
        if self.output_fn is not None:
            outputs = self.output_fn(outputs)
        out, state = self._beam_search_step(outputs, next_cell_states, states)
        next_inputs = self.embedding_fn(out.predicted_ids) if self.embedding_fn is not None else out.predicted_ids
        return out, state, next_inputs, state.finished

    def finalize(self, outputs: Any, final_states: Any, sequence_lengths: Any) -> tuple[Any, Any]:
        """The full sequences [T, B, beam], backtracked through the parent beams with gather_tree."""
        return gather_tree(outputs.predicted_ids, outputs.parent_ids), final_states

    @property
    def tracks_own_finished(self) -> bool:
        return True


def _keep_finished(old: Any, new: Any, finished: Any) -> Any:
    """new where the entry is still running, old where it had already finished."""
    mask = reshape(finished, finished.aval.shape + (1,) * (new.aval.ndim - finished.aval.ndim))
    return M.where(mask, old, new)


def _advance(decoder: Decoder, time: Any, inputs: Any, states: Any, finished: Any, lengths: Any,
             impute_finished: bool, kwargs: dict) -> tuple[Any, Any, Any, Any, Any]:
    outputs, next_states, next_inputs, next_finished = decoder.step(time, inputs, states, **kwargs)
    if decoder.tracks_own_finished:
        next_lengths = getattr(next_states, "lengths", lengths)
    else:
        next_finished = M.logical_or(next_finished, finished)
        next_lengths = M.add(lengths, M.cast(M.logical_not(finished), lengths.aval.dtype))
        if impute_finished:
            next_states = _map(lambda old, new: _keep_finished(old, new, finished), states, next_states)
    return outputs, next_states, next_inputs, next_finished, next_lengths


def dynamic_decode(decoder: Decoder, inits: Any = None, max_step_num: int | None = None,
                   output_time_major: bool = False, impute_finished: bool = False, is_test: bool = False,
                   return_length: bool = False, **kwargs: Any) -> tuple[Any, ...]:
    """Run `decoder` until every sequence is finished or max_step_num steps are passed (up to
    max_step_num + 1 steps); returns (outputs, final_states[, sequence_lengths]) with the outputs
    stacked [B, T, ...] (or [T, B, ...] with output_time_major). Extra kwargs go to decoder.step.
    is_test (a memory hint in Paddle) changes nothing here.

    Args:
        decoder: a Decoder (e.g. BeamSearchDecoder).
        inits: what decoder.initialize takes (e.g. the cell's initial states).
        max_step_num: the step limit (None: until all are finished; required under jit).
        output_time_major: stack the outputs [T, B, ...] instead of [B, T, ...].
        impute_finished: keep the states of finished sequences unchanged.
        is_test: accepted for Paddle compatibility.
        return_length: also return the sequence lengths.
        kwargs: passed to decoder.step.

    Returns:
        (outputs, final_states), plus sequence_lengths with return_length.

    Examples:
        >>> import padax
        >>> _ = padax.seed(0)
        >>> cell = padax.nn.GRUCell(4, 4)
        >>> emb, proj = padax.nn.Embedding(5, 4), padax.nn.Linear(4, 5)  # a vocabulary of 5 tokens
        >>> decoder = padax.nn.BeamSearchDecoder(cell, 0, 1, beam_size=2, embedding_fn=emb, output_fn=proj)
        >>> decode = padax.jit(lambda h: padax.nn.dynamic_decode(decoder, h, max_step_num=2, return_length=True))
        >>> ids, states, lengths = decode(cell.get_initial_states(padax.ones([3, 4])))  # a batch of 3
        >>> ids.shape, ids.dtype, lengths.shape  # the predicted ids [batch, steps, beam]
        ((3, 3, 2), dtype('int64'), (3, 2))
    """
    inputs, states, finished = decoder.initialize(inits)
    lengths = M.cast(zeros_like(finished), dtypes.int64)
    if _global_rng._staged():
        outs, states, lengths = _decode_traced(decoder, inputs, states, finished, lengths, max_step_num,
                                               impute_finished, kwargs)
    else:
        outs, states, lengths = _decode_eager(decoder, inputs, states, finished, lengths, max_step_num,
                                              impute_finished, kwargs)
    outs, states = decoder.finalize(outs, states, lengths)
    if not output_time_major:
        outs = _map(lambda x: moveaxis(x, 0, 1), outs)
    return (outs, states, lengths) if return_length else (outs, states)


def _decode_eager(decoder, inputs, states, finished, lengths, max_step_num, impute_finished, kwargs):
    steps, t = [], 0
    while not bool(np.asarray(R.all(finished))):
        time = full([1], t, dtypes.int64)
        out, states, inputs, finished, lengths = _advance(decoder, time, inputs, states, finished, lengths,
                                                          impute_finished, kwargs)
        steps.append(out)
        t += 1
        if max_step_num is not None and t > max_step_num:
            break
    if not steps:
        raise op_value_error("dynamic_decode", "every sequence is finished before the first step: nothing to decode")
    return _map(lambda *xs: stack(xs, axis=0), *steps), states, lengths


def _decode_traced(decoder, inputs, states, finished, lengths, max_step_num, impute_finished, kwargs):
    if max_step_num is None:
        raise op_value_error("dynamic_decode", "inside jit (or another traced function) the number of steps must "
                                               "be static: pass max_step_num (the outputs then have max_step_num + 1 "
                                               "steps)")

    def body(carry, t):
        inputs, states, finished, lengths = carry
        out, states, inputs, finished, lengths = _advance(decoder, unsqueeze(t, 0), inputs, states, finished,
                                                          lengths, impute_finished, kwargs)
        return (inputs, states, finished, lengths), out

    times = asarray(np.arange(max_step_num + 1, dtype=np.int64))
    (_, states, _, lengths), outs = scan(body, (inputs, states, finished, lengths), times)
    return outs, states, lengths
