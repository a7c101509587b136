"""A kit file's parsed tree comes back from the user's cache equal to a fresh parse, lines and all; a
damaged, foreign or stale entry is parsed again, and an entry never builds anything but a YAML tree."""
from __future__ import annotations

import pickle

import pytest

from pnpgen import resources, signing, yaml_memo, yamlio
from pnpgen.kit_folder import BUILTIN_DATA, DEFAULT_KIT

TEXT = """\
title: Memo
when: 2026-11-28 10:00:00+01:00
units: &u
  - {id: DD, attack: 4}
  - id: CA
    attack: 5
again: *u
"""


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    """The user's cache a folder of this test's, and no tree remembered in this process."""
    cache = tmp_path / "user-cache"
    monkeypatch.setattr(resources, "cache_folder", lambda name: (cache / name).mkdir(parents=True, exist_ok=True)
                        or cache / name)
    monkeypatch.setattr(yamlio, "_PARSED", type(yamlio._PARSED)())
    return cache / yaml_memo.FOLDER


def _located(tree):
    """The tree with the line of every mapping, key and item, to compare two trees whole."""
    if isinstance(tree, dict):
        return ("map", tree.line, tree.key_lines, {k: _located(v) for k, v in tree.items()})
    if isinstance(tree, list):
        return ("list", tree.line, tree.item_lines, [_located(v) for v in tree])
    return tree


def _parse_counting(monkeypatch) -> list:
    parsed = []
    real = yamlio._parse

    def counting(text, path):
        parsed.append(path)
        return real(text, path)
    monkeypatch.setattr(yamlio, "_parse", counting)
    return parsed


def _forget_in_process(monkeypatch):
    monkeypatch.setattr(yamlio, "_PARSED", type(yamlio._PARSED)())


def test_a_kit_file_parsed_before_comes_back_equal_without_parsing(tmp_path, monkeypatch):
    path = tmp_path / "kit.yaml"
    first = yamlio.parse_yaml(TEXT, path, keep=True)
    _forget_in_process(monkeypatch)   # as a later process
    parsed = _parse_counting(monkeypatch)
    again = yamlio.parse_yaml(TEXT, path, keep=True)
    assert parsed == []
    assert _located(again) == _located(first) and again["when"].tzinfo is not None
    assert again["again"] is again["units"]   # an alias stays one object, as the parser makes it


def test_every_file_of_the_default_kit_comes_back_as_parsed(monkeypatch):
    files = sorted(p for p in (BUILTIN_DATA / DEFAULT_KIT).rglob("*.yaml") if "aids" not in p.parts)  # (aids:
    # Jinja first)
    fresh = [_located(yamlio.parse_yaml(p.read_text(encoding="utf-8"), p, keep=True)) for p in files]
    _forget_in_process(monkeypatch)
    parsed = _parse_counting(monkeypatch)
    assert [_located(yamlio.parse_yaml(p.read_text(encoding="utf-8"), p, keep=True)) for p in files] == fresh
    assert parsed == [] and len(files) > 15


def test_a_rendered_text_and_a_broken_file_are_not_kept(tmp_path, own_cache):
    yamlio.parse_yaml(TEXT, tmp_path / "rendered.yaml")
    with pytest.raises(yamlio.YamlSyntaxError) as error:
        yamlio.parse_yaml("a: [1,\n", tmp_path / "broken.yaml", keep=True)
    assert error.value.line == 2
    assert list(own_cache.glob("*.tree")) == []


def _entry(own_cache):
    (path,) = own_cache.glob("*.tree")
    return path


@pytest.mark.parametrize("damage", ["garbled", "unsigned", "stale salt", "other class"])
def test_a_damaged_foreign_or_stale_entry_is_parsed_again(tmp_path, monkeypatch, own_cache, damage):
    path = tmp_path / "kit.yaml"
    first = yamlio.parse_yaml(TEXT, path, keep=True)
    entry = _entry(own_cache)
    body = signing.unseal(entry.read_bytes())
    if damage == "garbled":
        entry.write_bytes(entry.read_bytes()[:-30] + b"x" * 30)
    elif damage == "unsigned":
        entry.write_bytes(body)
    elif damage == "stale salt":
        entry.write_bytes(signing.seal(b"0:older code\n" + body[len(yaml_memo.salt()):]))
    else:  # sealed with this user's key, yet naming a class no YAML tree holds: refused, never built
        entry.write_bytes(signing.seal(yaml_memo.salt() + pickle.dumps(Exception("not a tree"))))
    _forget_in_process(monkeypatch)
    parsed = _parse_counting(monkeypatch)
    again = yamlio.parse_yaml(TEXT, path, keep=True)
    assert parsed == [path]
    assert _located(again) == _located(first)
