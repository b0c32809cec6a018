#!/usr/bin/env python3
"""Render a synthetic invoice text (pages split by form feeds) into a PDF.

Used to give some of the synthetic invoices in tests/data/invoices a PDF, so
that their .txt is real `pdftotext -layout` output, like the real invoices'.
Each page of the text becomes one A4 page, written line by line in DejaVu
Sans Mono (Latin, Greek, Cyrillic; no CJK, so the Chinese and Japanese
invoices have no PDF). Needs `pip install fpdf2`.

Usage: python3 scripts/render_invoice_pdf.py INPUT.txt OUTPUT.pdf
Then:  pdftotext -layout OUTPUT.pdf NAME.txt
"""
import sys

from fpdf import FPDF

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
SIZE = 6.5  # points; 130 columns fit on A4 between 10 mm margins
LEADING = 3.6  # mm per line; 60 lines fit on a page


def render(text, out):
    pdf = FPDF(format="A4", unit="mm")
    pdf.set_auto_page_break(False)
    pdf.add_font("mono", "", FONT)
    pdf.set_creator("billaudit scripts/render_invoice_pdf.py")
    pages = text.split("\f")
    if pages and pages[-1] == "":
        pages.pop()
    for page in pages:
        pdf.add_page()
        pdf.set_font("mono", size=SIZE)
        y = 12.0
        for line in page.splitlines():
            if line.strip():
                pdf.text(10.0, y, line)
            y += LEADING
    pdf.output(out)


if __name__ == "__main__":
    src, dst = sys.argv[1], sys.argv[2]
    with open(src, encoding="utf-8") as f:
        render(f.read(), dst)
