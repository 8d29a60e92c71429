"""ruleslawyer: a rules reference for tabletop wargames built from the documents players own."""

__version__ = "0.1.0"
