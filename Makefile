# sudosat: the two commands of the README are `make report` and `make test`.
# Everything runs inside .venv, created on first use with the system's python3.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

# Overridable report parameters: make report INSTANCES=path T=ms
INSTANCES ?= data/instances.txt
T ?= 10000
# make report QUICK=1: smaller studies (scaling grid up to N = 4, fewer puzzles) for a fast look
QUICK ?=
# Recipes get them single-quoted (a ' inside becomes '\''): blanks and shell characters stay text.
quote = '$(subst ','\'',$(1))'
# make report ENCODING=NAME SOLVERS=a,b: the encoding and solvers of the timed run (the build's
# defaults when left out); every value is checked before anything runs (exit 2 on a wrong one).
ENCODING ?=
SOLVERS ?=
REPORT_ARGS = --instances $(call quote,$(INSTANCES)) --time-limit-ms $(call quote,$(T)) \
	$(if $(ENCODING),--encoding $(call quote,$(ENCODING))) \
	$(if $(SOLVERS),--solvers $(call quote,$(SOLVERS))) $(if $(QUICK),--quick)

PYTEST_ARGS ?=
# make bench writes its CSVs and plots here; BENCH_OUT=benchmarks/results records a run over
# the committed ones (then update the figures the READMEs quote: test_readme_figures checks).
BENCH_OUT ?= build/bench

.PHONY: help venv install report test test-fast lint typecheck bench clean solve-own solve-zchaff \
	live serve

help:
	@echo "make report      set up .venv, run the notebooks, write reports/ and figures/"
	@echo "make test        set up .venv, lint, type-check, run the whole test suite"
	@echo "make test-fast   the same without the tests marked slow"
	@echo "make lint        ruff over the package, tests, benchmarks, scripts and notebooks"
	@echo "make typecheck   mypy over the package (settings in pyproject.toml)"
	@echo "make bench       run every benchmark script in benchmarks/ (output in build/bench/)"
	@echo "make solve-own   solve INSTANCES with our cdcl under T ms -> results/ (output + table)"
	@echo "make solve-zchaff  the same with zChaff (ZCHAFF=path/to/zchaff), the same T"
	@echo "make live        build the live workbench (Python in the browser) into build/live/"
	@echo "make serve       serve reports/ and build/live/ on 127.0.0.1 (PORT=8000)"

$(PY):
	$(PYTHON) -m venv $(VENV)

# Every extra of pyproject.toml: make install keeps installing everything.
EXTRAS := pysat,proofs,progress,widgets,notebooks,test,cluster,profile

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[$(EXTRAS)]'
	touch $(STAMP)

venv install: $(STAMP)

# The builder checks INSTANCES and T (as sudosat solve checks -T) before it runs anything, and
# writes reports/ and figures/ only once every page succeeded.
report: $(STAMP)
	$(PY) -m sudosat.report.build $(REPORT_ARGS)

# The suite runs only on code that lints and type-checks (a few seconds once mypy's cache is warm).
test: lint typecheck
	$(PY) -m pytest -n 2 $(PYTEST_ARGS)

test-fast: lint typecheck
	$(PY) -m pytest -n 2 -m "not slow" $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check sudosat tests benchmarks scripts live notebooks

typecheck: $(STAMP)
	$(PY) -m mypy

# The scripts import each other as `benchmarks.*`: the project's root goes on the path.
bench: $(STAMP)
	@mkdir -p $(call quote,$(BENCH_OUT))
	@for script in benchmarks/*.py; do echo "== $$script"; \
		SUDOSAT_BENCH_RESULTS=$(call quote,$(BENCH_OUT)) \
		PYTHONPATH=$(call quote,$(CURDIR)) $(PY) $$script || exit 1; done
	@echo "CSVs and plots in $(BENCH_OUT)/"

# The course's two orchestrations, with the same T: make solve-own INSTANCES=f T=ms
solve-own: $(STAMP)
	scripts/solve-own $(call quote,$(INSTANCES)) $(call quote,$(T)) results

solve-zchaff: $(STAMP)
	scripts/solve-zchaff $(call quote,$(INSTANCES)) $(call quote,$(T)) results

# The live workbench: a static site from pinned registry packages (versions in pyproject.toml);
# downloads are cached in build/live-cache/. It must be served over http: make serve.
live: $(STAMP)
	$(PY) -m live.build

PORT ?= 8000
serve: $(STAMP)
	$(PY) -m live.serve --port $(call quote,$(PORT))

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .mypy_cache .ruff_cache build *.egg-info
