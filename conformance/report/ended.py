"""A command that ends before (or instead of) its work: what it says and its status."""

from __future__ import annotations

from conformance.report.safe import echo


class Ended(Exception):
    """A problem with what was asked (a `t42:` line on stderr), what the command says on
    stdout after that, and its exit status (2, or 128 + the signal when a stop came first).
    A command catches it in one place."""

    def __init__(self, problem: str | None, *said: str, status: int = 2):
        super().__init__(problem)
        self.problem, self.said, self.status = problem, said, status

    def tell(self) -> int:
        if self.problem is not None:
            echo(f"t42: {self.problem}", err=True)
        for line in self.said:
            echo(line)
        return self.status
