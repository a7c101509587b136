"""The budgets the person who builds grants (pnpgen.budgets): their `--budget NAME=VALUE` options, over their
own file budgets.yaml in their config folder (pnpgen.budgets.config_file), over the defaults.

A kit folder is input from anyone, so it may lower its budgets in kit.yaml but never raise them: only the
person at the keyboard can give a stranger's kit more memory or CPU, by a choice made on their own machine.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

from pnpgen.budgets import CEILINGS, DOCS, Budgets, config_file
from pnpgen.problems import UsageError, display_path

MAX_CONFIG_BYTES = 64 * 1024  # a file of a dozen numbers; anything larger is not one


def granted(options: list[str] | None = None) -> Budgets:
    """The budgets this command may spend: the defaults, raised or lowered by the user's budgets.yaml, then
    by each `--budget NAME=VALUE`. A mistake in either is a UsageError that says where."""
    values = _from_config(config_file())
    for option in options or ():
        name, value = _parse_option(option)
        values[name] = value
    return dataclasses.replace(Budgets(), **values)


def _parse_option(option: str) -> tuple[str, int]:
    name, equals, text = option.partition("=")
    name = name.strip()
    if not equals:
        raise UsageError(f"--budget {option}: give NAME=VALUE, such as --budget memory_mb=4096 ({_names()})")
    return name, _checked(name, text.strip(), f"--budget {option}")


def _checked(name: str, value, where: str) -> int:
    if name not in DOCS:
        raise UsageError(f"{where}: no budget named {name!r} ({_names()})")
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    ceiling = getattr(CEILINGS, name)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= ceiling:
        raise UsageError(f"{where}: {name} must be a whole number from 1 to {ceiling} ({DOCS[name]}), not {value!r}")
    return value


def _names() -> str:
    return "budgets: " + ", ".join(DOCS)


def _from_config(path: Path) -> dict:
    """{name: value} of the user's budgets.yaml; {} when there is none (YAML then not loaded: a build that
    finds its output up to date needs it for nothing else)."""
    shown = display_path(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise UsageError(f"{shown}: cannot be read ({exc.strerror or exc}); mend it or remove it") from None
    if len(data) > MAX_CONFIG_BYTES:
        raise UsageError(f"{shown}: larger than {MAX_CONFIG_BYTES // 1024} KB: not a file of budgets")
    from pnpgen.yamlio import YamlSyntaxError, parse_yaml
    try:
        doc = parse_yaml(data.decode("utf-8"), path)
    except UnicodeDecodeError:
        raise UsageError(f"{shown}: not UTF-8 text") from None
    except YamlSyntaxError as exc:
        raise UsageError(f"{shown}:{exc.line}: {exc.message}") from None
    if doc is None:
        return {}
    if not isinstance(doc, dict):
        raise UsageError(f"{shown}:1: a mapping of budgets, such as `memory_mb: 4096` ({_names()})")
    line_of = getattr(doc, "line_of", lambda key: 1)
    return {str(k): _checked(str(k), v, f"{shown}:{line_of(k)}: {k}") for k, v in doc.items()}
