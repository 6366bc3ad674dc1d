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
    kdegames-mahjongg-data-kf5 fonts-noto-core fonts-arphic-ukai fonts-cwtex-kai \
    fonts-arphic-uming fonts-arphic-gkai00mp fonts-arphic-bkai00mp fonts-wqy-zenhei fonts-wqy-microhei \
    fonts-cwtex-ming fonts-cwtex-heib fonts-cwtex-yen fonts-cwtex-fs fonts-hanazono fonts-ipafont-mincho \
    fonts-lxgw-wenkai fonts-seto fonts-klee fonts-vlgothic \
    python3-gi python3-gi-cairo gir1.2-rsvg-2.0 >/dev/null || \
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
# KMahjongg export needs librsvg through gi (system Python); the rest needs Pillow/CairoSVG (venv)
if [ -x /usr/bin/python3 ]; then
  /usr/bin/python3 datasets/synth/extract_art.py --cache "$CACHE" | grep -v -e gnome -e xmahjongg || true
fi
PY="${PYTHON:-$ROOT/.venv/bin/python}"
[ -x "$PY" ] || PY=python3
"$PY" datasets/synth/extract_art.py --cache "$CACHE" | grep -v kmahjongg || true
echo "install_art: faces in $CACHE/faces: $(ls "$CACHE/faces" 2>/dev/null | tr '\n' ' ')"
