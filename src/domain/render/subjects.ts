/**
 * Subjects of a photo: faces, people, cats and dogs, found by two small detection models on a
 * 320 px copy of it (subjects-worker.ts: MediaPipe's BlazeFace and an SSD-MobileNetV2, run by
 * LiteRT.js on a worker thread). Used only where the request needs them (docs/typography.md): the
 * default cover crop (`focus` `auto`) keeps them whole when it can ({@link subjectFocus}), and
 * `template=auto` keeps its text off them (template-choice.ts). The render report names them.
 *
 * Results are kept per photo (by a SHA-1 of its bytes; the last {@link CACHE_SIZE}), so a photo
 * used again (an asset, a render link, a batch) is not looked at twice.
 */
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { focusCrop, type Rect } from './geometry.js';

export type SubjectKind = 'face' | 'person' | 'cat' | 'dog';

/** A subject found in a photo; `box` in fractions (0..1) of the upright photo. */
export interface Subject {
  kind: SubjectKind;
  /** The model's confidence, 0..1 (kept from 0.5 for faces, 0.4 for the rest). */
  score: number;
  box: { x: number; y: number; width: number; height: number };
}

/** The long side of the copy the detectors look at, px. */
export const DETECTION_SIZE = 320;
/** Photos whose subjects are remembered. */
const CACHE_SIZE = 256;
/** Detections waiting for the worker past which a new one is not asked for (the photo is then cropped as `center`). */
const MAX_WAITING = 16;

const cache = new Map<string, Subject[]>();
let worker: Worker | undefined;
let nextId = 0;
const waiting = new Map<number, { resolve: (s: Subject[]) => void; reject: (e: Error) => void }>();

/** The worker, started on first use; it does not keep the process alive. */
function detector(): Worker {
  if (worker) return worker;
  // Under the tests and `tsx` this module is TypeScript: Node runs the worker's .ts with its type
  // stripping (the worker imports nothing of the project's).
  const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  const w = new Worker(new URL(`./subjects-worker.${ext}`, import.meta.url));
  w.on('message', (msg: { id: number; subjects?: Subject[]; error?: string }) => {
    const pending = waiting.get(msg.id);
    waiting.delete(msg.id);
    if (waiting.size === 0) w.unref();
    if (!pending) return;
    if (msg.error !== undefined) pending.reject(new Error(`subject detection: ${msg.error}`));
    else pending.resolve(msg.subjects ?? []);
  });
  const fail = (err: Error) => {
    worker = undefined;
    for (const p of waiting.values()) p.reject(err);
    waiting.clear();
  };
  w.on('error', fail);
  w.on('exit', (code) => fail(new Error(`subject detection: its worker exited (${code})`)));
  // The worker keeps the process alive only while it has work (after the listeners: adding a
  // 'message' listener refs its port again).
  w.unref();
  worker = w;
  return w;
}

