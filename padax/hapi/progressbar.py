"""The live progress line of `Model.fit` (Paddle's format: `step 12/23 [====>....] - loss: 0.41 - ETA: 3s - 9ms/step`).

verbose=1 redraws one line in place (carriage return) on a terminal or notebook; verbose=2 prints
one line per update. Values are (name, number or list of numbers) pairs, printed with 4 decimals
(scientific notation below 1e-3).
"""
from __future__ import annotations

import shutil
import sys
import time
from typing import Any, Sequence, TextIO

import numpy as np


def format_value(v: Any) -> str:
    """A logged value as Paddle prints it: floats with 4 decimals, tiny ones in scientific notation."""
    if isinstance(v, np.ndarray) and v.size == 1:
        v = v.item()
    if isinstance(v, (float, np.floating)):
        return f"{v:.4f}" if abs(v) > 1e-3 else f"{v:.4e}"
    return str(v)


def format_values(values: Sequence[tuple[str, Any]]) -> str:
    out = ""
    for name, val in values:
        out += f" - {name}:" + "".join(" " + format_value(v) for v in (val if isinstance(val, list) else [val]))
    return out


def format_rate(seconds_per_step: float, unit: str) -> str:
    if seconds_per_step >= 1 or seconds_per_step == 0:
        return f" - {seconds_per_step:.0f}s/{unit}"
    if seconds_per_step >= 1e-3:
        return f" - {seconds_per_step * 1e3:.0f}ms/{unit}"
    return f" - {seconds_per_step * 1e6:.0f}us/{unit}"


def format_eta(seconds: int) -> str:
    if seconds > 3600:
        return f"{seconds // 3600}:{(seconds % 3600) // 60:02}:{seconds % 60:02}"
    if seconds > 60:
        return f"{seconds // 60}:{seconds % 60:02}"
    return f"{seconds}s"


class ProgressBar:
    """A progress line over `num` steps (None: unknown length) written to `file`.

    Args:
        num: the number of steps, or None when unknown.
        width: the bar's width in characters.
        verbose: 1 redraws one line in place (on a terminal or notebook), 2 or 3 print a line per update.
        start: start the clock now.
        file: where to write (default sys.stdout).
        name: the label before the step count.

    Returns:
        The progress bar; call `update(step, values)`.

    Examples:
        >>> import io
        >>> import padax
        >>> out = io.StringIO()
        >>> bar = padax.hapi.ProgressBar(num=2, file=out)
        >>> bar.update(1, [("loss", 0.5)])
        >>> bar.update(2, [("loss", 0.25)])
        >>> print(out.getvalue().strip().splitlines()[-1])  # doctest: +ELLIPSIS
        step 2/2 [==============================] - loss: 0.2500 - ...
    """

    def __init__(self, num: int | None = None, width: int = 30, verbose: int = 1, start: bool = True,
                 file: TextIO | None = None, name: str = "step"):
        if num is not None and (not isinstance(num, int) or num <= 0):
            raise TypeError(f"ProgressBar: num must be None or a positive integer, got {num!r}")
        self._num, self._verbose, self.name = num, verbose, name
        self.file = file if file is not None else sys.stdout
        columns = shutil.get_terminal_size().columns or 80
        self._width = max(1, min(width, int(columns * 0.6), columns - 50))
        self._total_width = 0
        self._dynamic = (getattr(self.file, "isatty", lambda: False)() or "ipykernel" in sys.modules)
        self._start = time.time() if start else None

    def start(self) -> None:
        self.file.flush()
        self._start = time.time()

    def _bar(self, current: int) -> str:
        if self._num is None:
            return f"{self.name} {current:3}"
        digits = len(str(self._num))
        text = f"{self.name} {current:{digits}d}/{self._num} ["
        filled = int(self._width * current / self._num)
        if filled > 0:
            text += "=" * (filled - 1) + (">" if current < self._num else "=")
        return text + "." * (self._width - filled) + "]"

    def update(self, current_num: int, values: Sequence[tuple[str, Any]] = ()) -> None:
        """Show progress `current_num` of `num` with `values`, the mean step time and the ETA."""
        if self._start is None:
            self._start = time.time()
        per_step = (time.time() - self._start) / current_num if current_num else 0.0
        rate = format_rate(per_step, self.name)
        if self._verbose == 1:
            previous = self._total_width
            bar = self._bar(current_num)
            info = format_values(values)
            if self._num is not None and current_num < self._num:
                info += " - ETA: " + format_eta(int(per_step * (self._num - current_num)))
            info += rate
            self._total_width = len(bar) + len(info)
            if previous > self._total_width:
                info += " " * (previous - self._total_width)
            if self._num is None or current_num >= self._num:
                info += "\n"
            self.file.write(("\r" if self._dynamic else "\n") + bar + info)
            self.file.flush()
        elif self._verbose in (2, 3):
            count = (f"{self.name} {current_num:{len(str(self._num))}d}/{self._num}" if self._num
                     else f"{self.name} {current_num:3}")
            self.file.write(count + format_values(values) + rate + "\n")
            self.file.flush()
