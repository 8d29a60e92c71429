"""The `ruleslawyer` entry point.

The command group itself is click's (`group.py`), imported on first use; its commands are the
`ruleslawyer.commands` entry points (ruleslawyer/registry.py: ours in pyproject.toml, and any
plugin's), each module imported only when its command runs.

`cli` is the group for everyone else too (tests invoke it with click's CliRunner; command
modules import `pass_app` and friends from here): attributes not defined here come from
`group.py` on first use.
"""
from __future__ import annotations

# What command modules and tests import from here; defined in group.py (click).
_FROM_GROUP = ("pass_app", "printable", "UserError", "raise_user_error", "AppContext", "LazyGroup")


class _Entry:
    """The click group `group.cli`, imported when first called or looked into."""

    def __call__(self, *args, **kwargs):
        return _group().cli(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(_group().cli, name)

    def __repr__(self) -> str:
        return repr(_group().cli)


def _group():
    from . import group

    return group


cli = _Entry()


def __getattr__(name: str):
    if name in _FROM_GROUP:
        return getattr(_group(), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
