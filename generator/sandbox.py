"""The one Jinja sandbox every kit file runs in (templates, rules chapters, aid texts).

A kit folder is input, not code: a text or template can compute and format, but cannot reach Python
internals (Jinja's sandbox), the file system, modules or streams (`{{ kit.root.read_text() }}`), or fill
the memory (`{{ 'x' * 10**9 }}`, `lipsum(10**6)`). Kit data is looked up as data first, so a key named
`get` or `items` reads the key, not the dict method.

Texts and whole numbers are held to the budgets (pnpgen.budgets: `text_chars`, `int_digits`): an operator,
filter or method asked for more is stopped before it runs where its size can be told from its operands
(`'x' * n`, `a ** b`, `'x'|center(n)`), and its result checked after it otherwise. The process's memory and
CPU limits catch whatever these miss.

A map or a sheet of counters takes these steps tens of thousands of times, so the common ones take a short
path that keeps the same guarantees and gives the same text (tests/test_sandbox_fast_paths.py): arithmetic on
plain numbers (_PLAIN_BINOPS), a call of the kit's own macro (_call_macro), a (class, name) already judged
safe to read (_judge), and the escaping of `{{ }}` output (KitTemplate).
"""
from __future__ import annotations

import difflib
import functools
import hashlib
import marshal
import os
from functools import cache
from io import BytesIO, IOBase
from pathlib import Path, PurePath
from types import ModuleType

import jinja2
import markupsafe
from jinja2.runtime import Macro
from jinja2.sandbox import SandboxedEnvironment

from pnpgen import budgets, resources
from pnpgen.signing import read_sealed, seal
from pnpgen.whole_files import write_whole


class KitUndefined(jinja2.StrictUndefined):
    """A missing field of the kit's data says what is there and the nearest name, in the kit's words, instead
    of Python's ('...Namespace object' has no attribute 'shps')."""

    @property
    def _undefined_message(self) -> str:
        obj, name = self._undefined_obj, self._undefined_name
        keys = sorted(k for k in obj if isinstance(k, str)) if isinstance(obj, dict) else []
        if not keys or not isinstance(name, str):
            return super()._undefined_message
        label = obj.__dict__.get("_label") if hasattr(obj, "__dict__") else None
        near = difflib.get_close_matches(name, keys, n=1)
        shown = ", ".join(keys[:15]) + (", ..." if len(keys) > 15 else "")
        where = f" in {label}" if label else ""
        return f"no {name!r}{where} (there: {shown})" + (f"; did you mean {near[0]!r}?" if near else "")


_UNSET = object()


def _too_large(name: str, what: str) -> jinja2.exceptions.SecurityError:
    return jinja2.exceptions.SecurityError(str(budgets.BudgetExceeded(name, what)))


def check_value(value, what: str = "a result"):
    """`value` when it is within the text and number budgets; SecurityError otherwise."""
    limits = budgets.active()
    if isinstance(value, str) and len(value) > limits.text_chars:
        raise _too_large("text_chars", f"{what} is a text of {len(value):,} characters")
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > _bits(limits.int_digits):
        raise _too_large("int_digits", f"{what} is a number of over {limits.int_digits:,} digits")
    return value


def check_arguments(args, kwargs, what: str) -> None:
    """A count or width asked of a filter or method ('x'|center(n), s.ljust(n), items|slice(n)) stays
    within the text budget: checked before it runs, so the text is never made."""
    limit = budgets.active().text_chars
    for value in (*args, *kwargs.values()):
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > limit:
            raise _too_large("text_chars", f"{what} asked for {value:,}")


def _bits(digits: int) -> int:
    return int(digits * 3.3220) + 1


SIZED_FILTERS = frozenset(("center", "indent", "wordwrap", "truncate", "slice", "batch"))  # a count or width


def _bounded_filter(name: str, function):
    sized = name in SIZED_FILTERS

    @functools.wraps(function)  # keeps jinja's pass_context/pass_environment marks
    def bounded(*args, **kwargs):
        if sized:
            check_arguments(args[1:], kwargs, f"the filter {name}")
        return check_value(function(*args, **kwargs), f"the filter {name}")
    return bounded


