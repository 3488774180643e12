#!/usr/bin/env bash
# Installs what WhileHere needs on a fresh Debian machine. Idempotent and
# quiet: safe to run before every build (the README and .ci/run both do).
set -euo pipefail

packages=(pkg-config libxml2 libmicrohttpd-dev libsodium-dev libcrypt-dev libsqlite3-dev libnats-dev libcurl4-openssl-dev nats-server libmosquitto-dev mosquitto gpsd gpsd-clients libnotify-bin dbus python3-dbus python3-gi curl wrk bsdutils libjs-leaflet chromium chromium-driver)
missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  export DEBIAN_FRONTEND=noninteractive
  log=$(mktemp)
  # apt's chatter (debconf notes included) is shown only when it fails.
  if ! { $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq "${missing[@]}"; } >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    echo "setup: could not install: ${missing[*]}" >&2
    exit 1
  fi
  rm -f "$log"
fi
command -v swift >/dev/null || { echo "setup: the Swift 6 toolchain must be on PATH (https://swift.org/install)" >&2; exit 1; }
