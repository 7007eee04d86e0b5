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
# $(call quoted,NAME): the variable NAME as typed, quoted: a '$' in it is text too
# (make report INSTANCES='dollar$HOME.txt'), not make's.
quoted = $(call quote,$(value $(1)))
# make report ENCODING=NAME SOLVERS=a,b: the encoding and solvers of the timed run (the build's
# defaults when left out); every value is checked before anything runs (exit 2 on a wrong one).
ENCODING ?=
SOLVERS ?=
REPORT_ARGS = --instances $(call quoted,INSTANCES) --time-limit-ms $(call quoted,T) \
	$(if $(value ENCODING),--encoding $(call quoted,ENCODING)) \
	$(if $(value SOLVERS),--solvers $(call quoted,SOLVERS)) $(if $(QUICK),--quick)

PYTEST_ARGS ?=
# make bench writes its CSVs and plots here; BENCH_OUT=benchmarks/results records a run over
# the committed ones (then update the figures the READMEs quote: test_readme_figures checks).
BENCH_OUT ?= build/bench

.PHONY: help venv install report test test-fast lint typecheck bench clean solve-own solve-zchaff \
	live serve site

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
	@echo "make site        the report and the live workbench in one folder to publish (build/site/)"

$(PY):
	$(PYTHON) -m venv $(VENV)

# Every extra of pyproject.toml: make install keeps installing everything.
EXTRAS := pysat,proofs,progress,widgets,notebooks,test,cluster,profile

# The compiled cdcl core is built by the install (setup.py) where a C compiler exists; a
# change to its sources installs again, which compiles it again.
TWIN_SOURCES := $(wildcard sudosat/sat/solvers/cdcl/compiled/*.pyx sudosat/sat/solvers/cdcl/compiled/*.pxd)

$(STAMP): pyproject.toml setup.py $(TWIN_SOURCES) | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[$(EXTRAS)]'
	@$(PY) -c "from sudosat.sat.solvers.cdcl.cores import describe; print('sudosat: cdcl', describe())"
	touch $(STAMP)

venv install: $(STAMP)

# The builder checks INSTANCES and T (as sudosat solve checks -T) before it runs anything, and
# writes reports/ and figures/ only once every page succeeded.
report: $(STAMP)
	$(VENV)/bin/sudosat report $(REPORT_ARGS)

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
	@mkdir -p $(call quoted,BENCH_OUT)
	@for script in benchmarks/*.py; do echo "== $$script"; \
		SUDOSAT_BENCH_RESULTS=$(call quoted,BENCH_OUT) \
		PYTHONPATH=$(call quote,$(CURDIR)) $(PY) $$script || exit 1; done
	@echo "CSVs and plots in $(BENCH_OUT)/"

# The course's two orchestrations, with the same T: make solve-own INSTANCES=f T=ms
solve-own: $(STAMP)
	scripts/solve-own $(call quoted,INSTANCES) $(call quoted,T) results

solve-zchaff: $(STAMP)
	scripts/solve-zchaff $(call quoted,INSTANCES) $(call quoted,T) results

# The live workbench: a static site from pinned registry packages (versions in pyproject.toml);
# downloads are cached in build/live-cache/. It must be served over http: make serve.
# Building, serving and assembling the site install nothing: live.build, live.serve and live.site
# use the standard library, read sudosat from this folder, and npm fetches Pyodide. They run in a
# bare venv of their own (no pip, no package), so they neither need nor start make install.
LIVE_VENV  := build/live-venv
LIVE_PY    := $(LIVE_VENV)/bin/python
LIVE_STAMP := $(LIVE_VENV)/.ready

$(LIVE_STAMP):
	$(PYTHON) -m venv --without-pip $(LIVE_VENV)
	@$(LIVE_PY) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else \
		"make live needs Python 3.11+ (PYTHON=python3.11 make live)")'
	touch $(LIVE_STAMP)

live: $(LIVE_STAMP)
	$(LIVE_PY) -m live.build

PORT ?= 8000
serve: $(LIVE_STAMP)
	$(LIVE_PY) -m live.serve --port $(call quoted,PORT)

# One folder to publish: reports/ (as committed, or as make report last wrote it) at its root and
# the live workbench in live/, where the report links it; any static server serves it as it is,
# under any path. make site SITE=dir writes it elsewhere. .github/workflows/pages.yml publishes it.
SITE ?= build/site
site: live
	$(LIVE_PY) -m live.site --out $(call quoted,SITE)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .mypy_cache .ruff_cache build *.egg-info