class KitTemplate(jinja2.Template):
    """A kit's template or text, whose `{{ }}` write through _escape_output (a template writes tens of
    thousands of them: a map, a sheet of counters)."""

    @classmethod
    def _from_namespace(cls, environment, namespace, globals):
        if namespace.get("escape") is markupsafe.escape:  # what the compiled code quotes its output with
            namespace["escape"] = _escape_output
        return super()._from_namespace(environment, namespace, globals)


def _escape_output(value):
    """markupsafe.escape as a template's output uses it (joined into the text at once, never kept): the
    same characters, but a text is not wrapped in a Markup first and a plain number, which has nothing to
    escape, is only written out. Anything else (a Markup, an undefined name) goes to markupsafe.escape."""
    kind = type(value)
    if kind is str:
        return _escape_text(value)
    if kind is float or kind is int:
        return str(value)
    return markupsafe.escape(value)


_escape_text = getattr(markupsafe, "_escape_inner", lambda text: str(markupsafe.escape(text)))


class KitSandbox(SandboxedEnvironment):
    template_class = KitTemplate
    intercepted_binops = frozenset(("*", "**", "+", "%"))  # the operators that can make a value larger
    LIMIT = 100_000

    def __init__(self, *args, **kwargs):
        kwargs["extensions"] = (*kwargs.get("extensions", ()), "jinja2.ext.i18n")  # {% trans %} and _()
        super().__init__(*args, **kwargs)
        self.globals.pop("lipsum", None)  # lipsum(10**6) is a memory bomb, and no kit needs filler text
        _install_words(self)
        self.filters = {name: _bounded_filter(name, f) for name, f in self.filters.items()}
        self._readable: dict[tuple[type, str], bool] = {}  # (class, name) judged: may it be read? (_judge)

    def code_salt(self) -> str:
        """What a template's compiled code depends on besides its source: Jinja's version and this
        environment's settings, the operators the sandbox checks among them (compiled into the code as calls
        to call_binop: code compiled before pnpgen guarded another operator would run it unguarded)."""
        settings = (self.autoescape, self.trim_blocks, self.lstrip_blocks, self.keep_trailing_newline,
                    self.block_start_string, self.variable_start_string, self.comment_start_string,
                    getattr(self.finalize, "__qualname__", ""), sorted(self.filters), sorted(self.tests),
                    sorted(self.intercepted_binops), sorted(self.intercepted_unops), sorted(self.extensions))
        return hashlib.sha1(f"{jinja2.__version__}\0{type(self).__name__}\0{settings!r}".encode()).hexdigest()

    def cached_from_string(self, source: str):
        """from_string, with the compiled code kept on disk between builds (keyed by the source and the
        environment's code_salt): a rebuild does not compile every chapter again."""
        key = hashlib.sha1(f"{source}\0{self.code_salt()}".encode()).hexdigest()
        folder = code_folder()
        if folder is None:
            return self.from_string(source)
        path = folder / f"{key}.code"
        code = unmarshalled(read_sealed(path))
        if code is None:
            code = self.compile(source)
            write_sealed(path, marshal.dumps(code))
        return self.template_class.from_code(self, code, self.make_globals(None), None)

    def getattr(self, obj, attribute):
        if isinstance(obj, dict) and attribute in obj:
            return obj[attribute]
        if self._readable.get((type(obj), attribute)):  # Jinja's getattr, its verdict remembered: see _judge
            value = getattr(obj, attribute, _UNSET)
            if value is not _UNSET:
                wrapped = self.wrap_str_format(value)  # a bound str.format runs in Jinja's sandboxed formatter
                return value if wrapped is None else wrapped
        value = super().getattr(obj, attribute)
        self._judge(obj, attribute)
        return value

    def _judge(self, obj, attribute) -> None:
        """Templates read the same few names of the same few classes thousands of times (a map's hex cells,
        a unit's columns, the macros of an imported template). Whether a name may be read depends on the
        object's class and the name only (is_safe_attribute here and in Jinja: isinstance tests, then the
        name), so it is judged once per (class, name); an object whose `__class__` is not its type (it
        could answer isinstance tests as another class) is judged every time, as is every unsafe name."""
        key = (type(obj), attribute)
        if key not in self._readable:
            kind = key[0]
            self._readable[key] = (obj.__class__ is kind and not any("__class__" in vars(k) for k in kind.__mro__[:-1])
                                   and self.is_safe_attribute(obj, attribute, None))

    def is_safe_attribute(self, obj, attr, value):
        """No file system, module or stream from a kit text: `{{ kit.root.read_text() }}` or
        `kit.root.joinpath('..').unlink()` would read or change files outside the kit."""
        if isinstance(obj, (PurePath, ModuleType, IOBase)):
            return False
        return super().is_safe_attribute(obj, attr, value)

    def call_binop(self, context, operator, left, right):
        fast = _PLAIN_BINOPS.get((operator, type(left), type(right)))
        if fast is not None:  # most of a template's arithmetic: see _PLAIN_BINOPS
            return fast(left, right)
        if operator == "**" and isinstance(right, (int, float)) and abs(right) > 64:
            raise jinja2.exceptions.SecurityError(f"{left!r} ** {right!r} is too large")
        if operator == "*":
            for seq, times in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(times, int) and len(seq) * times > self.LIMIT:
                    raise jinja2.exceptions.SecurityError(f"repeating a text or list {times} times is too large")
        if operator in ("*", "**") and _int(left) and _int(right):
            bits = left.bit_length() * abs(right) if operator == "**" else left.bit_length() + right.bit_length()
            if bits > _bits(budgets.active().int_digits) + 64:
                raise _too_large("int_digits", f"{operator!r} would make a number of about {int(bits / 3.32):,} digits")
        return check_value(super().call_binop(context, operator, left, right), f"{operator!r}")

    def call(self, __context, __obj, *args, **kwargs):
        """A method or function a text calls: its counts and widths checked before, its result after. The
        words of a refusal are only made when one is raised (a map calls its macros thousands of times)."""
        macro = type(__obj) is Macro and _MACROS_PLAIN  # the kit's own: no text's method, nothing unsafe
        if not macro and isinstance(getattr(__obj, "__self__", None), (str, list, tuple)):  # 'x'.ljust(n)
            check_arguments(args, kwargs, _calling(__obj))
        limit = budgets.active().text_chars
        for value in (*args, *kwargs.values()):  # a 100 MB cell handed to textbox() or a macro stops here
            if isinstance(value, str) and len(value) > limit:
                check_value(value, f"a text given to {getattr(__obj, '__name__', 'a function')}")
        if macro:
            result = _call_macro(__context, __obj, args, kwargs)
        else:
            result = super().call(__context, __obj, *args, **kwargs)
        if type(result) is float or (isinstance(result, str) and len(result) <= limit):
            return result
        return check_value(result, _calling(__obj))


