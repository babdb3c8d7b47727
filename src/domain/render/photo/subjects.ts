/**
 * Subjects of a photo: faces, people, cats and dogs, found by two small detection models on a
 * 300 px copy of it (subjects-worker.ts: MediaPipe's BlazeFace and an SSD-MobileNetV2, run by
 * ONNX Runtime on a worker thread). Used only where the request needs them (docs/typography.md): the
 * default cover crop (`focus` `auto`) keeps them whole when it can ({@link subjectFocus}), and
 * `template=auto` keeps its text off them (template-choice.ts). The render report names them.
 *
 * Results are kept per photo (by a SHA-1 of its bytes; the last {@link CACHE_SIZE}), so a photo
 * used again (an asset, a render link, a batch) is not looked at twice.
 */
import { webcrypto } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { focusCrop, type Rect } from '../geometry.js';
import { trimFreeMemory } from './malloc-trim.js';

export type SubjectKind = 'face' | 'person' | 'cat' | 'dog';

/** A subject found in a photo; `box` in fractions (0..1) of the upright photo. */
export interface Subject {
  kind: SubjectKind;
  /** The model's confidence, 0..1 (kept from 0.5 for faces, 0.4 for the rest). */
  score: number;
  box: { x: number; y: number; width: number; height: number };
}

/**
 * The side of the copy the detectors look at, px: the photo stretched to a square, the SSD's input
 * (BlazeFace's 128 px letterbox is drawn from it on the worker thread, subjects-worker.ts).
 */
export const DETECTION_SIZE = 300;
/** Photos whose subjects are remembered. */
const CACHE_SIZE = 256;
/**
 * Photos being looked at past which a new one is not (it is cropped as `center`, its `subjects`
 * null): at 6 to 8 ms each on one worker thread (`npm run bench`, "the look alone"), the last
 * waits well under a second.
 */
const MAX_IN_FLIGHT = 16;
/**
 * A detection that takes longer is given up (the photo is cropped without it), ms: the first one
 * of a worker includes loading it (about 0.2 s, a second on a loaded machine).
 */
const DETECTION_TIMEOUT_MS = 15_000;
/** After the worker fails (cannot start, a model cannot load, it dies), no new one for this long, ms. */
const RETRY_AFTER_MS = 60_000;
/**
 * A worker with nothing to do for this long ends, ms: it holds 83 to 88 MiB after 30 photos (ONNX
 * Runtime, the two models' weights and its memory arena, a V8 isolate: the growth of a process's
 * resident memory, `npm run bench`), of which an idle server gives back all but 43 to 45 once it
 * ends and the allocator is trimmed. The next photo then waits about 0.2 s for a new one.
 */
const IDLE_MS = 5 * 60_000;
/**
 * The worker's V8 young generation, MiB (Node's `resourceLimits.maxYoungGenerationSizeMb`; the
 * default limit is 48). The worker's JavaScript keeps little: each look's input tensors and
 * outputs are garbage by the next. Capped, the worker held 83 to 88 MiB after 30 photos instead of
 * 93 to 100, and a look cost no more CPU: 6.9 and 7.1 ms at the median of the photos against 6.8
 * to 7.3 uncapped (`npm run bench`: "a detector's resident memory", "the look alone").
 */
const WORKER_YOUNG_GENERATION_MB = 2;

/**
 * What the detector looks at (decode.ts makes it, within its memory budget): the upright photo
 * stretched to {@link DETECTION_SIZE} × {@link DETECTION_SIZE}, 8-bit sRGB, and its own size.
 */
export interface SmallCopy {
  /** RGB, row-major, {@link DETECTION_SIZE} squared pixels. */
  data: Buffer;
  /**
   * The upright photo's size as decoded, px (its own, or scaled for the card): only its aspect is
   * used, for BlazeFace's letterbox.
   */
  photo: { width: number; height: number };
}

