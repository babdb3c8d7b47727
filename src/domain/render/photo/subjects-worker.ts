/**
 * The subject detector's thread (a `worker_threads` worker, started by subjects.ts): runs two
 * TensorFlow Lite models with LiteRT.js (`@litertjs/core`, its WebAssembly CPU build with XNNPack)
 * off the main thread, so that an inference never holds up other requests.
 *
 * - Faces: MediaPipe's short-range face detector (BlazeFace, `@mediapipe/face_detection`,
 *   `face_detection_short_range.tflite`, Apache-2.0): a 128 × 128 input, 896 anchors.
 * - People, cats and dogs: MediaPipe Objectron's SSD-MobileNetV2 trained on Open Images v4
 *   (`@mediapipe/objectron`, Apache-2.0, inside `objectron_solution_packed_assets.data`, whose
 *   loader script lists each file's byte range): a 300 × 300 input, 1917 anchors, 24 classes.
 *
 * Both ship inside their npm packages: nothing is downloaded at run time. This file imports no
 * module of the project (Node runs it as TypeScript with its type stripping under the tests), and
 * its syntax is erasable TypeScript only.
 *
 * Messages in: `{ id, ssd: Float32Array (300·300·3, RGB in [-1, 1]), face: Float32Array (128·128·3,
 * letterboxed: the photo scaled to fit, padded on the right and bottom), faceScale: {x, y} (the
 * photo's share of the face input) }`. Out: `{ id, subjects }` with boxes as fractions of the photo,
 * or `{ id, error }`. A message with only an `id` is answered `{ id, subjects: [] }` once the
 * models are loaded.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import vm from 'node:vm';
import { parentPort } from 'node:worker_threads';
import { loadAndCompile, loadLiteRt, Tensor, type CompiledModel } from '@litertjs/core';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface Found {
  kind: 'face' | 'person' | 'cat' | 'dog';
  score: number;
  box: Box;
}

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

/** Lowest scores kept: MediaPipe's face detector default (0.5), and 0.4 for the SSD's classes. */
const FACE_MIN_SCORE = 0.5;
const OBJECT_MIN_SCORE = 0.4;
/** Overlap (intersection over union) past which two boxes of one kind are one subject. */
const NMS_IOU = 0.45;

/**
 * LiteRT.js in Node: its loader expects a browser (`importScripts`, `self.ModuleFactory`), and its
 * Emscripten glue is a CommonJS script inside an ESM package. The glue is evaluated as CommonJS
 * here, and the two globals are set only while the runtime loads. The non-threaded build: one
 * inference at a time on this thread.
 */
async function loadRuntime(): Promise<void> {
  const wasmDir = join(packageDir('@litertjs/core'), 'wasm');
  const g = globalThis as Record<string, unknown>;
  const hadSelf = 'self' in g;
  g.self ??= globalThis;
  g.importScripts = (file: string) => {
    const wrapped = vm.runInThisContext(
      `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, 'utf8')}\n})`,
      { filename: file },
    ) as (...args: unknown[]) => void;
    const module = { exports: {} as unknown };
    wrapped(module.exports, createRequire(file), module, file, dirname(file));
    g.ModuleFactory = module.exports;
  };
  // The glue prints its accelerators' registration (INFO and WARNING lines): only other lines are
  // passed on, and to stderr, never stdout (which `titlecard mcp` keeps for the protocol).
  const toStderr = (line: string) => {
    if (!/^(INFO|WARNING):/.test(line)) process.stderr.write(`${line}\n`);
  };
  g.Module = { print: toStderr, printErr: toStderr };
  try {
    await loadLiteRt(`${wasmDir}/`);
  } finally {
    delete g.importScripts;
    delete g.Module;
    if (!hadSelf) delete g.self;
  }
}

// This thread's console: nothing to stdout, which `titlecard mcp` keeps for the protocol, and
// LiteRT's warning that there is no WebGPU device (the CPU is what it is meant to use) is dropped.
/* eslint-disable no-console -- the console of this thread only, redirected */
console.log =
  console.info =
  console.debug =
    (...args: unknown[]) => process.stderr.write(`${args.join(' ')}\n`);
console.warn = (...args: unknown[]) => {
  if (!/WebGPU/.test(args.join(' '))) process.stderr.write(`${args.join(' ')}\n`);
};
/* eslint-enable no-console */

