"""The layers of docs/architecture.md hold in the code: every module of generator/ and games/ has one layer in
the page's table, no import goes up a layer, no imports run in a loop, no module imports another's private
name, no file takes a name from a module that only imports it (a re-export), and the page's picture is the one
its table draws. Imports are read with ast (module level and inside functions alike: a lazy import is still a
dependency), so nothing is imported to check them; each file is parsed once."""
from __future__ import annotations

import ast
import importlib.util
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"pnpgen": ROOT / "generator", "pnpgen.games": ROOT / "games"}   # as setup.py maps them
# the page's tables are read, and its picture drawn, by one script (`python scripts/architecture_svg.py`)
_spec = importlib.util.spec_from_file_location("architecture_svg", ROOT / "scripts" / "architecture_svg.py")
picture = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(picture)
DOC = picture.DOC


@dataclass(frozen=True)
class Import:
    importer: str   # module names, without the leading `pnpgen.`
    imported: str
    line: int
    names: tuple = ()   # the names a `from ... import` takes

    def where(self) -> str:
        return f"{shown(self.importer)}:{self.line}"


@cache
def modules() -> dict[str, Path]:
    """Every module of the package, named as in the table (`render.pdf`; the package itself is `pnpgen`)."""
    found = {}
    for prefix, folder in FOLDERS.items():
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if "__pycache__" in parts or (prefix == "pnpgen" and parts[0] == "games"):
                continue
            if parts[-1] == "__init__":
                parts.pop()
            dotted = ".".join([prefix, *parts])
            found["pnpgen" if dotted == "pnpgen" else dotted.removeprefix("pnpgen.")] = path
    return found


def shown(module: str) -> str:
    return str(modules()[module].relative_to(ROOT))


@cache
def layers() -> tuple[list[str], dict[str, str], list[str]]:
    """(layer names bottom up, module -> layer, modules listed twice) from the page's table."""
    names, layer_of, twice = [], {}, []
    for name, listed in picture.module_table(DOC.read_text(encoding="utf-8")):
        names.append(name)
        for module in listed:
            if module in layer_of:
                twice.append(module)
            layer_of[module] = name
    return names, layer_of, twice


def _resolve(name: str) -> str | None:
    """The package's module a dotted name is, or lies in (a function or class of it); None outside pnpgen."""
    if name != "pnpgen" and not name.startswith("pnpgen."):
        return None
    short = "pnpgen" if name == "pnpgen" else name.removeprefix("pnpgen.")
    while short not in modules() and "." in short:
        short = short.rpartition(".")[0]
    return short if short in modules() else None


def _full(module: str) -> str:
    return "pnpgen" if module == "pnpgen" else f"pnpgen.{module}"


def _package(module: str) -> str:
    """The package a module's relative imports start from."""
    return _full(module) if modules()[module].name == "__init__.py" else _full(module).rpartition(".")[0]


def _from_base(node: ast.ImportFrom, package: str) -> str:
    """The absolute module a `from ... import` reads from (`from .art import Art` in render.pdf: pnpgen.render.art)."""
    base = node.module or ""
    if node.level:
        base = ".".join([package.rsplit(".", node.level - 1)[0]] + ([base] if base else []))
    return base


