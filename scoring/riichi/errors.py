"""The one error type of the riichi package: a request that cannot be settled or a hand
that cannot be valued. The message always starts with the field at fault, so a front end
can show it as is (no traceback)."""

from __future__ import annotations

from ...errors import SYNTAX, MjscoreError

IMPOSSIBLE = "impossible_result"   # well-formed, but no EMA hand ends this way (a miscount at the table)


class RiichiInputError(MjscoreError, ValueError):
    """Invalid riichi input; ``field`` names the offending field (dotted path). ``code`` is
    ``syntax`` (a field of the wrong shape or value) or :data:`IMPOSSIBLE`."""

    def __init__(self, field: str, problem: str, code: str = SYNTAX) -> None:
        self.field = field
        self.problem = problem
        self.code = code
        super().__init__(f"{field}: {problem}")
