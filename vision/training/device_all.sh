#!/bin/sh
# The classifier and the main detector trained in ONE call on a lent GPU machine (session 35,
# issue 17). Why one call: a task is now lent 15 minutes of device time in all, a start costs a
# minute or more and one command may run 10 minutes, so the two-call stages of sessions 18-19
# no longer fit; the two networks share the one GPU and the machine's cores side by side.
# The classifier fine-tunes from its ONNX file on a crop bank with live procedural flower/season
# faces and, by default (VARIED=1; VARIED= turns it off), the design grammar's suit and honour
# faces in half of that live share (device_classifier.sh; session 36: on the held-out face design
# the shipped classifier reads 0.55 of the tiles, so the GPU time goes to more designs); the main detector from its ONNX file on a detector bank holding
# racks of backs and, since session 36, scenes of the design grammar (--art varied, batches
# v56-v58) beside those of v53-v55 (device_detector.sh, DETECTORS=main). Both banks travel with the call:
#
#   run(command="sh vision/training/device_all.sh $OUT 420", carry=["runs/bank35", "runs/detbank36"], timeout_s=600)
#   CLS_BANK=runs/bank35 DET_BANK=runs/detbank36 CLS_LR=8e-4 DET_LR=2e-4 SHUFFLE=0.25 VARIED=1 \
#   CLS_SHARES=real=..,art=..,synth=..,bonus=.. DET_BOOST=train_v54=2,train_v55=2,train_v57=2,train_v58=2 GEN=0 sh ...
#   DISTILL=1 sh ...   (the bank's crops tied to the starting classifier's reads, session 37; off by default
#   here: the CPU stage that shipped with it had 45 minutes; the GPU runs of sessions 18-19 gained on the seen
#   sets without it, and a long run at lr 8e-4 would be held to the starting file's mistakes too)
#   DET_DISTILL=1 sh ...   (the detector's heat kept on the bank parts other than DET_DISTILL_SKIP, by default
#   the racks v54, v55, v57, v58; session 38: off by default, models/README.md says what it did on the CPU)
#   DET_DISTILL=1 DET_DISTILL_LABELS=1 DET_DISTILL_SKIP= sh ...   (no distillation at labelled tile centres, every
#   bank part distilled; session 39)
#
# SECONDS is each trainer's wall-clock budget; exporting adds about half a minute. What comes
# back (at most 8 files, two folders down, as the device tool allows):
#   OUT/lr_<CLS_LR>/{tile_classifier.onnx, model.pt, log.json, train.log}
#   OUT/main/{last,half}/tile_detector.onnx, OUT/main/train.log
# The banks are packed on the CPU machine by the commands in models/README.md (sessions 35-36);
# the tree plus both banks must stay under the tool's 64 MiB.
# Runs the same on a CPU-only machine (slowly: the smoke test there is SECONDS=30).
set -eu
OUT="${1:?usage: device_all.sh OUT_DIR SECONDS}"
BUDGET="${2:?seconds}"
HERE="$(dirname "$0")"
CORES=$(nproc)
HALF=$(( CORES / 2 - 2 > 1 ? CORES / 2 - 2 : 1 ))
. "$HERE/device_common.sh"     # once here: the two scripts below would race to make the same link
BANK="${CLS_BANK:-runs/bank35}" WORKERS="$HALF" SHUFFLE="${SHUFFLE:-0.25}" VARIED="${VARIED-1}" DISTILL="${DISTILL-}" \
  SHARES="${CLS_SHARES:-real=0.3,art=0.1,synth=0.25,bonus=0.35}" \
  sh "$HERE/device_classifier.sh" "$OUT" "$BUDGET" "${CLS_LR:-8e-4}" > "$OUT/classifier.out" 2>&1 &
BANK="${DET_BANK:-runs/detbank36}" WORKERS="$HALF" GEN="${GEN:-0}" DETECTORS=main LR="${DET_LR:-2e-4}" \
  DISTILL="${DET_DISTILL-}" DISTILL_SKIP="${DET_DISTILL_SKIP-train_v54,train_v55,train_v57,train_v58}" \
  DISTILL_LABELS="${DET_DISTILL_LABELS-}" \
  CLUTTER="${CLUTTER:-0.5}" MAIN_BOOST="${DET_BOOST-train_v54=2,train_v55=2,train_v57=2,train_v58=2}" \
  sh "$HERE/device_detector.sh" "$OUT" "$BUDGET" > "$OUT/detector.out" 2>&1 &
wait || true
tail -n 4 "$OUT/classifier.out" "$OUT/detector.out"
rm -f "$OUT/classifier.out" "$OUT/detector.out" "$OUT/generate.log"
find "$OUT" -type f | sort
