"""Which strings of a kit are printed words, one rule for reading translations and for extracting the
template (`pnpgen translate`), so the two never disagree.

- YAML files (boards, maps, charts, aid cards and sheets, component tables' headers): the values of the
  keys that print words (PRINTED), never ids, colours, paths or templates. kit.yaml: its title, subtitle,
  colour names, sheet and document titles and its cover's credits, playing time and ages. A table's rows: the columns it declares `translate: true`
  (read in pnpgen.components.tables). The kit's data/rules.yaml: its `say:` sentences and its rulings' words.
  Other data files (a game module's): the keys kit.yaml's `translate:` names for that file.
- Chapters (Markdown): one unit per paragraph, heading and list item, so a translator sees whole
  paragraphs; code blocks, tables' pipe rows and lines of Jinja only are left as written.
A string with no letter outside its Jinja ({{ row.cost }}) is no words to translate.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

PRINTED = frozenset({"title", "subtitle", "name", "label", "text", "header", "heading", "caption", "legend",
                     "total", "note", "bullets", "field", "fields", "lines"})
KIT_PRINTED = frozenset({"title", "subtitle", "name",  # kit.yaml: titles and colour names,
                         "credits", "time", "ages"})    # and the words its designed cover prints
SKIPPED = frozenset({"rows", "counts", "checks", "map_rules", "budgets", "fonts", "icons", "files",
                     "preflight", "translate", "languages", "cell", "where", "match", "doc"})
RULES_FILE_WORDS = {"say": None, "rulings": frozenset({"title", "text", "source"})}  # None: every value
FORM = "form"  # an aid sheet's form: its `rows` are printed row labels, not a table's data rows
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)


def has_words(text) -> bool:
    """Whether a string holds words to translate: a letter outside its Jinja, its tags and :icons:."""
    if not isinstance(text, str):
        return False
    bare = re.sub(r"<[^>]*>|:[a-z0-9][a-z0-9_-]*:", "", _JINJA.sub("", text))
    return any(ch.isalpha() for ch in bare)


@dataclass(frozen=True)
class Rule:
    """The keys of one file whose values are printed words; `top`: for the first level, keys whose whole
    subtree (None) or listed keys print (data/rules.yaml's say and rulings)."""

    keys: frozenset = frozenset()
    top: dict | None = None


def _line(holder, key) -> int:
    """The line of a key or item of a YAML tree read by pnpgen.yamlio (0 for a tree made otherwise)."""
    line_of = getattr(holder, "line_of", None)
    return line_of(key) if line_of else 0


@dataclass(frozen=True)
class KitRules:
    """Which Rule each of a kit's YAML files follows (see the module): by its real path."""

    root: Path
    data: Path                                  # the kit's data folder (kit.yaml `data:`)
    module_files: frozenset = frozenset()       # real paths of a game module's files (kit.yaml `files:`)
    extra: dict = field(default_factory=dict)   # real path -> keys kit.yaml's `translate:` adds

    @classmethod
    def of(cls, root: Path, kit_doc: dict) -> "KitRules":
        real = lambda rel: Path(os.path.realpath(Path(root) / rel))  # noqa: E731
        files = frozenset(real(rel) for rel in (kit_doc.get("files") or {}).values() if rel and "\0" not in rel)
        extra = {real(rel): frozenset(keys) for rel, keys in (kit_doc.get("translate") or {}).items()}
        return cls(real("."), real(kit_doc.get("data") or "data"), files, extra)

    def for_file(self, path) -> Rule | None:
        """The rule of the file at `path` (None: no printed words in it)."""
        real = Path(os.path.realpath(path))
        extra = self.extra.get(real, frozenset())
        if real == self.root / "kit.yaml":
            return Rule(KIT_PRINTED | extra)
        if real == self.data / "rules.yaml":
            return Rule(top={**RULES_FILE_WORDS, "rulings": RULES_FILE_WORDS["rulings"] | extra,
                             **{key: None for key in extra}})
        if real in self.module_files or real.is_relative_to(self.data):
            return Rule(extra) if extra else None
        return Rule(PRINTED | extra)


def yaml_units(tree, rule: Rule):
    """(holder, key, line, text) for every printed string of a YAML tree: `holder[key] = ...` replaces it."""
    if rule.top is not None and isinstance(tree, dict):
        for key, value in tree.items():
            if key in rule.top:
                inner = rule.top[key]
                yield from _every(value, tree, key, _line(tree, key)) if inner is None else _walk(value, inner)
        return
    yield from _walk(tree, rule.keys)


def _skipped(key, parent, keys: frozenset) -> bool:
    """Keys whose values hold no printed words, but a form's `rows` (its row labels print) and a key the kit
    names in kit.yaml `translate:` (`map_rules` and `caption`: the hex maps' track captions)."""
    return key in SKIPPED and key not in keys and not (key == "rows" and parent == FORM)


def _walk(node, keys: frozenset, parent=None):
    if isinstance(node, dict):
        for key, value in node.items():
            if _skipped(key, parent, keys):
                continue
            if key in keys:
                yield from _every(value, node, key, _line(node, key), deep=False)
            if isinstance(value, (dict, list)):
                yield from _walk(value, keys, key)
    elif isinstance(node, list):
        for item in node:
            yield from _walk(item, keys)


def _every(value, holder, key, line: int, deep: bool = True):
    """The strings of `value`: itself, or a list's strings (bullets), or (deep) a mapping's every string."""
    if isinstance(value, str):
        if has_words(value):
            yield holder, key, line, value
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, str) or deep:
                yield from _every(item, value, index, _line(value, index), deep)
    elif deep and isinstance(value, dict):
        for inner, item in value.items():
            yield from _every(item, value, inner, _line(value, inner), deep)


