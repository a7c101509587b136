"""The sandbox's fast paths (pnpgen.sandbox: plain arithmetic, macro calls) give what Jinja gives and still stop
every text or number over its budget: no build, a few milliseconds."""
import jinja2
import pytest
from jinja2.exceptions import SecurityError
from markupsafe import Markup

from pnpgen import budgets
from pnpgen.sandbox import KitSandbox

VALUES = {"x": 12.5, "s": 3.25, "n": 7, "m": 12, "big": 2 ** 40, "t": "ab", "mark": Markup("<i>%s</i>"), "flag": True}
EXPRESSIONS = [
    "x + s * 0.25", "'%.2f' % (x - s * 0.25)", "n + m", "n % m", "x % n", "n * x", "x * x", "(n + m) % 2",
    "t + 'cd'", "'%s-%d' % (t, n)", "'%5.1f|%s' % (x, t)", "flag + n", "mark % '<b>'", "t % ()", "n ** 3",
    "t * 3", "[1, 2] + [3]", "'%s' % t",
]


@pytest.mark.parametrize("autoescape", [False, True])
def test_the_fast_paths_give_what_jinja_gives(autoescape):
    plain = jinja2.Environment(autoescape=autoescape)
    kit = KitSandbox(autoescape=autoescape)
    for expression in EXPRESSIONS:
        source = "{{ " + expression + " }}"
        assert kit.from_string(source).render(VALUES) == plain.from_string(source).render(VALUES), expression


@pytest.mark.parametrize("source", [
    "{{ t + 'x' * 40 + 'y' * 20 }}",                 # a sum of texts
    "{{ '%60d' % n }}",                               # a text formatted wider than the budget
    "{{ '%s%s' % (t * 20, t * 20) }}",               # formatted from a tuple
    "{{ big + big * big }}",                           # whole numbers past int_digits
    "{{ big + m }}{{ (big * big) % (big * big * big + 1) }}",
    "{% macro m() %}{{ 'x' * 40 }}{{ 'x' * 40 }}{% endmacro %}{{ m() }}",  # a macro's result
    "{% macro m(a) %}{{ a|length }}{% endmacro %}{{ m(t * 30) }}",  # a text handed to a macro
    "{{ 'x' * 200000 }}",                              # repeating, checked before it runs
    "{{ 2 ** 100000 }}",
])
def test_every_budget_still_holds(monkeypatch, source):
    monkeypatch.setattr(budgets, "_active", budgets.Budgets(text_chars=50, int_digits=12))
    with pytest.raises(SecurityError):
        KitSandbox(autoescape=True).from_string(source).render(VALUES)


def test_floats_pass_whatever_the_budgets(monkeypatch):
    monkeypatch.setattr(budgets, "_active", budgets.Budgets(text_chars=50, int_digits=1))
    assert KitSandbox().from_string("{{ x * 1e307 * 10 }} {{ x + n }}").render(VALUES) == "inf 19.5"


def test_a_name_read_often_stays_checked():
    """The second read of a (class, name) takes the remembered verdict: it gives the same value, a bound
    str.format is still Jinja's sandboxed one, a path or private name is still refused, and an object that
    says it is of another class (a path) is judged every time."""
    from dataclasses import dataclass
    from pathlib import Path, PurePosixPath

    @dataclass
    class Cell:
        label: str
        root: Path
        _secret: int = 1
        say: object = None

    say = "{0.__class__}".format
    cells = [Cell("a", Path("/"), say=say), Cell("{0.__class__}", Path("/etc"), say=say)]
    env = KitSandbox(undefined=jinja2.StrictUndefined)
    both = "{% for c in cells %}{{ c.label }}{{ c.root }}{% endfor %}"
    assert env.from_string(both).render(cells=cells) == "a/{0.__class__}/etc"

    class Liar:
        name = "x"
        __class__ = property(lambda self: PurePosixPath)

    with pytest.raises(SecurityError):
        env.from_string("{{ b.name }}").render(b=Liar())
    for read in ("c.root.read_text()", "c._secret", "c.label.format(c)", "c.say(c)"):
        source = "{% for c in cells %}{{ " + read + " }}{% endfor %}"
        with pytest.raises(SecurityError):
            env.from_string(source).render(cells=cells)


