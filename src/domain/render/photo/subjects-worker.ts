/**
 * The subject detector's thread (a `worker_threads` worker, started by subjects.ts): runs two
 * detection models with ONNX Runtime's native CPU build (`onnxruntime-node`, on this thread alone)
 * off the main thread: its `run` holds the thread that calls it, so it must not be the event loop's.
 *
 * - Faces: MediaPipe's short-range face detector (BlazeFace, `@mediapipe/face_detection`,
 *   `face_detection_short_range.tflite`, Apache-2.0): a 128 × 128 input, 896 anchors.
 * - People, cats and dogs: MediaPipe Objectron's SSD-MobileNetV2 trained on Open Images v4
 *   (`@mediapipe/objectron`, Apache-2.0): a 300 × 300 input, 1917 anchors, 24 classes.
 *
 * Both are converted once from MediaPipe's TensorFlow Lite files to ONNX by
 * scripts/detector-models.sh, the SSD then quantized to 8-bit integers (4 ms of CPU a run instead of
 * 8.5, the same subjects found; models/README.md), and kept in models/ with their licence and the
 * SSD's label map: nothing is downloaded at run time. This file imports no module of the project
 * (Node runs it as TypeScript with its type stripping under the tests), and its syntax is erasable
 * TypeScript only.
 *
 * Messages in: `{ id, pixels: Uint8Array (300 × 300 RGB, the photo stretched to a square), aspect
 * (the photo's width over its height) }`. Out: `{ id, subjects }` with boxes as fractions of the
 * photo, or `{ id, error }`. A message with only an `id` is answered `{ id, subjects: [] }` once the
 * models are loaded.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parentPort } from 'node:worker_threads';
import * as ort from 'onnxruntime-node';

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

/** The models' folder: models/ at the package's root (from src/ or dist/ alike). */
const MODELS = fileURLToPath(new URL('../../../../models/', import.meta.url));

/** Lowest scores kept: MediaPipe's face detector default (0.5), and 0.4 for the SSD's classes. */
const FACE_MIN_SCORE = 0.5;
const OBJECT_MIN_SCORE = 0.4;
/** Overlap (intersection over union) past which two boxes of one kind are one subject. */
const NMS_IOU = 0.45;

/**
 * The SSD's class indices of the kinds looked for, from its label map (Open Images v4 names, one a
 * line, in the order of the model's class outputs).
 */
function objectClasses(): Map<number, Found['kind']> {
  const labels = readFileSync(`${MODELS}oidv4_labelmap.txt`, 'utf8').split('\n');
  const classes = new Map<number, Found['kind']>();
  labels.forEach((label, i) => {
    const kind = ({ Person: 'person', Cat: 'cat', Dog: 'dog' } as const)[label.trim() as 'Person'];
    if (kind) classes.set(i, kind);
  });
  if (classes.size !== 3) throw new Error('models/oidv4_labelmap.txt lacks Person, Cat or Dog');
  return classes;
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

/**
 * Each model runs on the worker's own thread: one intra-op thread, so ONNX Runtime starts no pool.
 * Two threads are faster only back to back; after the pause a decode leaves, the look took as long
 * on two and 1.5 ms more CPU (6.9 and 7.3 ms at the median of photos on one, 8.8 and 8.7 on two:
 * `npm run bench`, "the look alone"; docs/performance.md). Given more threads, they would wait
 * without spinning (`allow_spinning` 0: spinning burnt 3 ms of CPU a run of the float model on
 * two). The whole graph is optimised, and ONNX Runtime's memory arena and pattern planning keep
 * the activations' buffers between runs: without them, each run mapped its buffers of 1 MiB or
 * more afresh (the server's `MALLOC_MMAP_THRESHOLD_`), and the float SSD's run took 15 to 22 ms of
 * CPU in the server instead of 8 to 9 (docs/performance.md).
 */
const SESSION_OPTIONS: ort.InferenceSession.SessionOptions = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
  enableCpuMemArena: true,
  enableMemPattern: true,
  // Errors only: its warnings (about nodes it leaves to the CPU) would go to stderr at every load.
  logSeverityLevel: 3,
  extra: { session: { intra_op: { allow_spinning: '0' } } },
};

const ready = (async () => ({
  ssd: await ort.InferenceSession.create(`${MODELS}ssd_mobilenetv2_oidv4.onnx`, SESSION_OPTIONS),
  classes: objectClasses(),
  face: await ort.InferenceSession.create(`${MODELS}face_detection_short_range.onnx`, SESSION_OPTIONS),
  ssdAnchors: ssdAnchors(),
  faceAnchors: faceAnchors(),
}))();

// A model that cannot load is answered per message (below), not left an unhandled rejection.
ready.catch(() => undefined);

/** Runs `session` on `input` (planar RGB, `size` × `size`); its outputs by name. */
async function run(session: ort.InferenceSession, input: Float32Array, size: number) {
  const name = session.inputNames[0] as string;
  const out = await session.run({ [name]: new ort.Tensor('float32', input, [1, 3, size, size]) });
  const arrays: Record<string, Float32Array> = {};
  for (const [key, t] of Object.entries(out)) arrays[key] = t.data as Float32Array;
  return arrays;
}

