"""A pause of the cyclic garbage collector around the site's bulk work."""
from __future__ import annotations

import contextlib
import gc


@contextlib.contextmanager
def gc_paused():
    """Pause the cyclic garbage collector (gathering and writing make no cycles worth collecting).

    Both allocate several hundred thousand small containers next to a corpus of millions of
    objects; the collector's full passes over that heap, which free nothing, took half the
    gathering time for 50,000 records.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            # The collections right after enabling would scan every object made while paused,
            # and again when they reach the middle generation (0.2-1.2 s per rebuild of 50,000
            # records, freeing nothing): what exists now is long-lived and acyclic, so move it
            # out of the collector's sight. Objects freed by reference counting still are.
            gc.freeze()
            gc.enable()
