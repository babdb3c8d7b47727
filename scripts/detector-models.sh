#!/usr/bin/env bash
# Converts the subject detector's two models (src/domain/render/photo/subjects-worker.ts) from the
# TensorFlow Lite files MediaPipe publishes in its npm packages to ONNX, for ONNX Runtime, into
# models/. Run once when a model's version changes; the results are committed (docs/performance.md,
# "The subject detector"). Needs npm and Python 3 with venv; the converter comes from PyPI.
#
#   bash scripts/detector-models.sh
#
# - BlazeFace short range: face_detection_short_range.tflite of @mediapipe/face_detection.
# - SSD-MobileNetV2 on Open Images v4: inside @mediapipe/objectron's packed assets, whose loader
#   script lists each file's byte range; its label map comes out beside it.
# Both are Apache-2.0 (their package.json); models/LICENSE holds that licence's text.
set -euo pipefail
cd "$(dirname "$0")/.."
FACE=@mediapipe/face_detection@0.4.1657300184
OBJECTRON=@mediapipe/objectron@0.4.1675468480
CONVERTER=tflite2onnx==0.4.1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet "$CONVERTER"

(cd "$work" && npm pack --silent "$FACE" "$OBJECTRON" >/dev/null)
for tgz in "$work"/*.tgz; do
  mkdir -p "${tgz%.tgz}" && tar -xzf "$tgz" -C "${tgz%.tgz}"
done
face_dir=$(ls -d "$work"/mediapipe-face_detection-*/package)
objectron_dir=$(ls -d "$work"/mediapipe-objectron-*/package)

cp "$face_dir/face_detection_short_range.tflite" "$work/face.tflite"
node - "$objectron_dir" "$work" <<'JS'
const fs = require('node:fs');
const [dir, out] = process.argv.slice(2);
const loader = fs.readFileSync(`${dir}/objectron_solution_packed_assets_loader.js`, 'utf8');
const data = fs.readFileSync(`${dir}/objectron_solution_packed_assets.data`);
const range = (suffix) => {
  const m = new RegExp(`"filename": "[^"]*${suffix}", "start": (\\d+), "end": (\\d+)`).exec(loader);
  if (!m) throw new Error(`no ${suffix} in the packed assets`);
  return data.subarray(Number(m[1]), Number(m[2]));
};
fs.writeFileSync(`${out}/ssd.tflite`, range('ssd_mobilenetv2_oidv4_fp16.tflite'));
fs.writeFileSync(`${out}/labels.txt`, range('oidv4_labelmap.txt'));
JS

"$work/venv/bin/tflite2onnx" "$work/face.tflite" models/face_detection_short_range.onnx
"$work/venv/bin/tflite2onnx" "$work/ssd.tflite" models/ssd_mobilenetv2_oidv4.onnx
cp "$work/labels.txt" models/oidv4_labelmap.txt
ls -l models
