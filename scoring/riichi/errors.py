"""The one error type of the riichi package: a request that cannot be settled or a hand
that cannot be valued. The message always starts with the field at fault, so a front end
can show it as is (no traceback)."""

from __future__ import annotations


class RiichiInputError(ValueError):
    """Invalid riichi input; ``field`` names the offending field (dotted path)."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")
