"""Our texts are written in our own words: no run of 8 words is shared with the rules summaries we read."""
import os
import re
from pathlib import Path

import pytest

from tests.conftest import DEFAULT_KIT_DIR

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"  # the folder beside the checkout
SEEDS = SHARED / "seeds"
RUN = 8


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def any_words(text: str) -> list[str]:
    """Words of any language (é, ç, ñ are letters): for the translations, against the French and Spanish seeds."""
    return re.findall(r"[^\W_]+", text.lower().replace("\u2019", "'"))


def runs(items: list[str]) -> set[tuple]:
    return {tuple(items[i:i + RUN]) for i in range(len(items) - RUN + 1)}


def seed_files() -> list[Path]:
    files = sorted(SEEDS.glob("*.txt")) if SEEDS.is_dir() else []
    if not files:
        missing = SHARED if not SHARED.is_dir() else SEEDS if not SEEDS.is_dir() else SEEDS / "*.txt"
        reason = f"own-words check not run: {missing} is missing (the rules summaries beside the checkout)"
        if os.environ.get("CI", "").lower() in ("true", "1", "yes"):
            pytest.fail(f"{reason}; CI always has them", pytrace=False)
        pytest.skip(reason)
    return files


@pytest.fixture(scope="module")
def seed_runs():
    return set().union(*(runs(words(f.read_text(encoding="utf-8"))) for f in seed_files()))


@pytest.fixture(scope="module")
def seed_runs_any_language():
    return set().union(*(runs(any_words(f.read_text(encoding="utf-8"))) for f in seed_files()))


PROSE = sorted([*DEFAULT_KIT_DIR.rglob("*.md"), *DEFAULT_KIT_DIR.rglob("*.yaml")])


@pytest.mark.parametrize("path", PROSE, ids=[str(p.relative_to(DEFAULT_KIT_DIR)) for p in PROSE])
def test_no_sentence_is_carried_over(seed_runs, path):
    text = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", " ", path.read_text(encoding="utf-8"))  # Jinja is not prose
    shared = runs(words(text)) & seed_runs
    assert not shared, [" ".join(r) for r in sorted(shared)][:5]


CATALOGUES = sorted(DEFAULT_KIT_DIR.glob("locale/*.po"))


@pytest.mark.parametrize("path", CATALOGUES, ids=[p.name for p in CATALOGUES])
def test_no_translated_sentence_is_carried_over(seed_runs_any_language, path):
    """A translation is our own translation of our own text: none of its strings shares a run of 8 words with
    the sources (the Space Empires 4X source is partly French), each string checked on its own."""
    from babel.messages.pofile import read_po
    shared = set()
    for message in read_po(open(path, encoding="utf-8")):
        text = re.sub(r"\{\{.*?\}\}|\{%.*?%\}|%\(\w+\)s|\{\w+\}", " ", message.string or "", flags=re.S)
        shared |= runs(any_words(text)) & seed_runs_any_language
    assert not shared, [" ".join(r) for r in sorted(shared)][:5]
