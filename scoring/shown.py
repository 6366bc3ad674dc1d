"""Values from a request as they are quoted back in a message: short, and safe for any
JSON-like input (deep nesting, numbers of thousands of digits, long strings), so that
writing the message can never fail where the request itself is the problem."""

from __future__ import annotations

import reprlib

MAX_WHOLE = 10 ** 9      # the largest count or score a request may hold (points, counters, sticks)


class _Short(reprlib.Repr):
    def __init__(self) -> None:
        super().__init__()
        self.maxlevel, self.maxstring, self.maxother, self.maxlong = 3, 40, 40, 40

    def repr_int(self, x, level):                      # str() refuses ints over 4300 digits
        if x.bit_length() > 128:
            return f"<a number of {x.bit_length()} bits>"
        return super().repr_int(x, level)


_SHORT = _Short()


def shown(value) -> str:
    """``repr`` of a request value, cut short (``[[[...]]]``, ``'aaaa...aaa'``)."""
    return _SHORT.repr(value)


def whole_number(value) -> bool:
    """A JSON whole number 0..MAX_WHOLE (``true``/``false`` are not numbers)."""
    return not isinstance(value, bool) and isinstance(value, int) and 0 <= value <= MAX_WHOLE
