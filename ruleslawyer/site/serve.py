"""Serve a built site on localhost, for a look (any static host serves it the same way).

Only the site is served: the build's own files (the manifest, the caches, anything whose name
starts with a dot) answer 404, and folders are never listed. A request that cannot name a file
(a NUL byte, a malformed escape) answers 400 without a traceback. Connections are bounded:
an idle one is closed after IDLE_SECONDS, and beyond MAX_CONNECTIONS at once new ones are
refused with 503, so idle clients cannot pile up threads. A request's head (request line and
headers) must arrive within HEAD_SECONDS of the moment the server starts waiting for it, however
slowly it trickles in, so slow clients cannot hold every slot. A path that resolves outside the
site folder (through a symlink) answers 404: only the site's own files are served.
"""
from __future__ import annotations

import functools
import http.server
import os
import posixpath
import socket
import threading
import urllib.parse
from pathlib import Path

from ..errors import RuleslawyerError

IDLE_SECONDS = 15
HEAD_SECONDS = 10  # a whole request head, from the moment the server waits for it
MAX_CONNECTIONS = 256
LISTEN_BACKLOG = 128  # a burst of connections waits in the kernel's queue instead of being dropped


class _SiteHandler(http.server.SimpleHTTPRequestHandler):
    timeout = IDLE_SECONDS  # socket timeout: an idle or slow client is dropped

    def log_message(self, format, *args):  # one line per request is noise for a preview
        pass

    def handle_one_request(self):
        # The socket timeout bounds each read; this bounds the whole head, which a client
        # sending one byte every few seconds would otherwise stretch forever.
        self._head_timer = threading.Timer(HEAD_SECONDS, self._head_too_slow)
        self._head_timer.daemon = True
        self._head_timer.start()
        try:
            super().handle_one_request()
        finally:
            self._head_timer.cancel()

    def parse_request(self):
        ok = super().parse_request()
        self._head_timer.cancel()  # the head is in: the deadline is met
        return ok

    def _head_too_slow(self) -> None:
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def send_head(self):
        path = urllib.parse.urlsplit(self.path).path
        try:
            decoded = urllib.parse.unquote(path, errors="strict")
        except UnicodeDecodeError:
            self.send_error(400, "Bad request path")
            return None
        if "\x00" in decoded or "\\" in decoded:
            self.send_error(400, "Bad request path")
            return None
        parts = [p for p in posixpath.normpath(decoded).split("/") if p]
        if any(p.startswith(".") for p in parts):
            self.send_error(404, "File not found")
            return None
        try:
            target = os.path.realpath(self.translate_path(self.path))
            root = os.path.realpath(self.directory)
            if target != root and not target.startswith(root + os.sep):
                self.send_error(404, "File not found")  # a symlink out of the site folder
                return None
            return super().send_head()
        except (ValueError, OSError):
            self.send_error(400, "Bad request path")
            return None

    def list_directory(self, path):
        self.send_error(404, "File not found")  # a static host does not list folders
        return None


class BoundedServer(http.server.ThreadingHTTPServer):
    """ThreadingHTTPServer with at most MAX_CONNECTIONS connections handled at once."""

    daemon_threads = True
    request_queue_size = LISTEN_BACKLOG

    def __init__(self, *args, **kwargs):
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        super().__init__(*args, **kwargs)

    def process_request(self, request, client_address):
        if not self._slots.acquire(blocking=False):
            try:
                request.sendall(b"HTTP/1.0 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    def handle_error(self, request, client_address):  # a client that went away is not news
        pass


def make_server(out: str | Path, port: int = 8000, host: str = "127.0.0.1") -> BoundedServer:
    """An HTTP server for the folder `out` (not started); port 0 picks a free port."""
    root = Path(out)
    if not isinstance(port, int) or not 0 <= port <= 65535:
        raise RuleslawyerError(f"port {port} is out of range", hint="give a --port from 1 to 65535 (0: any free port)")
    try:
        ok = (root / "index.html").is_file()
    except (OSError, ValueError):
        ok = False
    if not ok:
        raise RuleslawyerError(f"{root}: no index.html here", hint="build it first: ruleslawyer site build " + str(root))
    handler = functools.partial(_SiteHandler, directory=str(root))
    try:
        return BoundedServer((host, port), handler)
    except (OSError, OverflowError) as exc:
        raise RuleslawyerError(f"cannot listen on {host}:{port}: {getattr(exc, 'strerror', None) or exc}",
                               hint="pick another --port") from None
