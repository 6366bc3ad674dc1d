# Sourced by the device_*.sh scripts (with OUT set): makes the repository root importable as the
# package `mjscore` (it is the package, under any folder name), sets PY and says what torch sees.
mkdir -p "$OUT" /tmp/pkg
[ -e /tmp/pkg/mjscore ] || ln -s "$(pwd)" /tmp/pkg/mjscore
export PYTHONPATH="/tmp/pkg${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
PY="${PYTHON:-python3}"
"$PY" -c "import torch; print('torch', torch.__version__, 'cuda', torch.cuda.is_available())"
