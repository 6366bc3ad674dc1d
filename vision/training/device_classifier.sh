#!/bin/sh
# The classifier runs on a lent GPU machine (session 18, issue 17): fine-tune the shipped
# classifier from its ONNX file on a crop bank (vision/training/crop_bank.py, carried as
# runs/bank) with fresh procedural flower/season crops rendered all the time by the machine's
# cores (vision/training/live_bonus.py), for a fixed wall-clock budget, one run per learning
# rate side by side on the one GPU, then each exported to OUT_DIR/lr_<LR>/tile_classifier.onnx.
#
#   sh vision/training/device_classifier.sh OUT_DIR SECONDS LR [LR ...]
#   BANK=runs/bank2 INIT=models/tile_classifier.onnx SHARES=real=..,art=..,synth=..,bonus=.. BOOST=NAME=F \
#   SHUFFLE=0.25 VARIED=1 DISTILL=1 sh ...      (SHUFFLE: --channel-shuffle, session 27; VARIED: --live-varied,
#   session 36; DISTILL: --distill WEIGHT, the bank's crops tied to INIT's reads, session 37)
#
# Each run checkpoints into OUT_DIR/lr_<LR>/run/ every epoch, so a run stopped by the machine's
# time limit still brings its last epoch back.
# Runs the same on a CPU-only machine (slowly); the repository root is the package `mjscore`.
set -eu
OUT="${1:?usage: device_classifier.sh OUT_DIR SECONDS LR [LR ...]}"
BUDGET="${2:?seconds}"
shift 2
RUNS=$#
CORES=$(nproc)
WORKERS="${WORKERS:-$(( (CORES - 2 * RUNS) / RUNS > 1 ? (CORES - 2 * RUNS) / RUNS : 1 ))}"
. "$(dirname "$0")/device_common.sh"
for LR in "$@"; do
  mkdir -p "$OUT/lr_$LR"
  "$PY" -m mjscore.vision.training.train_classifier --bank "${BANK:-runs/bank}" --live-bonus "$WORKERS" \
    --init-onnx "${INIT:-models/tile_classifier.onnx}" --crop-size 64 --out "$OUT/lr_$LR/run" --epochs 1000 \
    --epoch-size "${EPOCH_SIZE:-48000}" --batch "${BATCH:-512}" --lr "$LR" --grayscale 0.15 \
    --shares "${SHARES:-real=0.35,art=0.1,synth=0.3,bonus=0.25}" ${BOOST:+--boost "$BOOST"} ${SHUFFLE:+--channel-shuffle "$SHUFFLE"} ${VARIED:+--live-varied} \
    ${DISTILL:+--distill "$DISTILL"} \
    --time-limit "$BUDGET" --threads 2 > "$OUT/lr_$LR/train.log" 2>&1 &
done
wait || true
for LR in "$@"; do
  tail -3 "$OUT/lr_$LR/train.log"
  RUN="$OUT/lr_$LR/run"
  cp "$RUN/log.json" "$OUT/lr_$LR/log.json" || continue
  "$PY" -c "import sys, torch; ck = torch.load(sys.argv[1], weights_only=False, map_location='cpu'); \
torch.save({k: ck[k] for k in ('model', 'epoch', 'acc', 'width', 'arch', 'crop_size')}, sys.argv[2])" \
    "$RUN/last.pt" "$OUT/lr_$LR/model.pt"
  "$PY" -m mjscore.vision.training.export --only cls --cls "$RUN/last.pt" --out "/tmp/export_$LR" \
    > /dev/null 2>&1 && cp "/tmp/export_$LR/tile_classifier.onnx" "$OUT/lr_$LR/" && rm -rf "$RUN"
done
ls -la "$OUT"/*