def translate_tree(tree, rule: Rule, words) -> None:
    """Every printed string of the tree replaced, in place, by `words(string)`."""
    for holder, key, _line, text in list(yaml_units(tree, rule)):
        holder[key] = words(text)


# Markdown: block starts that are not paragraphs of words
_HEADING = re.compile(r"^(#{1,6}[ \t]+)(.*)$")
_ITEM = re.compile(r"^([ \t]*(?:[-*+]|\d+[.)])[ \t]+)(.*)$")
_FENCE = re.compile(r"^[ \t]*(```|~~~)")


@dataclass(frozen=True)
class Unit:
    """A paragraph, heading or list item of a chapter: its first line (1-based), the marker kept before it
    ('## ', '- '), its words, and the lines [first, last] it spans (0-based)."""

    line: int
    marker: str
    text: str
    first: int
    last: int


def markdown_units(source: str) -> list[Unit]:
    """The translatable units of a chapter, in order."""
    lines = source.split("\n")
    units, index, fenced = [], 0, False
    while index < len(lines):
        line = lines[index]
        if _FENCE.match(line):
            fenced = not fenced
        if fenced or _FENCE.match(line) or not line.strip() or line.lstrip().startswith(("|", "<!--")):
            index += 1
            continue
        heading, item = _HEADING.match(line), _ITEM.match(line)
        if heading:
            units.append(Unit(index + 1, heading.group(1), heading.group(2), index, index))
            index += 1
            continue
        end = _block_end(lines, index)
        marker = item.group(1) if item else ""
        body = "\n".join([item.group(2) if item else line, *lines[index + 1:end + 1]])
        units.append(Unit(index + 1, marker, body, index, end))
        index = end + 1
    return [unit for unit in units if has_words(unit.text)]


def _block_end(lines: list[str], start: int) -> int:
    """The last line of the paragraph or list item opening at `start` (the next item, heading, fence or
    table row starts another block)."""
    end = start
    while end + 1 < len(lines):
        following = lines[end + 1]
        if (not following.strip() or _HEADING.match(following) or _FENCE.match(following)
                or following.lstrip().startswith("|") or _ITEM.match(following)):
            break
        end += 1
    return end


