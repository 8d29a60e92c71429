"""Hand-built PDFs and fragments for the PDF loader tests (shared by tests/test_loader_pdf*.py)."""
from __future__ import annotations


def pdf_bytes(objects: list[bytes], trailer_extra: str = "") -> bytes:
    """A minimal PDF with a correct cross-reference table."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{off:010d} 00000 n \n".encode() for off in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R {trailer_extra}>>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def pages_pdf(contents: list[bytes], size: tuple[int, int] = (200, 200), extra: list[bytes] = (),
              trailer_extra: str = "") -> bytes:
    """A PDF of one page per content stream; fonts /F1 Helvetica, /F2 Courier, /F3 Helvetica-Bold."""
    n = len(contents)
    kids = " ".join(f"{3 + 2 * k} 0 R" for k in range(n))
    fonts = 3 + 2 * n  # object numbers of the fonts
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", f"<< /Type /Pages /Kids [{kids}] /Count {n} >>".encode()]
    for k, content in enumerate(contents):
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {size[0]} {size[1]}] /Contents {4 + 2 * k} 0 R"
                       f" /Resources << /Font << /F1 {fonts} 0 R /F2 {fonts + 1} 0 R /F3 {fonts + 2} 0 R >> >> >>".encode())
        objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
    objects += [b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
                b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>",
                b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>", *extra]
    return pdf_bytes(objects, trailer_extra)


def frag(text: str, x0: float, top: float, size: float):
    """A fragment of evenly spaced glyphs (half an em each) starting at (x0, top)."""
    from ruleslawyer.ingest.load.pdf_layout import Char, Fragment

    w = 0.5 * size
    chars = [Char(ch, x0 + k * w, x0 + (k + 1) * w, top, top + size, size, False, False, None)
             for k, ch in enumerate(text)]
    return Fragment(chars, x0, x0 + len(text) * w, top, top + size, size)