/** The SSD's bytes and its class indices, read from Objectron's packed assets by their loader's list. */
function objectModel(): { bytes: Uint8Array; classes: Map<number, Found['kind']> } {
  const dir = packageDir('@mediapipe/objectron');
  const loader = readFileSync(join(dir, 'objectron_solution_packed_assets_loader.js'), 'utf8');
  const data = readFileSync(join(dir, 'objectron_solution_packed_assets.data'));
  const range = (suffix: string) => {
    const m = new RegExp(`"filename": "[^"]*${suffix}", "start": (\\d+), "end": (\\d+)`).exec(loader);
    if (!m) throw new Error(`@mediapipe/objectron: no ${suffix} in its packed assets`);
    return data.subarray(Number(m[1]), Number(m[2]));
  };
  const labels = range('oidv4_labelmap.txt').toString('utf8').split('\n');
  const classes = new Map<number, Found['kind']>();
  labels.forEach((label, i) => {
    const kind = ({ Person: 'person', Cat: 'cat', Dog: 'dog' } as const)[label.trim() as 'Person'];
    if (kind) classes.set(i, kind);
  });
  if (classes.size !== 3) throw new Error('@mediapipe/objectron: its label map lacks Person, Cat or Dog');
  return { bytes: range('ssd_mobilenetv2_oidv4_fp16.tflite'), classes };
}

/**
 * The SSD's anchors, [cx, cy, w, h] as fractions: the TensorFlow Object Detection API's
 * `ssd_anchor_generator` of SSD-MobileNetV2 (six feature maps of 19, 10, 5, 3, 2 and 1 cells, scales
 * 0.2 to 0.95, aspect ratios 1, 2, 1/2, 3, 1/3 and an interpolated square; the first layer reduced to
 * three boxes), cells in row order.
 */
function ssdAnchors(): number[][] {
  const anchors: number[][] = [];
  const grids = [19, 10, 5, 3, 2, 1];
  const scale = (l: number) => 0.2 + ((0.95 - 0.2) * l) / (grids.length - 1);
  grids.forEach((g, l) => {
    const s = scale(l);
    const next = l === grids.length - 1 ? 1 : scale(l + 1);
    const r2 = Math.SQRT2;
    const r3 = Math.sqrt(3);
    const shapes =
      l === 0
        ? [
            [0.1, 0.1],
            [s * r2, s / r2],
            [s / r2, s * r2],
          ]
        : [
            [s, s],
            [s * r2, s / r2],
            [s / r2, s * r2],
            [s * r3, s / r3],
            [s / r3, s * r3],
            [Math.sqrt(s * next), Math.sqrt(s * next)],
          ];
    for (let y = 0; y < g; y++)
      for (let x = 0; x < g; x++)
        for (const [w, h] of shapes) anchors.push([(x + 0.5) / g, (y + 0.5) / g, w as number, h as number]);
  });
  return anchors;
}

/** BlazeFace short range's anchors, [cx, cy]: strides 8 (2 a cell) and 16 (6 a cell) over 128 px. */
function faceAnchors(): number[][] {
  const anchors: number[][] = [];
  for (const [stride, perCell] of [
    [8, 2],
    [16, 6],
  ] as const)
    for (let y = 0; y < 128 / stride; y++)
      for (let x = 0; x < 128 / stride; x++)
        for (let k = 0; k < perCell; k++)
          anchors.push([(stride * (x + 0.5)) / 128, (stride * (y + 0.5)) / 128]);
  return anchors;
}

const sigmoid = (v: number) => 1 / (1 + Math.exp(-v));

function iou(a: Box, b: Box): number {
  const w = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x));
  const h = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  const inter = w * h;
  return inter / (a.width * a.height + b.width * b.height - inter);
}

/** Non-maximum suppression per kind: the best-scored box of each overlapping group. */
function suppress(found: Found[]): Found[] {
  found.sort((a, b) => b.score - a.score);
  const kept: Found[] = [];
  for (const f of found)
    if (!kept.some((k) => k.kind === f.kind && iou(k.box, f.box) > NMS_IOU)) kept.push(f);
  return kept;
}

/** A box clipped to the photo (0..1 on both axes). */
function clip(cx: number, cy: number, w: number, h: number): Box {
  const x0 = Math.max(0, cx - w / 2);
  const y0 = Math.max(0, cy - h / 2);
  return { x: x0, y: y0, width: Math.min(1, cx + w / 2) - x0, height: Math.min(1, cy + h / 2) - y0 };
}