def test_macros_called_the_short_way_give_what_jinja_gives():
    """Macros in loops and blocks, with a caller, defaults, varargs and kwargs, through KitSandbox.call's
    own path for a Macro: the same text as Jinja's sandbox, and the same errors."""
    from jinja2.sandbox import SandboxedEnvironment
    source = ("{% macro box(a, b=2) %}[{{ a }}{{ b }}{{ varargs }}{{ kwargs }}{{ caller() if caller }}]{% endmacro %}"
              "{% macro wrap() %}<{{ caller(3) }}>{% endmacro %}"
              "{% for i in range(3) %}{% set j = i * 2 %}{{ box(i, j, 7, k=loop.index) }}"
              "{% call(n) wrap() %}{{ n + i }}{{ box(j) }}{% endcall %}{% endfor %}"
              "{% call box('c') %}inner{% endcall %}"
              "{% macro amp(v) %}{{ v }}&{% endmacro %}{{ amp('<a>') }}{% autoescape false %}{{ amp('<b>') }}"
              "{% endautoescape %}{% set ns = namespace(s='') %}{% autoescape false %}{% set ns.s = amp('<c>') %}"
              "{% endautoescape %}{{ ns.s }}")  # made where output is not escaped: a plain text, escaped here
    kit, plain = KitSandbox(autoescape=True), SandboxedEnvironment(autoescape=True)
    assert kit.from_string(source).render() == plain.from_string(source).render()
    for bad in ("{% macro m(a) %}{{ a }}{% endmacro %}{{ m(1, 2) }}", "{% macro m(a) %}{% endmacro %}{{ m(b=1) }}"):
        messages = []
        for env in (kit, plain):
            with pytest.raises(TypeError) as error:
                env.from_string(bad).render()
            messages.append(str(error.value))
        assert messages[0] == messages[1]


def test_output_is_escaped_as_markupsafe_escapes_it():
    """A kit template's `{{ }}` (KitTemplate's escape) writes what Jinja's own escaping writes, for texts,
    numbers, Markup, objects with __html__, None and booleans, in macros, call blocks and set blocks; an
    undefined name is still an error."""
    from jinja2.sandbox import SandboxedEnvironment

    class Html:
        def __html__(self):
            return "<b>kept</b>"

    values = {"t": "R&D <1> \"q\" 'a'", "f": -1.5e-07, "i": -42, "m": Markup("<i>x</i>"), "h": Html(), "n": None,
              "b": True, "big": 10 ** 30, "nan": float("nan")}
    source = ("{% macro box(v) %}<{{ v }}>{% endmacro %}{% macro wrap(v) %}{{ v }}{{ caller() }}{% endmacro %}"
              "{% for k in ['t', 'f', 'i', 'm', 'h', 'n', 'b', 'big', 'nan'] %}{{ values[k] }}|{{ box(values[k]) }}"
              "{% call wrap(k) %}{{ values[k] }}{% endcall %}{% set s %}{{ values[k] }}{% endset %}{{ s }}{% endfor %}")
    ours = KitSandbox(autoescape=True, undefined=jinja2.StrictUndefined)
    theirs = SandboxedEnvironment(autoescape=True, undefined=jinja2.StrictUndefined)
    assert ours.from_string(source).render(values=values) == theirs.from_string(source).render(values=values)
    assert "R&amp;D &lt;1&gt; &#34;q&#34; &#39;a&#39;" in ours.from_string("{{ t }}").render(values)
    with pytest.raises(jinja2.UndefinedError):
        ours.from_string("{{ missing }}").render()
