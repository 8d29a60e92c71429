"""The library's own exceptions. The CLI turns them into one-line messages; nothing here imports click."""
from __future__ import annotations


class RuleslawyerError(Exception):
    """Base class of every error the library raises on purpose (bad input, not a bug)."""

    hint: str | None = None

    def __init__(self, message: str, *, hint: str | None = None):
        super().__init__(message)
        if hint is not None:
            self.hint = hint


class LoadError(RuleslawyerError):
    """A file could not be turned into a Document: corrupt, encrypted, empty, wrong format."""

    def __init__(self, path, reason: str, *, hint: str | None = None):
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{self.path}: {reason}", hint=hint)


class StoreError(RuleslawyerError):
    """The record store cannot be opened or written."""


class NotFoundError(RuleslawyerError):
    """A lookup by name found nothing. `suggestions` lists close names."""

    def __init__(self, message: str, suggestions: list[str] | None = None, *, hint: str | None = None):
        self.suggestions = list(suggestions or [])
        super().__init__(message, hint=hint)


class AmbiguousNameError(RuleslawyerError):
    """A lookup by name matched several records; `candidates` lists them."""

    def __init__(self, message: str, candidates: list, *, hint: str | None = None):
        self.candidates = list(candidates)
        super().__init__(message, hint=hint)


class QueryError(RuleslawyerError):
    """A search query or lookup option is malformed."""