const ready = (async () => {
  await loadRuntime();
  const objects = objectModel();
  const face = readFileSync(
    join(packageDir('@mediapipe/face_detection'), 'face_detection_short_range.tflite'),
  );
  return {
    ssd: await loadAndCompile(objects.bytes, { accelerator: 'wasm' }),
    classes: objects.classes,
    face: await loadAndCompile(new Uint8Array(face), { accelerator: 'wasm' }),
    ssdAnchors: ssdAnchors(),
    faceAnchors: faceAnchors(),
  };
})();

// A model that cannot load is answered per message (below), not left an unhandled rejection.
ready.catch(() => undefined);

async function run(model: CompiledModel, name: string, input: Float32Array, shape: number[]) {
  const tensor = new Tensor(input, shape);
  let out: Record<string, Tensor>;
  try {
    out = await model.run({ [name]: tensor });
  } finally {
    tensor.delete();
  }
  const arrays: Record<string, Float32Array> = {};
  for (const [key, t] of Object.entries(out)) {
    arrays[key] = t.toTypedArray() as Float32Array;
    t.delete();
  }
  return arrays;
}

async function detect(ssdInput: Float32Array, faceInput: Float32Array, faceScale: { x: number; y: number }) {
  const m = await ready;
  const found: Found[] = [];
  // The SSD: box encodings (ty, tx, th, tw) over its anchors, scaled by 10, 10, 5, 5; class logits.
  const o = await run(m.ssd, 'normalized_input_image_tensor', ssdInput, [1, 300, 300, 3]);
  const boxes = o['raw_outputs/box_encodings'] as Float32Array;
  const scores = o['raw_outputs/class_predictions'] as Float32Array;
  const classCount = scores.length / m.ssdAnchors.length;
  m.ssdAnchors.forEach(([ax, ay, aw, ah], i) => {
    for (const [c, kind] of m.classes) {
      const score = sigmoid(scores[i * classCount + c] as number);
      if (score < OBJECT_MIN_SCORE) continue;
      const cy = ((boxes[i * 4] as number) / 10) * (ah as number) + (ay as number);
      const cx = ((boxes[i * 4 + 1] as number) / 10) * (aw as number) + (ax as number);
      const h = Math.exp((boxes[i * 4 + 2] as number) / 5) * (ah as number);
      const w = Math.exp((boxes[i * 4 + 3] as number) / 5) * (aw as number);
      found.push({ kind, score, box: clip(cx, cy, w, h) });
    }
  });
  // BlazeFace: the first four regressors are the box's centre offset and size in input pixels.
  const f = await run(m.face, 'input', faceInput, [1, 128, 128, 3]);
  const regressors = f.regressors as Float32Array;
  const classificators = f.classificators as Float32Array;
  m.faceAnchors.forEach(([ax, ay], i) => {
    const score = sigmoid(classificators[i] as number);
    if (score < FACE_MIN_SCORE) return;
    const cx = (regressors[i * 16] as number) / 128 + (ax as number);
    const cy = (regressors[i * 16 + 1] as number) / 128 + (ay as number);
    const w = (regressors[i * 16 + 2] as number) / 128;
    const h = (regressors[i * 16 + 3] as number) / 128;
    // From the letterboxed input back to the photo.
    found.push({
      kind: 'face',
      score,
      box: clip(cx / faceScale.x, cy / faceScale.y, w / faceScale.x, h / faceScale.y),
    });
  });
  return suppress(found.filter((s) => s.box.width > 0 && s.box.height > 0));
}

parentPort?.on(
  'message',
  (msg: { id: number; ssd?: Float32Array; face?: Float32Array; faceScale?: { x: number; y: number } }) => {
    // A message without a photo asks only that the models be loaded (a warm-up).
    const work =
      msg.ssd && msg.face && msg.faceScale ? detect(msg.ssd, msg.face, msg.faceScale) : ready.then(() => []);
    work.then(
      (subjects) => parentPort?.postMessage({ id: msg.id, subjects }),
      (err: unknown) =>
        parentPort?.postMessage({ id: msg.id, error: String((err as Error)?.message ?? err) }),
    );
  },
);