def translate_markdown(source: str, words) -> str:
    """The chapter with each unit's words replaced by `words(unit)`, markers and layout kept (a list item's
    further lines indented as its first)."""
    lines = source.split("\n")
    for unit in reversed(markdown_units(source)):
        said = words(unit.text)
        if said == unit.text:
            continue
        pad = " " * len(unit.marker) if _ITEM.match(unit.marker + "x") else ""
        first, *rest = said.split("\n")
        lines[unit.first:unit.last + 1] = [unit.marker + first, *[pad + r if r[:1] != " " else r for r in rest]]
    return "\n".join(lines)


def yaml_source_units(source: str, rule: Rule):
    """(scalar node, line) of every printed string of a YAML source that Jinja renders afterwards (aid cards):
    its values are words with their placeholders, as the author wrote them. Unparsable: none (the build's
    own reading reports the error)."""
    import yaml
    try:
        node = yaml.compose(source, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (yaml.YAMLError, RecursionError):
        return []
    if node is None:
        return []
    if rule.top is not None:
        found = []
        for key, value in _pairs(node):
            if key in rule.top:
                found += _node_every(value) if rule.top[key] is None else _node_walk(value, rule.top[key])
        return found
    return _node_walk(node, rule.keys)


def _pairs(node):
    import yaml
    return [(k.value, v) for k, v in node.value if isinstance(k, yaml.ScalarNode)] if isinstance(node, yaml.MappingNode) else []


def _node_walk(node, keys: frozenset, parent=None) -> list:
    import yaml
    found = []
    if isinstance(node, yaml.MappingNode):
        for key, value in _pairs(node):
            if _skipped(key, parent, keys):
                continue
            if key in keys:
                found += _node_every(value, deep=False)
            found += _node_walk(value, keys, key)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            found += _node_walk(item, keys)
    return found


def _node_every(node, deep: bool = True) -> list:
    import yaml
    if isinstance(node, yaml.ScalarNode):
        return [(node, node.start_mark.line + 1)] if node.tag.endswith(":str") and has_words(node.value) else []
    if isinstance(node, yaml.SequenceNode):
        return [found for item in node.value if deep or isinstance(item, yaml.ScalarNode)
                for found in _node_every(item, deep)]
    if deep and isinstance(node, yaml.MappingNode):
        return [found for _key, value in _pairs(node) for found in _node_every(value, deep)]
    return []


def translate_yaml_source(source: str, rule: Rule, words) -> str:
    """The YAML source with each printed value replaced by `words(value)`, written back in its own style
    (a block scalar stays a block at its indentation; a quoted or plain one becomes double-quoted)."""
    spans = {}  # by where it starts: a node reached twice (a YAML alias, `rows: *economy`) is replaced once
    for node, _line in yaml_source_units(source, rule):
        said = words(node.value)
        if said != node.value:
            spans[node.start_mark.index] = (node.start_mark.index, node.end_mark.index, _scalar(said, node, source))
    for start, end, text in sorted(spans.values(), reverse=True):
        source = source[:start] + text + source[end:]
    return source


def _scalar(text: str, node, source: str) -> str:
    """`text` as a YAML scalar standing where `node` stood."""
    if node.style in ("|", ">"):
        line_start = source.rfind("\n", 0, node.start_mark.index) + 1
        key_indent = len(source[line_start:]) - len(source[line_start:].lstrip(" "))
        body_start = source.find("\n", node.start_mark.index) + 1
        body = source[body_start:node.end_mark.index]
        indent = len(body) - len(body.lstrip(" ")) if body.strip() else key_indent + 2
        lines = "\n".join(" " * indent + line if line else "" for line in text.split("\n"))
        chomp = "-" if not node.value.endswith("\n") else ""
        ending = "" if source[node.end_mark.index - 1:node.end_mark.index] != "\n" else "\n"
        return f"{node.style}{chomp}\n{lines}{ending}"
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'