/** The subject detector: one worker thread, started on first use, and its cache of photos. */
export interface SubjectDetector {
  /**
   * The faces, people, cats and dogs in the photo `bytes`, best first, looked at in `small()` (its
   * small copy, made only when the photo has not been seen). Undefined when the detector is busy
   * with {@link MAX_IN_FLIGHT} others, or failed (the caller crops without them). Never rejects but
   * for `small()`'s own errors.
   */
  detect(bytes: Buffer, small: () => Promise<SmallCopy>): Promise<Subject[] | undefined>;
  /**
   * The subjects of the photo `bytes` when it has been seen (or is being looked at): what
   * {@link detect} would answer without calling `small`; undefined for a photo not seen. The hash
   * is remembered for the next `detect` of the same buffer.
   */
  recall(bytes: Buffer): Promise<{ subjects: Promise<Subject[] | undefined> } | undefined>;
  /**
   * Starts the worker and loads its models (about 0.2 s), so that the first photo that needs
   * them does not wait for that (`npm run bench` calls it before measuring). Resolves false when
   * they cannot load ({@link lastError} says why).
   */
  warmUp(): Promise<boolean>;
  /**
   * Why the detector failed (its worker could not start, a model could not load, it died), until it
   * next answers; undefined when it works or has not been started. `GET /readyz` reports it.
   */
  lastError(): string | undefined;
  /**
   * Ends the worker (its models' memory given back, {@link IDLE_MS}) and forgets the photos seen;
   * detections under way answer undefined. A later photo starts a new worker.
   */
  close(): Promise<void>;
}

/**
 * A subject detector of its own: the composition root (src/runtime.ts) makes one per runtime and
 * gives it to the renderer; a renderer made without one shares {@link processSubjectDetector}.
 */