def _macros_take_eval_context() -> bool:
    """Whether Jinja calls a Macro as _call_macro does (jinja 3.1: its __call__ takes the evaluation context
    first, which says whether the macro's output is escaped there); another Jinja gets its own way."""
    try:
        from jinja2.utils import _PassArg
    except ImportError:
        return False
    return getattr(Macro.__call__, "jinja_pass_arg", None) is _PassArg.eval_context


_MACROS_PLAIN = _macros_take_eval_context()


def _call_macro(context, macro, args, kwargs):
    """What Jinja's sandbox does to call a template's macro (jinja2.sandbox and jinja2.runtime.Context.call),
    less the steps that never apply to one: a Macro is never marked unsafe (a template cannot set
    attributes) and always takes the evaluation context first. A map or a sheet of counters calls thousands."""
    kwargs.pop("_block_vars", None)
    kwargs.pop("_loop_vars", None)
    try:
        return macro(context.eval_ctx, *args, **kwargs)
    except StopIteration:
        return context.environment.undefined("value was undefined because a callable raised a StopIteration "
                                             "exception")


def _calling(function) -> str:
    return f"calling {getattr(function, '__name__', 'a function')}"


def _added_texts(left: str, right: str) -> str:
    return _checked_text(left + right, "'+'")


def _formatted_text(form: str, values) -> str:
    return _checked_text(form % values, "'%'")


def _checked_text(result: str, what: str) -> str:
    return result if len(result) <= budgets.active().text_chars else check_value(result, what)


