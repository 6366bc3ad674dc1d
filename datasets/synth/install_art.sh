#!/bin/sh
# Install the optional (mostly GPL) tile art and fonts the synthetic generator can use, and
# extract what is not installed system-wide into data/art-cache/.  Nothing here is committed:
# rendered training images may be built from it, the art itself stays out of the repository.
# Needs root for apt-get install; everything else works as any user.  Re-running is harmless.
set -eu
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
CACHE="${1:-$ROOT/data/art-cache}"
mkdir -p "$CACHE/debs"
if [ "$(id -u)" = 0 ]; then
  apt-get install -y --no-install-recommends \
    kdegames-mahjongg-data-kf5 fonts-noto-core fonts-arphic-ukai fonts-cwtex-kai librsvg2-bin >/dev/null || \
    echo "install_art: apt-get install failed; continuing with what is present" >&2
else
  echo "install_art: not root, skipping apt-get install (kmahjongg tilesets, fonts)" >&2
fi
cd "$CACHE/debs"
for pkg in gnome-mahjongg xmahjongg; do
  if ! ls ${pkg}_*.deb >/dev/null 2>&1; then
    apt-get download "$pkg" >/dev/null 2>&1 || echo "install_art: could not download $pkg" >&2
  fi
  for deb in ${pkg}_*.deb; do
    [ -f "$deb" ] && dpkg-deb -x "$deb" "$CACHE/$pkg"
  done
done
cd "$ROOT"
PY="${PYTHON:-$ROOT/.venv/bin/python}"
[ -x "$PY" ] || PY=python3
"$PY" -m datasets.synth.extract_art --cache "$CACHE"
