"""Render the example FAQ of the shipped corpus from its HTML source to PDF.

    python tools/build_corpus_pdf.py

The PDF is committed (ruleslawyer/corpus/core-faq.pdf) so that a fresh install has a PDF to
ingest without running this; rerun it after editing tools/corpus_src/core-faq.html. WeasyPrint
is the project's PDF engine (see the cards), so no other tool is needed.
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    from weasyprint import HTML

    source = ROOT / "tools" / "corpus_src" / "core-faq.html"
    target = ROOT / "ruleslawyer" / "corpus" / "core-faq.pdf"
    HTML(filename=str(source)).write_pdf(str(target))
    print(f"wrote {target.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
