"""Safe YAML loading that remembers the line of every key and list item, for located error messages; a kit
file's mapping read with its problems recorded, and the line of every field (the low-level reading every
loader shares, below pnpgen.kit, which calls the loaders)."""
from __future__ import annotations

import hashlib
import os
import pickle
from collections import OrderedDict
from pathlib import Path

import yaml

from pnpgen import kit_files, yaml_memo
from pnpgen.i18n import translator
from pnpgen.problems import Problems, display_path


class LocatedDict(dict):
    """A mapping from YAML that knows its own line and the line of each key."""

    line: int = 0
    key_lines: dict

    def line_of(self, key) -> int:
        return self.key_lines.get(key, self.line)


class LocatedList(list):
    """A sequence from YAML that knows its own line and the line of each item."""

    line: int = 0
    item_lines: list

    def line_of(self, index: int) -> int:
        return self.item_lines[index] if 0 <= index < len(self.item_lines) else self.line


class BadKey(Exception):
    def __init__(self, line: int):
        self.line = line
        super().__init__("a key must be a name or a number, not a mapping or a list")


class DuplicateKey(Exception):
    def __init__(self, key, line: int):
        self.key, self.line = key, line
        super().__init__(f"duplicate key {key!r}")


# libyaml's C parser when PyYAML has it (its wheels do): the same safe constructors, a quarter of the time.
_SAFE_BASE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _LocatingLoader(_SAFE_BASE):
    """A safe loader (no arbitrary objects) whose mappings and sequences carry 1-based line numbers."""

    def construct_mapping(self, node, deep=False):  # noqa: D401 - PyYAML hook
        self.flatten_mapping(node)
        result = LocatedDict()
        result.line = node.start_mark.line + 1
        result.key_lines = {}
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=True)
            try:  # `{a: 1}: x`, `[a]: x` or `!!set {a}: x`: valid YAML, never a kit's key
                hash(key)
            except TypeError:
                raise BadKey(key_node.start_mark.line + 1) from None
            if key in result.key_lines:
                raise DuplicateKey(key, key_node.start_mark.line + 1)
            result.key_lines[key] = key_node.start_mark.line + 1
            result[key] = self.construct_object(value_node, deep=True)
        return result

    def get_single_data(self):
        """Refuse a document whose aliases expand it past MAX_NODES (the "billion laughs" of YAML)."""
        node = self.get_single_node()
        if node is None:
            return None
        _check_expansion(node)
        return self.construct_document(node)

    def construct_sequence(self, node, deep=False):
        result = LocatedList(self.construct_object(child, deep=True) for child in node.value)
        result.line = node.start_mark.line + 1
        result.item_lines = [child.start_mark.line + 1 for child in node.value]
        return result


_LocatingLoader.add_constructor("tag:yaml.org,2002:map", _LocatingLoader.construct_mapping)
_LocatingLoader.add_constructor("tag:yaml.org,2002:seq", _LocatingLoader.construct_sequence)


MAX_NODES = 1_000_000  # far beyond any kit file; a document of aliases to aliases expands past it


class TooLarge(Exception):
    def __init__(self, line: int):
        self.line = line


def _check_expansion(root) -> None:
    """Count the nodes of the document as if every alias were copied out; stop past MAX_NODES."""
    sizes: dict[int, int] = {}

    def size(node, depth=0) -> int:
        known = sizes.get(id(node))
        if known is not None:
            return known
        if depth > 500:
            raise TooLarge(node.start_mark.line + 1)
        sizes[id(node)] = 1  # a node that contains itself counts once (the constructor refuses it later)
        total = 1
        if isinstance(node, yaml.SequenceNode):
            total += sum(1 if type(child) is yaml.ScalarNode else size(child, depth + 1) for child in node.value)
        elif isinstance(node, yaml.MappingNode):  # a scalar counts one, without a call: most nodes are scalars
            total += sum((1 if type(k) is yaml.ScalarNode else size(k, depth + 1)) +
                         (1 if type(v) is yaml.ScalarNode else size(v, depth + 1)) for k, v in node.value)
        if total > MAX_NODES:
            raise TooLarge(node.start_mark.line + 1)
        sizes[id(node)] = total
        return total

    size(root)


class YamlSyntaxError(Exception):
    """A file that is not valid YAML, with the line where the parser gave up."""

    def __init__(self, path: Path, line: int, message: str):
        self.path, self.line, self.message = path, line, message
        super().__init__(f"{path}:{line}: {message}")


def load_yaml(path: Path, root: Path):
    """Parse one kit file safely, read through the kit reader (a regular file inside `root`); raise
    YamlSyntaxError with the line on any syntax problem or a file that may not be read."""
    try:
        text = kit_files.read_text(path, root)
    except kit_files.KitFileError as exc:
        raise YamlSyntaxError(path, exc.line, exc.message) from None
    # a translated edition: its printed words in its language
    return translator.read_yaml(parse_yaml(text, path, keep=True), path)


