"""The files of a built site as the manifest remembers them, and writing them safely.

The manifest keeps, for every file it wrote, its size and SHA-1 ("size:sha1", the same for the
same bytes, so builds stay deterministic). A rebuild compares each file with that entry: a file
of another size, or modified after the manifest was written and no longer hashing the same, was
damaged or edited, and is written again. The time is only a shortcut (a file older than the
manifest and of the right size is what the build left), so a file touched but unchanged still
matches.

Writing never leaves a file that blocks the build: a file where the site needs a folder (the
page folder replaced by a file, say) is removed. Render workers ask the kernel to kill them
when the build process dies, so a killed build leaves no orphans writing into the folder.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

from ..errors import RuleslawyerError


class SiteError(RuleslawyerError):
    """The site cannot be written where asked."""


def entry_for(data: bytes) -> str:
    """The manifest entry of a file holding `data`."""
    return f"{len(data)}:{hashlib.sha1(data).hexdigest()}"


def entry_of_file(path: Path) -> str | None:
    """The manifest entry of the file at `path` as it is now (None when it cannot be read)."""
    try:
        return entry_for(path.read_bytes())
    except OSError:
        return None


def matches(path: Path, entry: str | None, since_ns: int) -> bool:
    """True when the file at `path` still holds what `entry` says was written there.

    `since_ns` is when the manifest was written: an older file of the right size is trusted,
    a newer one is hashed.
    """
    if not entry:
        return False
    size, _, sha = entry.partition(":")
    try:
        st = os.stat(path)
    except OSError:
        return False
    if str(st.st_size) != size:
        return False
    if st.st_mtime_ns <= since_ns:
        return True
    try:
        return hashlib.sha1(path.read_bytes()).hexdigest() == sha
    except OSError:
        return False


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file and a rename: readers (and a build
    killed half-way) see the old file or the new one, never a part."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def clear_way(path: Path) -> None:
    """Make the folder of `path` exist, removing a plain file that stands where a folder of it must be.

    Raises SiteError when a folder stands where the file itself must go.
    """
    if path.is_dir():
        raise SiteError(f"{path}: is a folder where the site writes a file",
                        hint="remove it, or build with --force into a new folder")
    for parent in reversed(path.parents):
        if parent.exists() and not parent.is_dir():
            parent.unlink()  # a file where the site keeps a folder: it holds nothing of ours
            break
    path.parent.mkdir(parents=True, exist_ok=True)


def die_with_parent(parent: int) -> None:
    """Ask the kernel to kill this process when its parent dies (Linux; elsewhere a no-op).

    Used as the render pool's initializer: a build killed with SIGKILL cannot stop its
    workers itself.
    """
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the request was made
        os._exit(1)
