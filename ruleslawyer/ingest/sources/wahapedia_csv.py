"""Reading the tables of a Wahapedia CSV export: pipe-separated, unquoted, one header row.

Every table is read by header name. What cannot be read whole is said, never dropped quietly:
a required column that is missing refuses the export with one line naming the file; a file that
ends inside a row (a truncated download) and rows that are too short are warnings, one per
problem. A copy damaged by a spreadsheet re-save (each line wrapped in quotes, the commas of the
text turned into `|`) is recognised from its header and refused with one line saying so.
"""
from __future__ import annotations

from pathlib import Path

from ...errors import LoadError

DAMAGED = ("every line is wrapped in quotes and the commas in its text became '|' (damaged by a re-save "
           "in a spreadsheet?); download the export again")


def check_not_damaged(path: Path, header_line: str) -> None:
    """Refuse a table whose lines are wrapped in quotes: the tell-tale of a re-saved export."""
    line = header_line.strip()
    if len(line) > 2 and line.startswith('"') and line.endswith('"') and "|" in line:
        raise LoadError(path, f"not a readable Wahapedia export: {DAMAGED}")


def decode(path: Path, data: bytes, warnings: list[str] | None = None) -> str:
    """The text of a table: UTF-8 (with or without a BOM), UTF-16 by its BOM, else cp1252 with a warning."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            raise LoadError(path, f"not UTF-8 text ({exc.reason})") from None
        if warnings is not None:
            warnings.append(f"{path.name}: not UTF-8 ({exc.reason} at byte {exc.start}); read as Windows-1252")
        return text


def _read(path: Path) -> bytes:
    from ..formats import read_file

    return read_file(path)  # a regular file only, within the size limit; LoadError otherwise


def read_header(path: Path) -> list[str]:
    """The column names of a Wahapedia CSV (its first line)."""
    line = decode(path, _read(path)).split("\n", 1)[0].rstrip("\r")
    check_not_damaged(path, line)
    return _split(line)


def _split(line: str) -> list[str]:
    fields = line.rstrip("\r\n").split("|")
    if fields and fields[-1] == "":  # every row ends with a `|`
        fields.pop()
    return fields


def _whole_row(line: str, width: int) -> bool:
    """A line that is a complete row on its own: at least `width` fields and the closing `|`."""
    return line.endswith("|") and len(_split(line)) >= width


def read_table(path: Path, required: tuple[str, ...] = (), warnings: list[str] | None = None) -> list[dict[str, str]]:
    """Rows of a Wahapedia CSV as dicts keyed by header name (all values strings).

    `required` names columns the caller cannot do without; a file lacking one is a LoadError.
    Rows that cannot be read whole are reported in `warnings` (when given) and left out.
    """
    raw = decode(path, _read(path), warnings)
    lines = raw.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    check_not_damaged(path, lines[0])
    header = _split(lines[0])
    if not header or not header[0]:
        raise LoadError(path, "no header row")
    missing = [c for c in required if c not in header]
    if missing:
        raise LoadError(path, f"no {', '.join(repr(c) for c in missing)} column (is this a Wahapedia export?)")
    width = len(header)
    terminated = lines[0].rstrip("\r").endswith("|")  # rows end with `|` too: an unended row continues
    text_col = next((i for i, h in enumerate(header) if h == "description"), width - 1)
    rows: list[dict[str, str]] = []
    pending = ""
    start = 0  # the line (1 = the header) where the pending row began
    for number, raw_line in enumerate(lines[1:], 2):
        if not pending:
            start = number
        line = pending + raw_line if pending else raw_line
        if not line.strip():
            pending = ""
            continue
        fields = _split(line)
        if fields == header:  # a header row repeated inside the table
            pending = ""
            continue
        if len(fields) < width or (terminated and not line.endswith("|")):
            pending = line + "\n"  # a newline inside a text cell: read on
            continue
        if len(fields) > width and terminated and pending.endswith("|\n") and _whole_row(raw_line, width):
            # A row that ended with too few fields (a damaged row, not a text cell running on): it
            # would swallow the row after it. Said and left out; the row after it is read on its own.
            short = len(_split(pending))
            if warnings is not None:
                warnings.append(f"{path.name}: line {start}: a row of {short} fields where the header has {width}; "
                                "left out")
            fields = _split(raw_line)
        pending = ""
        if len(fields) > width:  # an unquoted `|` inside the text column
            extra = len(fields) - width
            fields[text_col:text_col + extra + 1] = ["|".join(fields[text_col:text_col + extra + 1])]
        rows.append(dict(zip(header, fields)))
    if pending.strip() and warnings is not None:
        warnings.append(f"{path.name}: the file ends inside a row (truncated?); {pending.count(chr(10))} "
                        f"line(s) after row {len(rows)} were not read")
    return rows


def is_11th_export(path: Path) -> bool:
    """11th edition columns (SUPPORT, Detachment Points) or the export's own 11th edition links."""
    if "is_support" in read_header(path / "Datasheets.csv"):
        return True
    if (path / "Detachments.csv").is_file() and "dp" in read_header(path / "Detachments.csv"):
        return True
    try:
        return "wh40k11ed" in (path / "Factions.csv").read_text(encoding="utf-8-sig", errors="replace")[:65536]
    except OSError:
        return False
