"""Turning a batch's indices into a host batch (samples, then collation), the same in the main process and
in worker processes; and how a failure is carried from a worker to the main process."""
from __future__ import annotations

import sys
import traceback
from typing import Any, Callable, Iterator

from padax.io.collate import SampleShapeError


class Fetcher:
    """Loads one batch at a time from a map-style or iterable dataset."""

    def __init__(self, dataset: Any, iterable: bool, auto_collate: bool, collate_fn: Callable, drop_last: bool):
        self.dataset, self.iterable, self.auto_collate = dataset, iterable, auto_collate
        self.collate_fn, self.drop_last = collate_fn, drop_last
        self._it: Iterator | None = None

    def _sample(self, idx: Any) -> Any:
        try:
            return self.dataset[idx]
        except Exception as e:
            e.add_note(f"(padax.io.DataLoader: while loading sample index {idx} from {type(self.dataset).__name__})")
            raise

    def _next(self) -> Any:
        if self._it is None:
            self._it = iter(self.dataset)
        return next(self._it)

    def fetch(self, indices: Any) -> Any:
        """The batch for `indices` (a list of indices, or a single index when batching is off);
        StopIteration when an iterable dataset has no (full, under drop_last) batch left."""
        if not self.auto_collate:
            return self.collate_fn(self._next() if self.iterable else self._sample(indices))
        if self.iterable:
            samples = []
            for _ in indices:
                try:
                    samples.append(self._next())
                except StopIteration:
                    break
            if not samples or (self.drop_last and len(samples) < len(indices)):
                raise StopIteration
        else:
            samples = [self._sample(i) for i in indices]
        try:
            return self.collate_fn(samples)
        except SampleShapeError as e:
            raise (e if self.iterable else e.with_indices(list(indices))) from None


class WorkerError(RuntimeError):
    """A DataLoader worker raised an exception that could not be re-raised as its own type.

    Args:
        message: the worker's exception type, where it was raised and its traceback.

    Examples:
        >>> import padax
        >>> issubclass(padax.io.WorkerError, RuntimeError)
        True
    """


_PLAIN = (str, int, float, bool, type(None))


def _plain_args(args: tuple) -> bool:
    return all(isinstance(a, _PLAIN) or (isinstance(a, tuple) and _plain_args(a)) for a in args)


def _exception_class(module: str, qualname: str) -> type | None:
    """A builtin or padax exception class by name, from modules already loaded (nothing is imported
    or run: the worker's message names a class, it cannot make the main process execute code)."""
    if module != "builtins" and module != "padax" and not module.startswith("padax."):
        return None
    obj: Any = sys.modules.get(module)
    for part in qualname.split("."):
        obj = getattr(obj, part, None)
    return obj if isinstance(obj, type) and issubclass(obj, BaseException) else None


class RemoteError:
    """An exception raised in a worker, carried to the main process as its class name, plain arguments
    and formatted traceback (never pickled: the main process rebuilds only builtin and padax types)."""

    def __init__(self, exc: BaseException, worker_id: int, batch: int):
        self.worker_id, self.batch = worker_id, batch
        self.module, self.type_name = type(exc).__module__, type(exc).__qualname__
        self.args = exc.args if _plain_args(exc.args) else None
        self.text = "".join(traceback.format_exception(exc))

    def exception(self) -> BaseException:
        """The worker's exception (its own type where it can be rebuilt), noting where it happened and the
        worker's traceback."""
        where = f"DataLoader worker {self.worker_id} while loading batch {self.batch}"
        cls = _exception_class(self.module, self.type_name) if self.args is not None else None
        exc = None
        if cls is not None:
            try:
                exc = cls(*self.args)
            except Exception:  # a constructor that takes other arguments than its args
                exc = None
        if not isinstance(exc, BaseException):
            return WorkerError(f"{self.type_name} raised in {where}; the worker's traceback:\n{self.text}")
        exc.add_note(f"(raised in {where}; the worker's traceback follows)\n{self.text.rstrip()}")
        return exc
