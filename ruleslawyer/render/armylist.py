"""Render the army list reference sheet: HTML from the shared Jinja templates, PDF by WeasyPrint.

    sheet_html(sheet, standalone=True) -> str
    write_sheet(sheet, out) -> Path          (.html or .pdf, chosen by the suffix)
"""
from __future__ import annotations

from pathlib import Path

from ..errors import RuleslawyerError
from .templating import TEMPLATES, make_env


class SheetError(RuleslawyerError):
    """The sheet cannot be written where asked."""


def sheet_html(sheet, *, standalone: bool = True) -> str:
    """The sheet as HTML; `standalone=False` gives the body alone (with its style), for a site page."""
    from markupsafe import Markup

    css = Markup((TEMPLATES / "armylist" / "sheet.css").read_text(encoding="utf-8"))
    return make_env().get_template("armylist/sheet.html").render(sheet=sheet, css=css, standalone=standalone)


def write_sheet(sheet, out: str | Path) -> Path:
    """Write the sheet to `out` (.html/.htm, or .pdf through WeasyPrint)."""
    path = Path(out)
    suffix = path.suffix.lower()
    if suffix not in (".pdf", ".html", ".htm"):
        raise SheetError(f"{path}: the output must end in .pdf or .html")
    html = sheet_html(sheet)
    from ..outputs import atomic_output

    if suffix == ".pdf":  # through a temporary file, renamed only once complete
        from weasyprint import HTML

        with atomic_output(path, mode="wb") as handle:
            HTML(string=html).write_pdf(handle)
    else:
        with atomic_output(path) as handle:
            handle.write(html)
    return path


def write_list_sheet(store, list_path: str | Path, out: str | Path):
    """Read the list, check it against the store (errata applied) and write its sheet to `out`.
    Returns (path written, the ListCheck)."""
    from ..ingest.sources.armylists import load_list
    from ..library.armylist import check_list
    from ..library.armylist_sheet import build_sheet
    from ..library.corpus import load_corpus

    corpus = load_corpus(store)
    records = corpus.records
    result = check_list(load_list(list_path), records, printings=corpus.printings)
    return write_sheet(build_sheet(result, records), out), result


def write_list_page(store, list_path: str | Path, site_dir: str | Path, name: str = "army-list.html") -> Path:
    """The site's army list page: the sheet as a standalone page in `site_dir`."""
    folder = Path(site_dir)
    folder.mkdir(parents=True, exist_ok=True)
    path, _ = write_list_sheet(store, list_path, folder / name)
    return path
