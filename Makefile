# Two commands for a fresh machine: `make kit` builds the default kit, `make test` runs the tests.
# Both create (and then reuse) the virtual environment in .venv by themselves.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: kit test bench golden architecture clean check-system

kit: $(STAMP)
	$(BIN)/pnpgen build

test: $(STAMP)
	$(BIN)/python -m pytest -n auto --dist loadfile --no-loadscope-reorder  # slowest files first: tests/conftest.py

bench: $(STAMP)
	$(BIN)/python scripts/bench.py

golden: $(STAMP)
	$(BIN)/python scripts/golden.py

architecture:  # docs/architecture.svg, drawn from the tables of docs/architecture.md
	@$(PYTHON) scripts/architecture_svg.py

check-system:
	@$(PYTHON) scripts/check_system.py

$(STAMP): pyproject.toml setup.py scripts/check_system.py
	@$(PYTHON) scripts/check_system.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(BIN)/python -m compileall -q generator games  # bytecode, as a packaged install has it (editable installs do not)
	@touch $(STAMP)

clean:
	rm -rf $(VENV) output/*/ .pytest_cache build dist
