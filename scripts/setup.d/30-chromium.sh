#!/usr/bin/env bash
# Headless Chromium and its WebDriver (Debian's chromium + chromium-driver) for the browser suite.
set -euo pipefail
say() { printf '[setup chromium] %s\n' "$*"; }

if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
  say "ready: $(/usr/bin/chromium --version 2>/dev/null | head -1)"
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
say "installing chromium and chromium-driver (about a minute, once)"
# Acquire::Retries: apt retries a failed download itself (a mirror hiccup) instead of failing the setup.
$sudo apt-get -o Acquire::Retries=3 update
DEBIAN_FRONTEND=noninteractive $sudo apt-get -o Acquire::Retries=3 install -y --no-install-recommends \
  chromium chromium-driver
say "ready: $(/usr/bin/chromium --version 2>/dev/null | head -1)"