export function createSubjectDetector(): SubjectDetector {
  /** Subjects by a SHA-1 of the photo's bytes, least recently used first; a detection under way is its promise. */
  const cache = new Map<string, Promise<Subject[] | undefined>>();
  let inFlight = 0;
  let nextId = 0;
  interface DetectorWorker {
    worker: Worker;
    waiting: Map<number, { resolve: (s: Subject[] | undefined) => void; timer: NodeJS.Timeout }>;
    /** Ends it after {@link IDLE_MS} without work. */
    idle?: NodeJS.Timeout | undefined;
    /** Ended for idleness, not failed. */
    retired?: boolean;
  }
  let current: DetectorWorker | undefined;
  let failedAt = -Infinity;
  let detectorError: string | undefined;

  /** The worker, started on first use; undefined for a while after it failed. */
  function detector(): DetectorWorker | undefined {
    if (current) return current;
    if (Date.now() - failedAt < RETRY_AFTER_MS) return undefined;
    // Under the tests and `tsx` this module is TypeScript: Node runs the worker's .ts with its type
    // stripping (the worker imports nothing of the project's).
    const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
    const d: DetectorWorker = {
      worker: new Worker(new URL(`./subjects-worker.${ext}`, import.meta.url), {
        resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
      }),
      waiting: new Map(),
    };
    const settle = (id: number, subjects: Subject[] | undefined) => {
      const pending = d.waiting.get(id);
      if (!pending) return;
      clearTimeout(pending.timer);
      d.waiting.delete(id);
      if (d.waiting.size === 0) rest(d);
      pending.resolve(subjects);
    };
    let loaded = false;
    d.worker.on('message', (msg: { id: number; subjects?: Subject[]; error?: string }) => {
      // Loading the models leaves about 9 MiB of parsing buffers free in glibc's arenas: given back.
      if (!loaded) trimFreeMemory();
      loaded = true;
      // The last answer says whether it works: a worker that loads after one that failed clears it.
      detectorError = msg.error;
      settle(msg.id, msg.error === undefined ? (msg.subjects ?? []) : undefined);
    });
    const fail = (err: Error) => {
      if (current === d) current = undefined;
      clearTimeout(d.idle);
      if (!d.retired) {
        detectorError = err.message;
        failedAt = Date.now();
      }
      for (const id of [...d.waiting.keys()]) settle(id, undefined);
      d.worker.terminate().catch(() => undefined);
    };
    d.worker.on('error', fail);
    d.worker.on('exit', (code) => fail(new Error(`its worker exited (${code})`)));
    rest(d);
    current = d;
    return d;
  }

  /**
   * A worker with no work: it no longer keeps the process alive (called after the listeners: adding a
   * 'message' listener refs its port again), and ends after {@link IDLE_MS}.
   */
  function rest(d: DetectorWorker): void {
    d.worker.unref();
    clearTimeout(d.idle);
    d.idle = setTimeout(() => {
      if (d.waiting.size > 0) return;
      d.retired = true;
      if (current === d) current = undefined;
      // What the worker freed stays in glibc's arenas (about 15 MiB) until trimmed.
      d.worker.terminate().then(trimFreeMemory, () => undefined);
    }, IDLE_MS);
    d.idle.unref();
  }

  /**
   * Asks the worker, `message` (its id set here), and waits for its subjects: undefined when it
   * fails, has failed lately, or takes longer than {@link DETECTION_TIMEOUT_MS}.
   */
  function ask(
    message: Record<string, unknown>,
    transfer: ArrayBuffer[] = [],
  ): Promise<Subject[] | undefined> {
    const d = detector();
    if (!d) return Promise.resolve(undefined);
    const id = nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        d.waiting.delete(id);
        if (d.waiting.size === 0) rest(d);
        resolve(undefined);
      }, DETECTION_TIMEOUT_MS);
      timer.unref();
      d.waiting.set(id, { resolve, timer });
      clearTimeout(d.idle);
      d.worker.ref();
      d.worker.postMessage({ ...message, id }, transfer);
    });
  }

  /**
   * The faces, people, cats and dogs in the photo `bytes`, best first, looked at in `small()` (its
   * small copy, made only when the photo has not been seen). Undefined when the detector is busy
   * with {@link MAX_IN_FLIGHT} others, or failed (the caller crops without them). Never rejects but
   * for `small()`'s own errors.
   */
  async function detect(bytes: Buffer, small: () => Promise<SmallCopy>): Promise<Subject[] | undefined> {
    // WebCrypto's digest runs on libuv's thread pool: a 10 MB photo's hash (about 20 ms) no longer
    // holds the event loop (issue 55, item 7). The cache check and set below run in one turn, so
    // two requests for the same photo still share one detection.
    const key = await keyOf(bytes);
    const known = cache.get(key);
    if (known) {
      // Least recently used goes first.
      cache.delete(key);
      cache.set(key, known);
      return known;
    }
    if (inFlight >= MAX_IN_FLIGHT) return Promise.resolve(undefined);
    inFlight++;
    const found = lookAt(small).finally(() => inFlight--);
    cache.set(key, found);
    // Only answers are kept: a busy or failed detector may answer the next time.
    found.then(
      (subjects) => subjects === undefined && cache.get(key) === found && cache.delete(key),
      () => cache.get(key) === found && cache.delete(key),
    );
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    return found;
  }

  /** Photos' hashes by their buffer, for a `detect` after a `recall` of the same buffer. */
  const keys = new WeakMap<Buffer, string>();
  async function keyOf(bytes: Buffer): Promise<string> {
    const known = keys.get(bytes);
    if (known) return known;
    const key = Buffer.from(await webcrypto.subtle.digest('SHA-1', bytes)).toString('hex');
    keys.set(bytes, key);
    return key;
  }

  async function recall(bytes: Buffer) {
    const key = await keyOf(bytes);
    const known = cache.get(key);
    if (!known) return undefined;
    // The most recently used now, as detect does.
    cache.delete(key);
    cache.set(key, known);
    return { subjects: known };
  }

  async function lookAt(small: () => Promise<SmallCopy>): Promise<Subject[] | undefined> {
    const { data, photo } = await small();
    // The worker takes the pixels as they are (transferred, not copied) and does the rest there.
    const pixels = new Uint8Array(data.buffer, data.byteOffset, data.length).slice();
    return ask({ pixels, aspect: photo.width / photo.height }, [pixels.buffer]);
  }

  async function close() {
    const d = current;
    current = undefined;
    cache.clear();
    if (!d) return;
    d.retired = true;
    clearTimeout(d.idle);
    for (const [id, pending] of d.waiting) {
      clearTimeout(pending.timer);
      d.waiting.delete(id);
      pending.resolve(undefined);
    }
    await d.worker.terminate().catch(() => undefined);
    trimFreeMemory();
  }

  return {
    detect,
    recall,
    warmUp: async () => (await ask({})) !== undefined,
    lastError: () => detectorError,
    close,
  };
}

