"""Import on first use: "module:attribute" specs for loaders, parsers, views and commands.

Registries name their entries this way so that start-up imports nothing heavy: a command that
never touches PDFs never imports pdfplumber.
"""
from __future__ import annotations

import importlib
from typing import Any


def load(spec: str) -> Any:
    """The attribute a "package.module:attribute" spec names, importing its module."""
    module_name, attribute = spec.split(":")
    return getattr(importlib.import_module(module_name), attribute)
