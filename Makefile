# Two commands: `make run` and `make test`. Both set everything up from nothing first.
# Needs only python3 (>= 3.11), pip and make; uv is installed into .tools/ and builds .venv/
# from the lock file (uv.lock).
PYTHON ?= python3
UV_VERSION := 0.13.9
TOOLS := .tools
UV := $(TOOLS)/bin/uv
VENV := .venv
BIN := $(VENV)/bin
export UV_PYTHON_DOWNLOADS := never
export UV_PYTHON := $(PYTHON)
# Every process make starts writes the bytecode of what it imports, once, for all the others
# (CI sets PYTHONDONTWRITEBYTECODE): the suite starts hundreds of Python processes (servers,
# pool workers), which would otherwise each compile every module they import from source.
# Written as imported, only what runs is compiled (a fraction of the dependencies' 12,000 files,
# which compiling all at install would cost the set-up ~20 CPU-seconds).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: setup system-packages run test lint lint-py lint-js test-js types precompile \
	precompile-src precompile-cores precompile-rl precompile-tests pytest-needs pytest suite \
	flake-hunt bench clean

setup: $(VENV)/.synced

# Debian packages the browser and PostgreSQL tests need (chromium-headless-shell, a Japanese font, postgresql, redis-server).
# CI installs them itself; on your machine run `make system-packages` once (root or sudo).
system-packages:
	sh scripts/system-packages.sh

$(UV):
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/pip install --quiet uv==$(UV_VERSION)

$(VENV)/.synced: pyproject.toml uv.lock | $(UV)
	$(UV) sync --frozen --all-extras
	touch $@

# The main job (see README): the game server with the browser client, SQLite in data/.
# HOST and PORT change where it listens (HOST=0.0.0.0 to let other devices in).
HOST ?= 127.0.0.1
PORT ?= 8000
run: setup
	$(BIN)/dos serve --host $(HOST) --port $(PORT) --data data

lint: lint-py lint-js

lint-py: setup
	$(CHECK)$(BIN)/ruff check src tests bench
	$(CHECK)$(BIN)/ruff format --check src tests bench

# The browser client's modules: types (tsc, JSDoc under // @ts-check, protocol.d.ts generated
# by `python -m dos.server.protocol.typescript`) and ESLint, from package-lock.json.
lint-js: node_modules/.installed
	$(CHECK)npx --no-install tsc --noEmit -p tsconfig.json
	$(CHECK)npx --no-install eslint src/dos/web/static/js tests/js

# The page's decisions as pure functions (actions.js, sound.js, hintstate.js), tested in node.
test-js: node_modules/.installed
	$(CHECK)node --test tests/js/

types: setup
	$(CHECK)$(BIN)/mypy

# The node packages (package-lock.json): axe-core for the accessibility tests, TypeScript and
# ESLint for lint-js.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts
	touch $@

# The fast core compiled into numba's disk cache now, rather than by the suite's workers; and
# the package's bytecode.
precompile: precompile-src precompile-cores precompile-rl precompile-tests

precompile-src: setup
	$(BIN)/python -m compileall -q src

# The test modules as pytest rewrites their asserts, cached by one collection (rather than by each
# of the suite's workers), and the bytecode of everything the tests import.
precompile-tests: precompile-src
	$(BIN)/pytest --collect-only -q -p no:cacheprovider >/dev/null

precompile-cores precompile-rl: precompile-%: setup
	$(BIN)/python -m dos.fast.precompile $*

# The RL functions inline the cores' functions: compiled after them, they load those from the
# cache instead of compiling them a second time (about 12 CPU-seconds).
precompile-rl: | precompile-cores

pytest-needs: setup $(if $(filter true,$(CI)),system-packages) node_modules/.installed

# The suite runs on PYTEST_WORKERS processes (pytest-xdist), each test module on one worker
# (three on CI's two cores: a sixth of the time the tests wait on servers and browsers):
# every module starts its own servers on free ports and data folders of its own. The modules
# go out in the order tests/conftest.py gives them: the longest first, the browser ones together. Those folders
# go to memory (/dev/shm) where it has room (2 GiB or more): every stored action is synced to
# disk, which the tests need not wait for.
PYTEST_WORKERS ?= 3
TEST_TMPDIR := $(shell [ "$$(df --output=avail -B1G /dev/shm 2>/dev/null | tail -1)" -ge 2 ] 2>/dev/null && echo /dev/shm)
pytest: pytest-needs
	$(if $(TEST_TMPDIR),TMPDIR=$(TEST_TMPDIR) )$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadscope --no-loadscope-reorder

# `make test`: the Python and the node packages are installed side by side; the suite starts
# once the fast core's rule-set functions are compiled (the bots of the test servers run
# them), the tests' bytecode written and the browser and node packages installed; lint, the type check, the node tests and the RL functions' compilation
# (only tests/rl needs them, late in the suite's order) share the cores meanwhile and while
# the suite's first modules wait on their servers, a little behind the suite's own work
# (CHECK). Any of them failing fails `make test`.
CHECK := $(if $(filter test,$(MAKECMDGOALS)),nice -n 5 )
test:
	$(MAKE) --no-print-directory -j4 CHECK="$(CHECK)" suite types lint-js lint-py test-js \
		precompile-rl

suite: precompile-cores precompile-tests pytest-needs
	$(MAKE) --no-print-directory pytest

# The flake hunt: tests/web, tests/server and tests/cluster ROUNDS times, each round under
# another deal seed and order of the tests; each failure is printed with the seeds that
# reproduce it (scripts/flake_hunt.py). SEED=N repeats a hunt.
ROUNDS ?= 3
flake-hunt: pytest-needs precompile
	$(if $(TEST_TMPDIR),TMPDIR=$(TEST_TMPDIR) )$(BIN)/python scripts/flake_hunt.py --rounds $(ROUNDS) \
		--workers $(PYTEST_WORKERS) $(if $(SEED),--seed $(SEED))

# The peers live in the `bench` dependency group only; the next `make setup` drops them again.
bench: | $(UV)
	rm -f $(VENV)/.synced
	$(UV) sync --frozen --all-extras --group bench
	$(BIN)/python bench/speed.py

clean:
	rm -rf $(VENV) $(TOOLS) node_modules .mypy_cache .ruff_cache .pytest_cache .hypothesis \
		.import_linter_cache .grimp_cache