def _plain_binops() -> dict:
    """The fast path of KitSandbox.call_binop, by (operator, type of left, type of right), exact types only
    (no subclass, no bool): arithmetic on a float makes a float, which no budget limits, so it runs as
    it is; a sum or remainder of whole numbers, a sum of texts and a text formatted with `%` are the
    operation then the same check of the result as the slow path. Repeating (`*` of a text or of two
    whole numbers) and powers are never here: their size is checked before they run."""
    import operator as op
    table = {}
    for sign, function in (("+", op.add), ("*", op.mul), ("%", op.mod)):
        for pair in ((float, float), (float, int), (int, float)):
            table[(sign, *pair)] = function
    for sign, function in (("+", op.add), ("%", op.mod)):
        table[(sign, int, int)] = lambda a, b, f=function, s=sign: check_value(f(a, b), repr(s))
    table[("+", str, str)] = _added_texts
    for right in (float, int, str, tuple):
        table[("%", str, right)] = _formatted_text
    return table


_PLAIN_BINOPS = _plain_binops()


def _install_words(env) -> None:
    """A kit's templates and texts mark words with `_()` and `{% trans %}`: they print in the edition's
    language (pnpgen.i18n, asked when the template runs, so a forked worker prints in its build's), and
    `x | decimal` writes a number as that language does (1,5 in French)."""
    from pnpgen.i18n import translator, typography

    def plural(singular, several, n):
        return translator.words(singular if n == 1 else several)
    env.install_gettext_callables(translator.words, plural, newstyle=False)
    env.filters["decimal"] = lambda value: typography.decimal(value, translator.language() or "en")


def _int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def unmarshalled(data: bytes | None):
    """The object marshalled in `data` (read_sealed's), or None: nothing kept, or not a marshal."""
    if data is None:
        return None
    try:
        return marshal.loads(data)
    except (ValueError, EOFError, TypeError):
        return None


def write_sealed(path: Path, data: bytes) -> None:
    """`data` kept at `path`, sealed with this user's key (read back by read_sealed); a folder that cannot be
    written costs only the work next time."""
    try:
        write_whole(path, seal(data))
    except OSError:
        pass


class SealedBytecodeCache(jinja2.FileSystemBytecodeCache):
    """Jinja's compiled templates on disk, each file sealed with this user's key (pnpgen.signing): a damaged
    or foreign file is compiled again, never run. Unsealed, one flipped byte still unmarshalled into code that
    failed every later build ("No module named 'jinj42'") until the folder was cleared. Jinja names an entry
    by the template's name and checks its source only: `of` names it by the environment's code_salt too."""

    @classmethod
    def of(cls, env: KitSandbox, folder: Path, name: str = "jinja2") -> "SealedBytecodeCache":
        """The cache of `env`'s compiled templates in `folder` (`name`: whose files they are)."""
        return cls(str(folder), pattern=f"__{name}_{env.code_salt()[:16]}_%s.cache")

    def load_bytecode(self, bucket) -> None:
        data = read_sealed(self._get_cache_filename(bucket))
        if data is not None:
            bucket.load_bytecode(BytesIO(data))   # Jinja's own checks follow (its magic, the source's checksum)

    def dump_bytecode(self, bucket) -> None:
        written = BytesIO()
        bucket.write_bytecode(written)
        write_sealed(Path(self._get_cache_filename(bucket)), written.getvalue())


@cache
def code_folder() -> Path | None:
    """This user's folder of compiled templates (and other derived code and measures), in the user's cache
    folder (pnpgen.resources.cache_folder), or None when it cannot be trusted: compiled code is run, so
    the folder must be ours and writable by nobody else (as Jinja's own bytecode cache insists)."""
    if not hasattr(os, "getuid"):
        return None
    folder = resources.cache_folder("code")
    try:
        info = folder.lstat() if folder is not None else None
    except OSError:
        return None
    if info is None or folder.is_symlink() or info.st_uid != os.getuid() or info.st_mode & 0o077:
        return None
    return folder


def kit_code_failure(exc: BaseException) -> str:
    """What went wrong in a kit's template or text, in words, when it is not one of Jinja's own errors. A
    problem of the machine, not of the kit (no libcairo), is raised again: the CLI says how to mend it."""
    from pnpgen.cairo_missing import is_missing_cairo
    if is_missing_cairo(exc):
        raise exc
    if isinstance(exc, budgets.BudgetExceeded):
        return str(exc)
    if isinstance(exc, MemoryError):
        return str(budgets.memory_error(""))
    if isinstance(exc, RecursionError):
        return "calls nest too deep (a macro or include that calls itself without end?)"
    return f"{type(exc).__name__}: {exc}"
