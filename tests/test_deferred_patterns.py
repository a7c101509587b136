"""reportlab's URI pattern, deferred (documents.deferred_patterns): the stand-in is the pattern reportlab
writes, is taken when pnpgen's documents are imported first, and matches as the compiled pattern does."""
from __future__ import annotations

import ast
import re
import subprocess
import sys

import reportlab.platypus.paragraph as rl_paragraph

from pnpgen.documents.deferred_patterns import URI, DeferredPattern


def test_the_deferred_pattern_is_reportlabs_own():
    source = open(rl_paragraph.__file__, encoding="utf-8").read()
    written = next(node.value.args[0].value for node in ast.parse(source).body
                   if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "uri_pat")
    assert written == URI


def test_a_process_that_imports_the_documents_first_compiles_it_when_used():
    said = subprocess.run([sys.executable, "-c", "import pnpgen.documents, reportlab.platypus.paragraph as p; "
                           "print(type(p.uri_pat).__name__, bool(p.uri_pat.match('https://example.org/a')))"],
                          capture_output=True, text=True, check=True).stdout.split()
    assert said == ["DeferredPattern", "True"]


def test_the_stand_in_answers_as_the_compiled_pattern():
    deferred, compiled = DeferredPattern(URI, re.IGNORECASE.value), re.compile(URI, re.IGNORECASE)
    for text in ("http://example.com/rules.pdf", "HTTPS://Exämple.org:8080/a?b#c", "ftp://10.0.0.1/x",
                 "not a uri", "mailto:someone@example.org"):
        found, expected = deferred.match(text), compiled.match(text)
        assert (found and found.groups()) == (expected and expected.groups())
    assert deferred.pattern == URI and deferred.flags == compiled.flags
