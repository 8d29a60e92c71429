"""Value classes without `dataclasses`, for the modules a search process imports.

Importing dataclasses imports inspect (and with it ast, dis, tokenize): about 10 ms, a
quarter of a bare `python -c pass`, in a `ruleslawyer search` whose budget is 3x that. A
class lists its fields in `FIELDS` (name, default; a default that is a type -- list, set,
dict -- makes a fresh empty one per object, as `field(default_factory=...)` does) and gets
the keyword/positional constructor, equality and repr a dataclass would give it.
"""
from __future__ import annotations

_REQUIRED = object()


class Plain:
    """Base of the value classes: subclasses set FIELDS = (("name", default or REQUIRED), ...)."""

    FIELDS: tuple = ()
    REQUIRED = _REQUIRED
    FROZEN = False

    def __init__(self, *args, **kwargs):
        if len(args) > len(self.FIELDS):
            raise TypeError(f"{type(self).__name__} takes at most {len(self.FIELDS)} arguments")
        for i, (name, default) in enumerate(self.FIELDS):
            if i < len(args):
                if name in kwargs:
                    raise TypeError(f"{type(self).__name__} got {name!r} twice")
                value = args[i]
            elif name in kwargs:
                value = kwargs.pop(name)
            elif default is _REQUIRED:
                raise TypeError(f"{type(self).__name__} needs {name!r}")
            else:
                value = default() if isinstance(default, type) else default
            object.__setattr__(self, name, value)
        unknown = set(kwargs) - {name for name, _ in self.FIELDS}
        if unknown:
            raise TypeError(f"{type(self).__name__} got unexpected {sorted(unknown)}")

    def __setattr__(self, name, value):
        if self.FROZEN:
            raise AttributeError(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name, _ in self.FIELDS)

    def __eq__(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self):
        if not self.FROZEN:
            raise TypeError(f"unhashable type: {type(self).__name__!r}")
        return hash(self._values())

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name, _ in self.FIELDS)
        return f"{type(self).__qualname__}({inner})"