/** Side of the SSD's input, and of the pixels a message brings, px. */
const SSD_SIZE = 300;
/** Side of BlazeFace's input, px. */
const FACE_SIZE = 128;

/**
 * Whether the RGB `pixels` are all but one colour: the standard deviation of their luma (Rec. 709
 * weights) under 2 levels. A flat photo (a solid colour, a plain gradient) has no subject; most
 * tests' backgrounds are such, and so are some cards' photos.
 */
function flat(pixels: Uint8Array): boolean {
  let sum = 0;
  let squares = 0;
  const n = pixels.length / 3;
  for (let i = 0; i < pixels.length; i += 3) {
    const y =
      0.2126 * (pixels[i] as number) +
      0.7152 * (pixels[i + 1] as number) +
      0.0722 * (pixels[i + 2] as number);
    sum += y;
    squares += y * y;
  }
  const mean = sum / n;
  return squares / n - mean * mean < 4;
}

/** The SSD's input: the `SSD_SIZE`² RGB `pixels` planar (NCHW), each value mapped to -1..1. */
function ssdInput(pixels: Uint8Array): Float32Array {
  const plane = SSD_SIZE * SSD_SIZE;
  const out = new Float32Array(3 * plane);
  for (let p = 0, i = 0; p < plane; p++, i += 3) {
    out[p] = (pixels[i] as number) / 127.5 - 1;
    out[plane + p] = (pixels[i + 1] as number) / 127.5 - 1;
    out[2 * plane + p] = (pixels[i + 2] as number) / 127.5 - 1;
  }
  return out;
}

/**
 * BlazeFace's input, the shape MediaPipe gives it: the photo scaled to fit `FACE_SIZE`² with its
 * aspect, padded black on the right and bottom; drawn from the stretched `pixels` by bilinear
 * sampling, planar and mapped to -1..1. `scale`: the photo's share of the input on each axis.
 */
function faceInput(
  pixels: Uint8Array,
  aspect: number,
): { input: Float32Array; scale: { x: number; y: number } } {
  const fw = aspect >= 1 ? FACE_SIZE : Math.max(1, Math.round(FACE_SIZE * aspect));
  const fh = aspect >= 1 ? Math.max(1, Math.round(FACE_SIZE / aspect)) : FACE_SIZE;
  const plane = FACE_SIZE * FACE_SIZE;
  const out = new Float32Array(3 * plane).fill(-1);
  const last = SSD_SIZE - 1;
  // Each output column's two source columns (as byte offsets in a row) and weight, computed once.
  const left = new Int32Array(fw);
  const right = new Int32Array(fw);
  const wxs = new Float32Array(fw);
  for (let x = 0; x < fw; x++) {
    const sx = Math.min(last, Math.max(0, ((x + 0.5) * SSD_SIZE) / fw - 0.5));
    const x0 = Math.floor(sx);
    left[x] = x0 * 3;
    right[x] = Math.min(last, x0 + 1) * 3;
    wxs[x] = sx - x0;
  }
  for (let y = 0; y < fh; y++) {
    const sy = Math.min(last, Math.max(0, ((y + 0.5) * SSD_SIZE) / fh - 0.5));
    const y0 = Math.floor(sy);
    const wy = sy - y0;
    const top = y0 * SSD_SIZE * 3;
    const bottom = Math.min(last, y0 + 1) * SSD_SIZE * 3;
    for (let x = 0; x < fw; x++) {
      const wx = wxs[x] as number;
      const l = left[x] as number;
      const r = right[x] as number;
      const at = y * FACE_SIZE + x;
      for (let c = 0; c < 3; c++) {
        const upper = (pixels[top + l + c] as number) * (1 - wx) + (pixels[top + r + c] as number) * wx;
        const lower = (pixels[bottom + l + c] as number) * (1 - wx) + (pixels[bottom + r + c] as number) * wx;
        out[c * plane + at] = (upper * (1 - wy) + lower * wy) / 127.5 - 1;
      }
    }
  }
  return { input: out, scale: { x: fw / FACE_SIZE, y: fh / FACE_SIZE } };
}

async function detect(pixels: Uint8Array, aspect: number) {
  // The models first: a worker whose models cannot load answers its error, whatever the photo.
  const m = await ready;
  if (flat(pixels)) return [];
  const found: Found[] = [];
  // The SSD: box encodings (ty, tx, th, tw) over its anchors, scaled by 10, 10, 5, 5; class logits.
  const o = await run(m.ssd, ssdInput(pixels), SSD_SIZE);
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
  const face = faceInput(pixels, aspect);
  const faceScale = face.scale;
  const f = await run(m.face, face.input, FACE_SIZE);
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

parentPort?.on('message', (msg: { id: number; pixels?: Uint8Array; aspect?: number }) => {
  // A message without a photo asks only that the models be loaded (a warm-up).
  const work = msg.pixels && msg.aspect ? detect(msg.pixels, msg.aspect) : ready.then(() => []);
  work.then(
    (subjects) => parentPort?.postMessage({ id: msg.id, subjects }),
    (err: unknown) => parentPort?.postMessage({ id: msg.id, error: String((err as Error)?.message ?? err) }),
  );
});
