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
