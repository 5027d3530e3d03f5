"""ModelAverage: a running average of the parameters over a sliding window of recent steps, swapped into the
model for evaluation (`apply()`) and swapped back (`restore()`)."""
from __future__ import annotations

import contextlib
from typing import Any, Iterator

import padax
from padax.core.errors import op_value_error

__all__ = ["ModelAverage"]

_MAX_NUM_ACCUMULATES = 16384  # sums are moved to a second buffer this often, against precision loss (as Paddle)


class ModelAverage:
    """Paddle's `paddle.incubate.ModelAverage(average_window_rate, parameters, min_average_window,
    max_average_window)`.

    Each `step()` adds the current parameters to running sums. When the window (the number of steps summed
    since the last reset) reaches at least min_average_window and at least min(max_average_window,
    num_updates * average_window_rate), the sum becomes the "old" sum and a new window starts, so the average
    covers between one and two windows of recent steps. `apply()` (a context manager) puts the average
    (sum of the sums / number of summed steps) into the parameters, and restores them on exit unless
    need_restore=False; `restore()` puts the saved values back.

    Args:
        average_window_rate: the window length as a fraction of the number of updates.
        parameters: the parameters averaged (e.g. model.parameters()).
        min_average_window, max_average_window: the bounds of the window length, in steps.

    Examples:
        >>> import padax
        >>> from padax.incubate import ModelAverage
        >>> w = padax.to_tensor([0.0])
        >>> w.stop_gradient = False
        >>> ma = ModelAverage(0.5, parameters=[w], min_average_window=10, max_average_window=20)
        >>> for v in (1.0, 2.0, 3.0):
        ...     _ = w.set_value(padax.to_tensor([v]))
        ...     w.grad = padax.zeros([1])
        ...     ma.step()
        >>> with ma.apply():
        ...     w.tolist()
        [2.0]
        >>> w.tolist()
        [3.0]
    """

    def __init__(self, average_window_rate: float, parameters: Any = None, min_average_window: int = 10000,
                 max_average_window: int = 10000, name: str | None = None) -> None:
        if parameters is None:
            raise op_value_error("ModelAverage", "parameters must be given (e.g. model.parameters())")
        if float(average_window_rate) <= 0:
            raise op_value_error("ModelAverage", f"average_window_rate must be > 0, got {average_window_rate}")
        if int(min_average_window) > int(max_average_window):
            raise op_value_error("ModelAverage", f"min_average_window ({min_average_window}) must be <= "
                                                 f"max_average_window ({max_average_window})")
        self._parameter_list = list(parameters)
        self.average_window = float(average_window_rate)
        self.min_average_window, self.max_average_window = int(min_average_window), int(max_average_window)
        self.type = "average_accumulates"
        self._acc: dict[int, dict] = {}

    def _slot(self, p: Any) -> dict:
        acc = self._acc.get(id(p))
        if acc is None:
            z = padax.zeros(p.shape, p.dtype)
            acc = self._acc[id(p)] = {"sum_1": z, "sum_2": z, "sum_3": z, "restore": z, "num_accumulates": 0,
                                      "old_num_accumulates": 0, "num_updates": 0}
        return acc

    def _accumulate(self, p: Any, acc: dict) -> None:
        acc["num_updates"] += 1
        acc["num_accumulates"] += 1
        acc["sum_1"] = acc["sum_1"] + p
        if acc["num_updates"] % _MAX_NUM_ACCUMULATES == 0:
            acc["sum_2"] = acc["sum_2"] + acc["sum_1"]
            acc["sum_1"] = padax.zeros_like(acc["sum_1"])
        n = acc["num_accumulates"]
        if n >= self.min_average_window and n >= min(self.max_average_window,
                                                     acc["num_updates"] * self.average_window):
            acc["sum_3"] = acc["sum_1"] + acc["sum_2"]
            acc["sum_1"] = padax.zeros_like(acc["sum_1"])
            acc["sum_2"] = padax.zeros_like(acc["sum_2"])
            acc["old_num_accumulates"], acc["num_accumulates"] = n, 0

    def step(self) -> None:
        """Add the parameters that have a gradient (after `loss.backward()`) to the running sums."""
        with padax.no_grad():
            for p in self._parameter_list:
                self._slot(p)
                if not p.stop_gradient and p.grad is not None:
                    self._accumulate(p, self._acc[id(p)])

    def minimize(self, loss: Any, startup_program: Any = None, parameters: Any = None,
                 no_grad_set: Any = None) -> None:
        """Paddle's dygraph `minimize`: one `step()`."""
        self.step()

    @contextlib.contextmanager
    def apply(self, executor: Any = None, need_restore: bool = True) -> Iterator[None]:
        """Put the averaged values into the parameters for the `with` block; restore them after it unless
        need_restore=False."""
        with padax.no_grad():
            for p in self._parameter_list:
                acc = self._slot(p)
                acc["restore"] = p * 1
                total = (acc["sum_1"] + acc["sum_2"] + acc["sum_3"]).astype("float32")
                count = float(acc["num_accumulates"] + acc["old_num_accumulates"])
                p.set_value((total / count).astype(p.dtype))
        try:
            yield
        finally:
            if need_restore:
                self.restore()

    def restore(self, executor: Any = None) -> None:
        """Put back the parameter values saved by `apply()`."""
        with padax.no_grad():
            for p in self._parameter_list:
                p.set_value(self._slot(p)["restore"])

    def clear_grad(self, set_to_zero: bool = True) -> None:
        """Reset the parameters' gradients."""
        for p in self._parameter_list:
            p.clear_grad(set_to_zero)

    clear_gradients = clear_grad

    def __repr__(self) -> str:
        return (f"ModelAverage(average_window_rate={self.average_window}, min_average_window="
                f"{self.min_average_window}, max_average_window={self.max_average_window})")
