"""The click command line: thin commands over the library (see `main.py`)."""
