#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks to build and test Courtside. Safe to run again.
set -euo pipefail
# systemd brings systemd-analyze, tmux drives the keeper's terminal, faketime fakes a wall clock, and
# chromium with its driver and selenium drive a real browser in the tests; zbar-tools reads the printed QR codes back.
# postgresql (Debian's, 15) is the second engine of the event log: its tests start throwaway servers of their own.
# nodejs runs the page scripts' own tests; gettext's msgfmt and msgcmp check the message catalogs.
packages=(libzmq3-dev libsqlite3-dev libqrencode-dev zbar-tools pkg-config python3 python3-zmq systemd tmux faketime chromium chromium-driver python3-selenium postgresql nodejs gettext)
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
