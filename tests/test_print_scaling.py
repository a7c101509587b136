"""A final cairo PDF asks to print at 100 % from the start, with the very bytes the build's post-pass
(pnpgen.pdf_update) would append, so that pass skips it (and pypdf is not needed for it)."""
from __future__ import annotations

import shutil

import pypdf

from pnpgen.pdf_update import add_print_scaling_none
from pnpgen.render.pdf import PdfDocument


def draw(path, final: bool) -> None:
    doc = PdfDocument(path, "Scaling test", 200, 100, final=final)
    for page in range(2):
        doc.new_page()
        doc.context.rectangle(10 + page, 10, 50, 50)
        doc.context.fill()
    doc.close()


def test_a_final_pdf_carries_the_post_pass_update_byte_for_byte(tmp_path):
    plain, final = tmp_path / "plain.pdf", tmp_path / "final.pdf"
    draw(plain, final=False)
    draw(final, final=True)
    assert b"/PrintScaling" not in plain.read_bytes()
    by_post_pass = tmp_path / "post.pdf"
    shutil.copy(plain, by_post_pass)
    assert add_print_scaling_none(by_post_pass) is True
    assert final.read_bytes() == by_post_pass.read_bytes()
    assert add_print_scaling_none(final) is False                  # the post-pass has nothing left to do
    reader = pypdf.PdfReader(str(final))
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
    assert len(reader.pages) == 2


def test_an_unusual_catalog_is_left_to_the_post_pass():
    from pnpgen.render.print_scaling import ask_print_at_full_size
    odd = b"%PDF-1.5\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R /Outlines 3 0 R >>\nendobj\n" \
          b"trailer\n<< /Size 4\n   /Root 1 0 R\n   /Info 3 0 R\n>>\nstartxref\n9\n%%EOF\n"
    assert ask_print_at_full_size(odd) == odd


def test_the_booklets_copies_carry_the_post_pass_update_byte_for_byte(tmp_path):
    """The booklet with its figures laid on and its imposed copy (both written by booklet.pdfcopy: a trailer
    on one line, a catalog copied from reportlab or its own) ask it as they are written: the booklet's worker
    then never loads pypdf for the post-pass."""
    import io

    from reportlab.pdfgen import canvas

    from pnpgen.booklet.impose import impose
    from pnpgen.booklet.pdfcopy import lay_on
    from pnpgen.render.print_scaling import ask_print_at_full_size
    buffer = io.BytesIO()
    typeset = canvas.Canvas(buffer, pagesize=(396, 612))
    for page in range(4):
        typeset.drawString(72, 500, f"page {page + 1}")
        typeset.showPage()
    typeset.save()
    pdf = buffer.getvalue()
    laid = lay_on(pdf, [(pdf, [(1, 3, (0.5, 0, 0, 0.5, 10, 10), True)])])
    for written in (laid, impose(pdf, (792.0, 612.0))):
        by_post_pass = tmp_path / "post.pdf"
        by_post_pass.write_bytes(written)
        assert b"/PrintScaling" not in written
        assert add_print_scaling_none(by_post_pass) is True
        asked = ask_print_at_full_size(written)
        assert asked == by_post_pass.read_bytes()
        assert len(pypdf.PdfReader(io.BytesIO(asked)).pages) in (2, 4)