let shared: SubjectDetector | undefined;
/** The detector of renderers made without one (tests, scripts, the benchmark), made on first use. */
export function processSubjectDetector(): SubjectDetector {
  shared ??= createSubjectDetector();
  return shared;
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
 * Share of a person's or an animal's box, from its top, that a crop keeps as its head when the
 * whole subjects do not fit together ({@link subjectFocus}): the detectors box the whole body of a
 * person, cat or dog, upright in a photo, and its head is in the upper part (ours: half, which holds
 * both dogs' heads of the test photo's hand-drawn boxes, issue 55, item 9).
 */
export const HEAD_SHARE = 0.5;

/** A subject's head: a face's box, or the upper {@link HEAD_SHARE} of a person's or an animal's. */
function head(s: Subject): Subject['box'] {
  return s.kind === 'face' ? s.box : { ...s.box, height: s.box.height * HEAD_SHARE };
}

/**
 * The focus point (fractions of the photo, as `focus {x, y}` takes) of a cover crop of a
 * `photoWidth × photoHeight` photo to `width × height` that keeps the subjects whole (with
 * {@link headroom}, else without) when the crop can: the crop window moves as little as it must
 * from the centre to hold all of them; when they do not fit together, the faces and animals whole;
 * then the heads of all of them ({@link head}), then of the faces and animals (issue 55, item 9: of
 * two dogs one above the other, the crop kept the lower one whole and cut the upper one's head,
 * where a window held both heads); then the faces; then the best subject alone. The centre when
 * there are none.
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
  const facesAndAnimals = subjects.filter((s) => s.kind !== 'person');
  const faces = subjects.filter((s) => s.kind === 'face');
  const best = subjects.slice(0, 1);
  const union = (boxes: Subject['box'][]) => ({
    x0: Math.min(...boxes.map((b) => b.x)),
    x1: Math.max(...boxes.map((b) => b.x + b.width)),
    y0: Math.min(...boxes.map((b) => b.y)),
    y1: Math.max(...boxes.map((b) => b.y + b.height)),
  });
  /**
   * The window's start on one axis: centred, moved the least that holds [lo, hi] when it fits; with
   * `around`, centred on [lo, hi] instead (heads kept without their bodies get the slack on both
   * sides, not flush against the card's edge).
   */
  const place = (lo: number, hi: number, size: number, around = false) => {
    const centred = (1 - size) / 2;
    if (hi - lo > size || around) return Math.min(Math.max(0, (lo + hi) / 2 - size / 2), 1 - size);
    return Math.min(Math.max(centred, hi - size), lo);
  };
  const fits = (u: ReturnType<typeof union>) =>
    u.x1 - u.x0 <= share.x + 1e-9 && u.y1 - u.y0 <= share.y + 1e-9;
  // Each tier with its headroom, then without (a face that fits but whose hair does not is kept).
  const whole = (t: Subject[]) =>
    t.length > 0
      ? [
          { ...union(t.map(headroom)), around: false },
          { ...union(t.map((s) => s.box)), around: false },
        ]
      : [];
  const heads = (t: Subject[]) => (t.length > 0 ? [{ ...union(t.map(head)), around: true }] : []);
  const candidates = [
    ...whole(subjects),
    ...whole(facesAndAnimals),
    ...heads(subjects),
    ...heads(facesAndAnimals),
    ...whole(faces),
    ...whole(best),
  ];
  const u = candidates.find(fits) ?? candidates.at(-1);
  if (!u) return { x: 0.5, y: 0.5 };
  return {
    x: place(u.x0, u.x1, share.x, u.around) + share.x / 2,
    y: place(u.y0, u.y1, share.y, u.around) + share.y / 2,
  };
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
