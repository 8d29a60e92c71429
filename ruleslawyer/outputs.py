"""Writing the files a user asks for (exports, cards, sheets) without ever losing what was there.

Every output goes to a temporary file in the target's folder and is renamed over the target
only once complete and flushed to disk: a full disk, a crash or Ctrl-C leaves the old file (or
none), never a truncated one. A target that is the open store, or one of its companion files
(the -wal/-shm/-journal files, the search index beside it), is refused before anything is
written.
"""
from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import IO, Iterator

from .errors import RuleslawyerError
from .paths import index_root
from .storefile import is_disk_full_error

DISK_FULL_HINT = "free some space on that disk (or write somewhere else) and run the command again"


class OutputError(RuleslawyerError):
    """An output file cannot be written where the user asked."""


def store_companions(store_path: str | Path) -> list[Path]:
    """The store file and every file or folder that belongs to it."""
    store = Path(store_path).expanduser().resolve()
    return [store, *(store.with_name(store.name + suffix) for suffix in ("-wal", "-shm", "-journal")), index_root(store)]


def refuse_store_target(target: str | Path, store_path: str | Path | None) -> None:
    """Raise OutputError when `target` is the store, one of its companion files, or inside its index."""
    if store_path is None:
        return
    resolved = Path(target).expanduser().resolve()
    for owned in store_companions(store_path):
        if resolved == owned or owned in resolved.parents:
            raise OutputError(f"{target}: is the store ({owned.name}) or one of its files; nothing was written",
                              hint="write the output to another file name with -o")


def write_error(target: str | Path, exc: OSError) -> OutputError:
    """The one line for an output that could not be written, naming a full disk as one."""
    if is_disk_full_error(exc):
        return OutputError(f"{target}: the disk is full; the file was not written (any earlier one is unchanged)",
                           hint=DISK_FULL_HINT)
    return OutputError(f"{target}: cannot write: {exc.strerror or exc}")


@contextlib.contextmanager
def atomic_output(target: str | Path, *, mode: str = "w", store_path: str | Path | None = None) -> Iterator[IO]:
    """Open a temporary file beside `target` for writing (text with mode "w", bytes with "wb");
    when the block ends without error it is flushed, synced and renamed over `target`.

    On any error the temporary file is removed and `target` is as it was. OSErrors become one
    OutputError line (a full disk named as such).
    """
    target = Path(target)
    refuse_store_target(target, store_path)
    folder = target.expanduser().resolve().parent
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=folder)
    except OSError as exc:
        raise write_error(target, exc) from None
    try:
        with os.fdopen(fd, mode, **({"encoding": "utf-8"} if "b" not in mode else {})) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        if target.exists():  # keep the permissions the user gave the old file
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        else:
            os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except OSError as exc:
        _discard(tmp)
        raise write_error(target, exc) from None
    except BaseException:
        _discard(tmp)
        raise


def _discard(tmp: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(tmp)


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
