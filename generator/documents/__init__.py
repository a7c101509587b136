"""Documents from Markdown: the rules booklet and reference sheets of a kit."""
from pnpgen.documents.deferred_patterns import defer_reportlab_patterns

defer_reportlab_patterns()   # before anything typesetting imports reportlab.platypus (in this process or a fork)


def imposed_copy(reading_copy: str) -> str:
    """The file to print of a document imposed for saddle stitching (`booklet.pdf` -> `booklet-imposed.pdf`):
    named here once, for the part that writes it and the build summary that points a player to it."""
    stem = reading_copy.removesuffix(".pdf")
    return f"{stem}-imposed.pdf"
