#!/bin/sh
# Rebuild every evaluation set that benchmarks/judge_models.py reads, on a fresh machine, in one
# command (the sets are not committed: they are made from ../shared and the generator).
#
#   sh datasets/rebuild_eval.sh [DATA_ROOT]        # DATA_ROOT: ../shared (default: $MJSCORE_DATA_ROOT)
#
# Why: every session on a new machine used to rebuild them line by line from models/README.md
# (about 40 minutes of commands to find and run). Each set is built into NAME.part and renamed
# when its command ends well, and a set already on disk is skipped, so a cut run resumes and a
# rerun is harmless. The commands are the ones models/README.md records for each set; the
# synthetic sets depend on the art and fonts installed (datasets/synth/README.md), so the
# first step is install_art.sh (apt-get as root; as another user it uses what is present).
# On 2 cores it takes about 10 minutes (session 38). Check after it with the shipped models:
#   python benchmarks/judge_models.py --models models --out runs/judge_check
set -eu
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
DATA_ROOT="${1:-${MJSCORE_DATA_ROOT:-$ROOT/../shared}}"
DATA_ROOT="$(cd "$DATA_ROOT" && pwd)"
export MJSCORE_DATA_ROOT="$DATA_ROOT"
PY="${PYTHON:-$ROOT/.venv/bin/python}"
[ -x "$PY" ] || PY=python3
W="${WORKERS:-2}"

# build OUT CMD...: run CMD with the literal word OUT replaced by OUT.part, then rename it OUT
build() {
  out="$1"; shift
  if [ -e "$out" ]; then echo "rebuild_eval: $out is there"; return; fi
  rm -rf "$out.part"; mkdir -p "$(dirname "$out")"
  echo "rebuild_eval: making $out"
  n=$#
  while [ "$n" -gt 0 ]; do      # rotate the arguments once, OUT replaced
    a="$1"; shift
    [ "$a" = OUT ] && a="$out.part"
    set -- "$@" "$a"; n=$((n - 1))
  done
  "$@"
  mv "$out.part" "$out"
}

[ -e data/art-cache/faces ] || sh datasets/synth/install_art.sh

build data/clean/chinese-v4 "$PY" -m mjscore.datasets.cleaning.clean_chinese_v4 --replay --out OUT
V4=data/clean/chinese-v4/valid

# synthetic tiles: choice batch (seed 106, repository art only: models/README.md sessions 10-11), held-out face design (107), hold-out (105, reported)
build data/eval/synth_choose "$PY" -m mjscore.datasets.synth.generate --out OUT --count 150 --seed 106 --size 640 --workers "$W" --art committed
build data/eval/synth_unseen "$PY" -m mjscore.datasets.synth.generate --out OUT --count 200 --seed 107 --size 640 --workers "$W" --art unseen
build data/eval/synth_holdout "$PY" -m mjscore.datasets.synth.generate --out OUT --count 200 --seed 105 --size 640 --workers "$W"

# hands: seed 2 (choice), seed 3 in the held-out design (choice), seed 1 (reported)
build data/eval/scenes_choose "$PY" -m mjscore.datasets.scene_eval make OUT --count 100 --seed 2
build data/eval/scenes_unseen "$PY" -m mjscore.datasets.scene_eval make OUT --count 100 --seed 3 --art unseen
build data/scenes "$PY" -m mjscore.datasets.scene_eval make OUT --count 100 --seed 1

# the same photos laid far off in big frames
build data/eval/v4_far_off "$PY" -m mjscore.datasets.far_off "$V4" OUT --seed 30
build data/eval/scenes_far_off "$PY" -m mjscore.datasets.far_off data/eval/scenes_choose OUT --seed 31
build data/eval/scenes1_far_off "$PY" -m mjscore.datasets.far_off data/scenes OUT --seed 32

# lone tiles and close-ups: the real set (chinese-v4 valid + leo), the synthetic one, and at phone size
build data/eval/closeup "$PY" -m mjscore.datasets.closeup_eval --v4 "$V4" --out OUT
build data/eval/closeup_synth "$PY" -m mjscore.datasets.closeup_eval --v4 data/eval/synth_choose --v4-only --seed 2026 --out OUT
if [ ! -e data/eval/closeup_big ]; then
  rm -rf data/eval/closeup_big.part
  for part in v4-crops v4-pasted; do
    "$PY" -m mjscore.datasets.phone_size "data/eval/closeup_synth/$part" "data/eval/closeup_big.part/$part"
  done
  cp data/eval/closeup_synth/data.yaml data/eval/closeup_big.part/
  mv data/eval/closeup_big.part data/eval/closeup_big
fi
echo "rebuild_eval: done"