/** Whether the RGB `pixels` are all but one colour: the standard deviation of their luma under 2 levels. */
function flat(pixels: Buffer): boolean {
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

/** Asks the worker, `message` (its id set here), and waits for its subjects. */
function ask(message: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<Subject[]> {
  const w = detector();
  const id = nextId++;
  return new Promise<Subject[]>((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    w.ref();
    w.postMessage({ ...message, id }, transfer);
  });
}

/**
 * Starts the detector's worker and loads its models (about a second), so that the first photo
 * that needs them does not wait for that; `titlecard serve` calls it at start-up (warm-up.ts).
 * Rejects when they cannot load.
 */
export async function warmUpDetector(): Promise<void> {
  await ask({});
}

/** `pixels` (8-bit RGB) as the models' float input: each value mapped to -1..1. */
function toInput(pixels: Buffer): Float32Array<ArrayBuffer> {
  const out = new Float32Array(new ArrayBuffer(pixels.length * 4)) as Float32Array<ArrayBuffer>;
  for (let i = 0; i < pixels.length; i++) out[i] = (pixels[i] as number) / 127.5 - 1;
  return out;
}

/**
 * The faces, people, cats and dogs in `bytes` (a JPEG, PNG or WebP that passed decode.ts's checks),
 * best first; undefined when the detector is busy with {@link MAX_WAITING} others (the caller
 * crops without them). Rejects when the detector fails (its worker cannot start or a model
 * cannot load).
 */
export async function detectSubjects(bytes: Buffer): Promise<Subject[] | undefined> {
  const key = createHash('sha1').update(bytes).digest('hex');
  const known = cache.get(key);
  if (known) return known;
  const { data, info } = await sharp(bytes, { failOn: 'warning' })
    .rotate()
    .resize(DETECTION_SIZE, DETECTION_SIZE, { fit: 'inside' })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  // A flat photo (a solid colour, a plain gradient) has no subject: its luma varies by less than
  // 2 levels (standard deviation). Most tests' backgrounds are such, and so are some cards' photos.
  if (flat(data)) return [];
  if (waiting.size >= MAX_WAITING) return undefined;
  const raw = { raw: { width: info.width, height: info.height, channels: 3 as const } };
  // The SSD takes the photo stretched to 300 × 300; BlazeFace takes it scaled to fit 128 × 128,
  // padded on the right and bottom (the shape MediaPipe gives it).
  const long = Math.max(info.width, info.height);
  const fw = Math.max(1, Math.round((128 * info.width) / long));
  const fh = Math.max(1, Math.round((128 * info.height) / long));
  const [ssd, face] = await Promise.all([
    sharp(data, raw).resize(300, 300, { fit: 'fill' }).raw().toBuffer(),
    sharp(data, raw)
      .resize(fw, fh, { fit: 'fill' })
      .extend({ right: 128 - fw, bottom: 128 - fh, background: { r: 0, g: 0, b: 0 } })
      .raw()
      .toBuffer(),
  ]);
  const inputs = { ssd: toInput(ssd), face: toInput(face), faceScale: { x: fw / 128, y: fh / 128 } };
  const subjects = await ask(inputs, [inputs.ssd.buffer, inputs.face.buffer]);
  cache.set(key, subjects);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return subjects;
}

/**
 * The part of the photo a crop keeps for a subject: a face's box is the face alone, from brows to
 * chin, so it gains the forehead and hair above (40% of its height) and 10% on the other sides; the
 * others 5% all round. Clipped to the photo.
 */
function headroom(s: Subject): Subject['box'] {
  const [top, side] = s.kind === 'face' ? [0.4, 0.1] : [0.05, 0.05];
  const x0 = Math.max(0, s.box.x - side * s.box.width);
  const y0 = Math.max(0, s.box.y - top * s.box.height);
  const x1 = Math.min(1, s.box.x + (1 + side) * s.box.width);
  const y1 = Math.min(1, s.box.y + (1 + side) * s.box.height);
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/**
 * The focus point (fractions of the photo, as `focus {x, y}` takes) of a cover crop of a
 * `photoWidth × photoHeight` photo to `width × height` that keeps the subjects whole (with
 * {@link headroom}) when the crop can: the crop window moves as little as it must from the centre to hold all of them; when
 * they do not fit together, the faces and animals; then the faces; then the best subject alone.
 * The centre when there are none.
 */
export function subjectFocus(
  subjects: Subject[],
  photoWidth: number,
  photoHeight: number,
  width: number,
  height: number,
): { x: number; y: number } {
  const scale = Math.max(width / photoWidth, height / photoHeight);
  // The window's share of the photo on each axis (1 on the axis the crop does not cut).
  const share = {
    x: Math.min(1, width / (photoWidth * scale)),
    y: Math.min(1, height / (photoHeight * scale)),
  };
  const tiers = [
    subjects,
    subjects.filter((s) => s.kind !== 'person'),
    subjects.filter((s) => s.kind === 'face'),
    subjects.slice(0, 1),
  ].filter((t) => t.length > 0);
  const union = (t: Subject[]) => {
    const boxes = t.map(headroom);
    return {
      x0: Math.min(...boxes.map((b) => b.x)),
      x1: Math.max(...boxes.map((b) => b.x + b.width)),
      y0: Math.min(...boxes.map((b) => b.y)),
      y1: Math.max(...boxes.map((b) => b.y + b.height)),
    };
  };
  /** The window's start on one axis: centred, moved the least that holds [lo, hi] when it fits. */
  const place = (lo: number, hi: number, size: number) => {
    const centred = (1 - size) / 2;
    if (hi - lo > size) return Math.min(Math.max(0, (lo + hi) / 2 - size / 2), 1 - size);
    return Math.min(Math.max(centred, hi - size), lo);
  };
  const fits = (u: ReturnType<typeof union>) =>
    u.x1 - u.x0 <= share.x + 1e-9 && u.y1 - u.y0 <= share.y + 1e-9;
  const chosen = tiers.find((t) => fits(union(t))) ?? tiers.at(-1);
  if (!chosen) return { x: 0.5, y: 0.5 };
  const u = union(chosen);
  return { x: place(u.x0, u.x1, share.x) + share.x / 2, y: place(u.y0, u.y1, share.y) + share.y / 2 };
}

/** A subject as the render report names it: its box on the card, px (the part inside the card). */
export interface PlacedSubject {
  kind: SubjectKind;
  score: number;
  box: Rect;
}

/**
 * The subjects' boxes on a `width × height` card cover-cropped from a `photoWidth × photoHeight`
 * photo around `focus` (geometry.ts's focusCrop); those the crop leaves out are dropped.
 */
export function subjectsOnCard(
  subjects: Subject[],
  photoWidth: number,
  photoHeight: number,
  width: number,
  height: number,
  focus: { x: number; y: number },
): PlacedSubject[] {
  const crop = focusCrop(photoWidth, photoHeight, width, height, focus);
  const placed: PlacedSubject[] = [];
  for (const s of subjects) {
    const x0 = Math.max(0, s.box.x * crop.resize.width - crop.extract.left);
    const y0 = Math.max(0, s.box.y * crop.resize.height - crop.extract.top);
    const x1 = Math.min(width, (s.box.x + s.box.width) * crop.resize.width - crop.extract.left);
    const y1 = Math.min(height, (s.box.y + s.box.height) * crop.resize.height - crop.extract.top);
    if (x1 - x0 < 1 || y1 - y0 < 1) continue;
    placed.push({
      kind: s.kind,
      score: Math.round(s.score * 100) / 100,
      box: { x: Math.round(x0), y: Math.round(y0), width: Math.round(x1 - x0), height: Math.round(y1 - y0) },
    });
  }
  return placed;
}
