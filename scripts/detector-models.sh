#!/usr/bin/env bash
# Converts the subject detector's two models (src/domain/render/photo/subjects-worker.ts) from the
# TensorFlow Lite files MediaPipe publishes in its npm packages to ONNX, for ONNX Runtime, into
# models/. Run once when a model's version changes; the results are committed (docs/performance.md,
# "The subject detector"). Needs npm, the project's node_modules (`npm ci`: sharp copies the
# calibration photos) and Python 3 with venv; the converter and the quantizer come from PyPI.
#
#   bash scripts/detector-models.sh
#
# - BlazeFace short range: face_detection_short_range.tflite of @mediapipe/face_detection.
# - SSD-MobileNetV2 on Open Images v4: inside @mediapipe/objectron's packed assets, whose loader
#   script lists each file's byte range; its label map comes out beside it.
# - The SSD is then quantized to 8-bit integers (ONNX Runtime's static quantization: weights per
#   channel on 7 bits, activations' ranges calibrated on the seven photographs of
#   test/fixtures/photos, stretched to 300 × 300 as the detector sees them, but with libvips'
#   default kernel where the service's copy now uses a linear one, for the same subjects
#   (decode.ts); the photographs of test/fixtures/subjects are held out, the two dogs of
#   friends_…jpg are not: calibrated without them, the SSD found the upper dog lower and the
#   default crop cut its head): its run takes 4 ms of CPU instead of 8.5.
#   The quantizer's ONNX Runtime (1.32) is newer than the service's onnxruntime-node (1.30); the
#   model uses only opset 13's QuantizeLinear and DequantizeLinear, which both read. 7-bit weights
#   (reduce_range) because ONNX Runtime's 8-bit kernels on CPUs without VNNI saturate: with 8 bits
#   the SSD lost the cameraman's person (0.45 → under 0.4).
# Both are Apache-2.0 (their package.json); models/LICENSE holds that licence's text.
set -euo pipefail
cd "$(dirname "$0")/.."
FACE=@mediapipe/face_detection@0.4.1657300184
OBJECTRON=@mediapipe/objectron@0.4.1675468480
CONVERTER=tflite2onnx==0.4.1
QUANTIZER=(onnx==1.23.2 onnxruntime==1.32.0)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet "$CONVERTER"
python3 -m venv "$work/quantizer"
"$work/quantizer/bin/pip" install --quiet "${QUANTIZER[@]}"

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
"$work/venv/bin/tflite2onnx" "$work/ssd.tflite" "$work/ssd.onnx"
cp "$work/labels.txt" models/oidv4_labelmap.txt

# The calibration photos as the detector sees them (decode.ts: upright, stretched to 300 × 300,
# 8-bit sRGB; libvips' default kernel, as when the model was made), one raw RGB file each.
mkdir -p "$work/calibration"
node - "$work/calibration" <<'JS'
const fs = require('node:fs');
const sharp = require('sharp');
const out = process.argv[2];
const dir = 'test/fixtures/photos/';
(async () => {
  for (const name of fs.readdirSync(dir).filter((f) => /\.(jpe?g|png|webp)$/i.test(f)))
    fs.writeFileSync(
      `${out}/${name}.rgb`,
      await sharp(dir + name).rotate().resize(300, 300, { fit: 'fill' }).removeAlpha().toColourspace('srgb').raw().toBuffer(),
    );
})();
JS
"$work/quantizer/bin/python" - "$work" <<'PY'
import glob, sys
import numpy as np
import onnx
from onnx import version_converter
from onnxruntime.quantization import (CalibrationDataReader, CalibrationMethod, QuantFormat,
                                      QuantType, quant_pre_process, quantize_static)
work = sys.argv[1]
# Per-channel scales need opset 13's DequantizeLinear; tflite2onnx writes opset 11.
onnx.save(version_converter.convert_version(onnx.load(f'{work}/ssd.onnx'), 13), f'{work}/ssd13.onnx')
quant_pre_process(f'{work}/ssd13.onnx', f'{work}/ssd_pre.onnx', skip_symbolic_shape=True)
name = onnx.load(f'{work}/ssd_pre.onnx').graph.input[0].name
def tensor(path):
    rgb = np.fromfile(path, dtype=np.uint8).reshape(300, 300, 3).astype(np.float32) / 127.5 - 1
    return rgb.transpose(2, 0, 1)[None]
class Photos(CalibrationDataReader):
    def __init__(self):
        self.feeds = iter([{name: tensor(p)} for p in sorted(glob.glob(f'{work}/calibration/*.rgb'))])
    def get_next(self):
        return next(self.feeds, None)
quantize_static(f'{work}/ssd_pre.onnx', 'models/ssd_mobilenetv2_oidv4.onnx', Photos(),
                quant_format=QuantFormat.QDQ, per_channel=True, reduce_range=True,
                activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                calibrate_method=CalibrationMethod.MinMax)
PY
ls -l models
