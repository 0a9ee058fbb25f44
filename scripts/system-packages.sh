#!/bin/sh
# Installs the Debian packages the test suite needs and that PyPI does not provide:
#   chromium-headless-shell  the browser the Playwright tests drive (Chromium without its
#                     desktop layers; Playwright's own download is never used)
#   fonts-noto-cjk    a Japanese font, without which Japanese renders as empty boxes
#   postgresql        the server the persistence tests also run against
#   redis-server      the server the cluster tests (table leases, tests/cluster) run against
#   npm               installs axe-core (package-lock.json) for the accessibility tests
# Run by `make test` when CI=true (and by `make system-packages` by hand). Needs root or sudo.
set -eu
missing=""
command -v chromium-headless-shell >/dev/null 2>&1 || missing="$missing chromium-headless-shell"
dpkg -s fonts-noto-cjk >/dev/null 2>&1 || missing="$missing fonts-noto-cjk"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$missing postgresql"
command -v redis-server >/dev/null 2>&1 || missing="$missing redis-server"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
if [ -z "$missing" ]; then
    exit 0
fi
echo "installing Debian packages:$missing"
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