@cache
def imports() -> tuple[Import, ...]:
    found = []
    for module, path in modules().items():
        package = _package(module)
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Import):
                targets = [(alias.name, ()) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _from_base(node, package)
                # `from pnpgen import kit` imports the module kit; `from pnpgen.kit import load_kit` a name of kit
                targets = [(f"{base}.{a.name}" if _resolve(f"{base}.{a.name}") == _short(f"{base}.{a.name}") else base,
                            (a.name,)) for a in node.names]
            else:
                continue
            for target, names in targets:
                imported = _resolve(target)
                if imported is not None and imported != module:
                    found.append(Import(module, imported, node.lineno, names))
    return tuple(found)


def _short(name: str) -> str:
    return "pnpgen" if name == "pnpgen" else name.removeprefix("pnpgen.")


@cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def test_every_module_has_one_layer():
    names, layer_of, twice = layers()
    assert len(names) == len(set(names)) >= 6, f"the layers of {DOC.name}: {names}"
    missing = sorted(set(modules()) - set(layer_of))
    gone = sorted(set(layer_of) - set(modules()))
    assert not missing, (f"modules with no layer: add each to the table of {DOC.relative_to(ROOT)} "
                         f"({picture.MODULES_HEADING}): " + ", ".join(f"{m} ({shown(m)})" for m in missing))
    assert not gone, f"the table of {DOC.relative_to(ROOT)} names modules that do not exist: {', '.join(gone)}"
    assert not twice, f"modules in two layers of {DOC.relative_to(ROOT)}: {', '.join(twice)}"


def test_no_import_goes_up_a_layer():
    names, layer_of, _ = layers()
    rank = {name: index for index, name in enumerate(names)}
    upward = [f"{i.where()} ({layer_of[i.importer]}) imports {shown(i.imported)} ({layer_of[i.imported]})"
              for i in imports() if i.importer in layer_of and i.imported in layer_of
              and rank[layer_of[i.imported]] > rank[layer_of[i.importer]]]
    assert not upward, "imports that go up a layer (move what they need down, or pass it in):\n" + "\n".join(upward)


def test_no_import_loop():
    loops = [" -> ".join(f"{i.where()} imports {shown(i.imported)}" for i in cycle) for cycle in _cycles()]
    assert not loops, "imports that run in a loop:\n" + "\n".join(loops)


def test_no_module_imports_another_modules_private_name():
    private = [f"{i.where()} imports {name} from {shown(i.imported)}" for i in imports() for name in i.names
               if name.startswith("_") and not name.startswith("__")]
    assert not private, "private names imported across modules (make them public or move them):\n" + "\n".join(private)


def test_every_name_is_imported_from_the_module_that_makes_it():
    """One road to each name: a module that only imports a name (a re-export) does not hand it on, so a
    reader who follows an import lands where the name is made. Every file of generator/, games/, tests/ and
    scripts/ is read, `from pnpgen.x import name` and `x.name` on an imported module alike. No package
    __init__ exists only to hand names on today; one that did would be listed in PASS_ON and exempt."""
    found = [f"{where} takes {name} from {shown(source)}, which only imports it ({shown(source)}:{line}): "
             f"import it from where it is made" for where, source, name, line in _re_exports()]
    assert not found, "names taken from a module that only re-exports them:\n" + "\n".join(found)


def test_the_picture_is_drawn_from_the_table():
    """docs/architecture.svg is what scripts/architecture_svg.py draws from the page's tables today, and the
    page shows it: a module moved in the table and not in the picture fails here."""
    committed = picture.SVG.read_text(encoding="utf-8") if picture.SVG.exists() else ""
    assert committed == picture.draw(DOC.read_text(encoding="utf-8")), (
        f"{picture.SVG.relative_to(ROOT)} is not what the tables of {DOC.relative_to(ROOT)} draw: run "
        f"`make architecture` and commit the SVG")
    assert f"]({picture.SVG.name})" in DOC.read_text(encoding="utf-8"), f"{DOC.name} does not show {picture.SVG.name}"


def _cycles() -> list[list[Import]]:
    """One loop through each group of modules that import each other (Tarjan's strongly connected components),
    as the imports that make it."""
    edges: dict[str, dict[str, Import]] = {}
    for i in imports():
        edges.setdefault(i.importer, {}).setdefault(i.imported, i)
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in edges.get(module, {}):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(group)

    for module in sorted(modules()):
        if module not in index:
            visit(module)
    return [_loop_in(sorted(group)[0], group, edges) for group in groups]


def _loop_in(start: str, group: set, edges: dict) -> list[Import]:
    """The shortest way from `start` back to itself inside the group (breadth first)."""
    paths = {start: []}
    todo = [start]
    while todo:
        module = todo.pop(0)
        for other, via in sorted(edges.get(module, {}).items()):
            if other == start:
                return paths[module] + [via]
            if other in group and other not in paths:
                paths[other] = paths[module] + [via]
                todo.append(other)
    return []


IMPORTERS = ("generator", "games", "tests", "scripts")   # every file whose imports must go where a name is made
PASS_ON: frozenset = frozenset()   # packages whose __init__ only hands names on (exempt); none today
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


@cache
def _only_imported(module: str) -> dict[str, int]:
    """The names a module binds at its top level by importing them and never makes itself (def, class,
    assignment, `global` in a function), each with the line of its import."""
    tree, made, imported = _tree(modules()[module]), set(), {}
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                imported.setdefault(alias.asname or alias.name.split(".")[0], node.lineno)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            made.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            made.add(node.id)
        if not isinstance(node, _SCOPES):
            todo.extend(ast.iter_child_nodes(node))
    made.update(n for node in ast.walk(tree) if isinstance(node, ast.Global) for n in node.names)
    return {name: line for name, line in imported.items() if name not in made}


def _importer_files() -> list[tuple[Path, str]]:
    """(file, the package its relative imports start from) for every Python file that imports pnpgen."""
    module_of = {path: module for module, path in modules().items()}
    files = sorted(p for folder in IMPORTERS for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts)
    return [(p, _package(module_of[p]) if p in module_of else "") for p in files]


def _module_named(dotted: str) -> str | None:
    """The package's module `dotted` names exactly (pnpgen.render.pdf), or None (a name in one, or outside)."""
    module = _resolve(dotted)
    return module if module is not None and module == _short(dotted) else None


def _re_exports() -> list[tuple[str, str, str, int]]:
    """(file:line, module, name, line of that module's own import) for each name taken from a module that
    only imports it."""
    found = []
    for path, package in _importer_files():
        where, aliases = str(path.relative_to(ROOT)), {}
        nodes = list(ast.walk(_tree(path)))
        for node in nodes:   # which local names are pnpgen modules, for `kit.find_kit` below
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if _module_named(alias.name) and alias.asname:
                        aliases[alias.asname] = alias.name
                    elif alias.name.split(".")[0] == "pnpgen":
                        aliases["pnpgen"] = "pnpgen"
            elif isinstance(node, ast.ImportFrom):
                base = _from_base(node, package)
                for alias in node.names:
                    if _module_named(f"{base}.{alias.name}"):
                        aliases[alias.asname or alias.name] = f"{base}.{alias.name}"
        for node in nodes:
            if isinstance(node, ast.ImportFrom) and (source := _module_named(_from_base(node, package))):
                taken = [(a.name, node.lineno) for a in node.names
                         if not _module_named(f"{_from_base(node, package)}.{a.name}")]
            elif isinstance(node, ast.Attribute) and (source := _module_named(_dotted(node.value, aliases) or "")):
                taken = [] if _module_named(f"{_full(source)}.{node.attr}") else [(node.attr, node.lineno)]
            else:
                continue
            found += [(f"{where}:{line}", source, name, _only_imported(source)[name]) for name, line in taken
                      if name in _only_imported(source) and source not in PASS_ON]
    return found


def _dotted(node: ast.expr, aliases: dict) -> str | None:
    """`kit` or `pnpgen.render.pdf` as the full module name it stands for, when it is an imported module."""
    if isinstance(node, ast.Name):
        return aliases.get(node.id)
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value, aliases)
        return f"{head}.{node.attr}" if head else None
    return None
