"""Rendering shared by every part: Jinja SVG templates, and SVG art placed on multi-page PDFs."""