def _char(character) -> str:
    code = character if isinstance(character, int) else ord(character) if character else 0
    return f"U+{code:04X}"


_PARSED: OrderedDict = OrderedDict()   # the text's hash -> its tree, pickled: each reader gets a fresh copy
PARSED_BYTES = 64 << 20    # the pickled trees kept, the most recently parsed first
PARSED_TEXT_MAX = 1 << 20  # characters: a longer text is parsed each time
_parsed_bytes = [0]


def parse_yaml(text: str, path: Path, keep: bool = False):
    """Parse YAML text that came from `path` (say, after Jinja rendered it), with located errors. A long-lived
    process (`serve`, `build --watch`) parses again only the texts that changed: a text parsed before is
    unpickled (the tree holds no path, only lines), a hundredth of the time of the pure-Python parser.
    `keep`: a kit file's text, whose tree is also kept in the user's cache for later processes
    (pnpgen.yaml_memo; a text rendered from a template is not: it would fill the cache with variants)."""
    key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()
    if key in _PARSED:
        _PARSED.move_to_end(key)
        return pickle.loads(_PARSED[key])
    kept = yaml_memo.stored(key) if keep and len(text) <= PARSED_TEXT_MAX else yaml_memo.MISSING
    if kept is not yaml_memo.MISSING:
        tree, pickled = kept
    else:
        tree, pickled = _parse(text, path), None
    if len(text) <= PARSED_TEXT_MAX:
        _PARSED[key] = pickled or pickle.dumps(tree, protocol=pickle.HIGHEST_PROTOCOL)
        if keep and pickled is None:
            yaml_memo.store(key, _PARSED[key])
        _parsed_bytes[0] += len(_PARSED[key])
        while _parsed_bytes[0] > PARSED_BYTES:
            _parsed_bytes[0] -= len(_PARSED.popitem(last=False)[1])
    return tree


def _parse(text: str, path: Path):
    if "\0" in text:  # libyaml would stop at it without a line
        raise YamlSyntaxError(path, text[: text.index("\0")].count("\n") + 1, "a NUL byte: the file is not text")
    try:
        tree = yaml.load(text, Loader=_LocatingLoader)  # noqa: S506 - the loader derives from SafeLoader
    except (DuplicateKey, BadKey) as exc:
        raise YamlSyntaxError(path, exc.line, str(exc)) from None
    except TooLarge as exc:
        raise YamlSyntaxError(path, exc.line, f"too large: its aliases expand to more than {MAX_NODES} values "
                                              f"(or nest too deeply)") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 0
        raise YamlSyntaxError(path, line, f"not valid YAML: {exc.problem or exc.context}") from None
    except yaml.reader.ReaderError as exc:  # a control character: PyYAML knows its offset, not its line
        line = text[: exc.position].count("\n") + 1 if isinstance(exc.position, int) else 0
        raise YamlSyntaxError(path, line, f"not valid YAML: character {_char(exc.character)} is not allowed") from None
    except yaml.YAMLError as exc:
        raise YamlSyntaxError(path, 0, f"not valid YAML: {exc}") from None
    except RecursionError:
        raise YamlSyntaxError(path, 1, "not valid YAML: nested too deeply") from None
    return tree


def read_mapping(path: Path, root: Path, problems: Problems, field: str, named_in: Path | None = None,
                 named_line: int = 0):
    """The mapping a kit's YAML file holds (read through the kit reader, inside `root`), or None with the
    problem recorded."""
    if not os.path.lexists(path) or os.path.isdir(path):
        where = named_in or path
        problems.error(where, named_line, field, f"file not found: {display_path(path)}")
        return None
    try:
        raw = load_yaml(path, root)
    except YamlSyntaxError as exc:
        problems.error(path, exc.line, "", exc.message)
        return None
    except (OSError, UnicodeDecodeError) as exc:
        problems.error(path, 0, "", f"cannot read: {exc}")
        return None
    if not isinstance(raw, dict):
        problems.error(path, 1, "", "must hold a mapping of fields at the top level")
        return None
    return raw


def index_lines(file_key: str, path: Path, node, prefix: str = "", shown: str | None = None) -> dict:
    """(file key, dotted field path) -> (file, line) for every key and item in a YAML tree."""
    shown = shown or display_path(path)
    out = {(file_key, prefix): (shown, getattr(node, "line", 1))} if not prefix else {}
    if isinstance(node, LocatedDict):
        for key, value in node.items():
            path_here = f"{prefix}.{key}" if prefix else str(key)
            out[(file_key, path_here)] = (shown, node.line_of(key))
            out.update(index_lines(file_key, path, value, path_here, shown))
    elif isinstance(node, LocatedList):
        for index, value in enumerate(node):
            path_here = f"{prefix}[{index}]"
            out[(file_key, path_here)] = (shown, node.line_of(index))
            out.update(index_lines(file_key, path, value, path_here, shown))
    return out
