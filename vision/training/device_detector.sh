#!/bin/sh
# The detectors on a lent GPU machine (session 19, issue 17): fine-tune the shipped main and
# close-up detectors from their ONNX files, side by side on the one GPU, for a fixed wall-clock
# budget, on a detector bank (vision/training/det_bank.py, carried as runs/detbank) plus a fresh
# synthetic batch the machine renders first with the repository's own art (no Debian art there);
# each run then exported to OUT_DIR/<name>/last/tile_detector.onnx (end) and
# OUT_DIR/<name>/half/tile_detector.onnx (the weights at half the budget).
#
#   sh vision/training/device_detector.sh OUT_DIR SECONDS
#   BANK=runs/detbank LR=4e-4 GEN=1500 MAIN_ZOOM=0.15 CLOSEUP_ZOOM=0.3 \
#   MAIN_BOOST=train_v26=2,train_v28=2 CLOSEUP_BOOST=v4-crops=2,v4-pasted=2,train_v26=2 \
#   MAIN_INIT=models/tile_detector.onnx CLOSEUP_INIT=models/tile_detector_closeup.onnx CLUTTER=0 \
#   DETECTORS="main closeup" sh ...      (DETECTORS: which of the two to train; device_all.sh trains main only)
#   DISTILL=1 DISTILL_SKIP=train_v54,train_v55 sh ...   (train_detector --distill: the starting network's heat kept
#   on the bank parts not skipped; session 38, off by default)
#   DISTILL_LABELS=1 sh ...   (with DISTILL: --distill-labels, none of it at labelled tile centres and little beside them; session 39)
#
# Runs the same on a CPU-only machine (slowly); the repository root is the package `mjscore`.
set -eu
OUT="${1:?usage: device_detector.sh OUT_DIR SECONDS}"
BUDGET="${2:?seconds}"
CORES=$(nproc)
WORKERS="${WORKERS:-$(( CORES / 2 - 1 > 1 ? CORES / 2 - 1 : 1 ))}"
. "$(dirname "$0")/device_common.sh"
if [ "${GEN:-1500}" -gt 0 ]; then
  "$PY" -m mjscore.datasets.synth.generate --out data/synth/device_v27 --count "${GEN:-1500}" --seed 27 \
    --size 640 --workers "$CORES" --art committed --layouts standing,standing,scatter,hand,rows,rack \
    --favour X=2 > "$OUT/generate.log" 2>&1 || tail -5 "$OUT/generate.log"
fi
run() {   # name, init onnx, zoom-in, boosts
  mkdir -p "$OUT/$1"
  "$PY" -m mjscore.vision.training.train_detector --bank "${BANK:-runs/detbank}" --init-onnx "$2" \
    --out "$OUT/$1/run" --epochs 1000 --epoch-size "${EPOCH_SIZE:-32000}" --batch "${BATCH:-64}" \
    --lr "${LR:-4e-4}" --zoom-in "$3" --workers "$WORKERS" --time-limit "$BUDGET" --threads 2 \
    --clutter "${CLUTTER:-0}" ${DISTILL:+--distill "$DISTILL"} ${DISTILL_SKIP:+--distill-skip "$DISTILL_SKIP"} \
    ${DISTILL_LABELS:+--distill-labels} \
    ${4:+--boost "$4"} > "$OUT/$1/train.log" 2>&1
}
DETECTORS="${DETECTORS:-main closeup}"
case " $DETECTORS " in *" main "*)
  run main "${MAIN_INIT:-models/tile_detector.onnx}" "${MAIN_ZOOM:-0.15}" "${MAIN_BOOST-train_v26=2,train_v28=2}" & ;; esac
case " $DETECTORS " in *" closeup "*)
  run closeup "${CLOSEUP_INIT:-models/tile_detector_closeup.onnx}" "${CLOSEUP_ZOOM:-0.3}" "${CLOSEUP_BOOST-v4-crops=2,v4-pasted=2,train_v26=2}" & ;; esac
wait || true
for NAME in $DETECTORS; do
  tail -2 "$OUT/$NAME/train.log"
  for CK in last half; do
    [ -f "$OUT/$NAME/run/$CK.pt" ] || continue
    "$PY" -m mjscore.vision.training.export --only det --det "$OUT/$NAME/run/$CK.pt" --out "/tmp/export_$NAME$CK" \
      > /dev/null 2>&1 && mkdir -p "$OUT/$NAME/$CK" && cp "/tmp/export_$NAME$CK/tile_detector.onnx" "$OUT/$NAME/$CK/"
  done
  rm -rf "$OUT/$NAME/run"
done
ls -la "$OUT"/*
