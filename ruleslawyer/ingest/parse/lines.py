"""What every family parser needs of a printed line, beside its text: the name it gives.

`record_name` is how a parser turns a printed heading into a record's name: a name printed in
capitals is rebuilt by the package's one casing rule (`names.title_case`); one printed in mixed
case is kept as printed (FAQ titles and ability names print their own capitals: "Cannot be
Affected by …", "Their Number is Legion").
"""
from __future__ import annotations

from ... import names


def record_name(text: str) -> str:
    """A printed heading as a record name (see the module docstring)."""
    text = text.strip()
    return names.title_case(text) if not any(c.islower() for c in text) else text
