"""Serve a built site on localhost, for a look (any static host serves it the same way)."""
from __future__ import annotations

import functools
import http.server
from pathlib import Path

from ..errors import RuleslawyerError


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # one line per request is noise for a preview
        pass


def make_server(out: str | Path, port: int = 8000, host: str = "127.0.0.1") -> http.server.ThreadingHTTPServer:
    """An HTTP server for the folder `out` (not started); port 0 picks a free port."""
    root = Path(out)
    if not (root / "index.html").is_file():
        raise RuleslawyerError(f"{root}: no index.html here", hint="build it first: ruleslawyer site build " + str(root))
    handler = functools.partial(_QuietHandler, directory=str(root))
    try:
        return http.server.ThreadingHTTPServer((host, port), handler)
    except OSError as exc:
        raise RuleslawyerError(f"cannot listen on {host}:{port}: {exc.strerror}", hint="pick another --port") from None
