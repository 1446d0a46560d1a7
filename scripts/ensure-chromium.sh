#!/usr/bin/env bash
# Browser tests use Debian's Chromium. Install it when it is missing and we may (root, apt-get).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's chromium for the browser tests…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium fonts-dejavu-core poppler-utils >/dev/null
else
  echo "The browser tests need /usr/bin/chromium (Debian package 'chromium'); install it and run again." >&2
  exit 1
fi
