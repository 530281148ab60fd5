#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks to build and test Courtside. Safe to run again.
set -euo pipefail
# systemd brings systemd-analyze, tmux drives the keeper's terminal, faketime fakes a wall clock, and
# chromium with its driver and selenium drive a real browser in the tests; zbar-tools reads the printed QR codes back.
# postgresql (Debian's, 15) is the second engine of the event log: its tests start throwaway servers of their own.
# nodejs runs the page scripts' own tests; gettext's msgfmt and msgcmp check the message catalogs.
# python3-pip installs PyPI's axe-selenium-python (axe-core for the accessibility audit), which Debian does not package.
# haproxy runs in front of two gateways in the balancer's test (config/haproxy.cfg).
packages=(libzmq3-dev libsqlite3-dev libqrencode-dev zbar-tools pkg-config python3 python3-zmq systemd tmux faketime chromium chromium-driver python3-selenium postgresql nodejs gettext python3-pip haproxy)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update
  $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi
# The tests run Debian's /usr/bin/python3 (its python3-selenium): axe goes beside it, once. Bookworm's
# Python 3.11 gets axe-selenium-python 2.1.6, whose axe-core is 3.1.1 (2018, without the 7:1 contrast
# rule); axe-playwright-python ships axe-core 4.12 as a plain file, which the audit hands to
# axe-selenium-python. Both pinned, so the rules audited change only with this file; both without
# their dependencies (selenium is Debian's; Playwright and pytest the audit never imports).
axe_pins=(axe-selenium-python==2.1.6 axe-playwright-python==0.1.8)
if ! /usr/bin/python3 -c '
import importlib.metadata as m, sys
sys.exit(0 if m.version("axe-selenium-python") == "2.1.6" and m.version("axe-playwright-python") == "0.1.8" else 1)' 2>/dev/null; then
  /usr/bin/python3 -m pip install --quiet --root-user-action=ignore --break-system-packages --no-deps "${axe_pins[@]}"
fi
