/**
 * The service as users meet it: `titlecard serve` in its own process, built as `npm start` runs it
 * (embedded default: SQLite and local disk, in a temporary DATA_DIR), driven over HTTP by `POST /api/generate` from this process
 * ({@link generateClient}). One server takes the whole session ({@link serverSession}), as one
 * that has run for a while would:
 *
 * - every photo in every output format, 4 in flight;
 * - a new photo against a seen one (issue 53): each photo as a JPEG card with the defaults, one at
 *   a time, sent with new bytes each time ({@link unseen}: the subject detector has not seen them)
 *   and with the same bytes again; the server's CPU and the wall time per card;
 * - throughput: JPEG cards per second with 1, 4 and 8 requests in flight (each client sends its next
 *   request when its last answer arrives), with the server's CPU per card, beside the floor's cards
 *   per second and CPU per card at 4 at a time in one process (sharp's decode, resize and two
 *   encodes, bench/engines.ts): issue 28 counts CPU per card, not wall time; and the server's
 *   event-loop delay meanwhile (prom-client's `nodejs_eventloop_lag_*` gauges of `GET /metrics`,
 *   read before the load to reset them and after);
 * - 16 clients uploading a 10 MB photo at the same moment: they queue for the renderer (uploads wait
 *   on disk), all answered 201 unless the expected wait passes RENDER_MAX_WAIT (then 503);
 * - and after each part, the server's resident memory and its high-water mark over the whole
 *   session (VmRSS and VmHWM of /proc/<pid>/status; issue 28 set VmHWM ≤ 400 MiB).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { crc32 } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { runCli, spawnServer, type ServerProcess } from '../test/support/process.js';
import { floorEngine, TITLE, SUBTITLE, type Format } from './engines.js';
import { median, procCpuMs, procMemoryMiB, runInFlight } from './stats.js';

/** Most bytes a photo may have (docs/api.md#generate-options: 10 MB). */
const UPLOAD_LIMIT = 10 * 1024 * 1024;

/**
 * `titlecard serve` in a temporary DATA_DIR with `extraEnv`, and an agency account's token;
 * `cleanup` stops it and removes the folder.
 */
export async function startServer(extraEnv: Record<string, string> = {}): Promise<{
  server: ServerProcess;
  token: string;
  cleanup: () => Promise<void>;
}> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'titlecard-bench-'));
  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'info', ...extraEnv };
  const made = await runCli(
    ['users', 'create', '--email', 'bench@example.com', '--name', 'Bench', '--tier', 'agency', '--json'],
    env,
  );
  if (made.code !== 0) throw new Error(`users create failed: ${made.stderr}`);
  const { token } = JSON.parse(made.stdout) as { token: string };
  const server = await spawnServer(env);
  return {
    server,
    token,
    cleanup: async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A client of `POST /generate` that sends the same multipart body (`image` = `photo`, the bench's
 * title and subtitle, `fileFormat`, default JPEG) again and again over keep-alive connections; resolves to each answer's
 * status once its body has been read. The body is encoded once, by the platform's FormData: the
 * client runs on the server's two cores, and fetch with a fresh FormData took 8 to 13 ms of CPU a
 * card there, this 1 to 4 (`npm run bench -- --http` prints it). `shared`: the connections of
 * another client, which `close` leaves open (default its own).
 */
async function generateClient(
  server: ServerProcess,
  token: string,
  photo: Buffer,
  name: string,
  fileFormat: Format = 'jpeg',
  shared?: http.Agent,
): Promise<{ send: () => Promise<number>; close: () => void; agent: http.Agent }> {
  const form = new FormData();
  form.set('image', new Blob([photo]), name);
  form.set('title', TITLE);
  form.set('subtitle', SUBTITLE);
  form.set('fileFormat', fileFormat);
  const encoded = new Request(`${server.base}/generate`, { method: 'POST', body: form });
  const body = Buffer.from(await encoded.arrayBuffer());
  const headers = {
    authorization: `Bearer ${token}`,
    'content-type': encoded.headers.get('content-type') ?? '',
    'content-length': body.length,
  };
  const agent = shared ?? new http.Agent({ keepAlive: true });
  const send = () =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(encoded.url, { method: 'POST', agent, headers }, (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
        res.once('error', reject);
      });
      req.once('error', reject);
      req.end(body);
    });
  const close = () => {
    if (!shared) agent.destroy();
  };
  return { send, close, agent };
}

/**
 * The server's event-loop delay, ms, from prom-client's lag gauges (it resets its histogram at each
 * scrape). prom-client samples every 10 ms and records whole intervals: the delay is the interval
 * less those 10 ms.
 */
export async function eventLoopLag(server: ServerProcess): Promise<Record<string, number>> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const lag: Record<string, number> = {};
  for (const [, name, value] of text.matchAll(
    /^titlecard_nodejs_eventloop_lag_(p50|p90|p99|max)_seconds (\S+)$/gm,
  ))
    lag[name as string] = Math.max(0, Number(value) * 1000 - 10);
  return lag;
}

interface ThroughputRow {
  inFlight: number;
  perSecond: number;
  /** CPU of the server process per card, ms (all its threads; {@link procCpuMs}). */
  serverCpuMs: number;
  /** CPU of this process (the client) per card, ms: it shares the cores with the server. */
  clientCpuMs: number;
}

/** Sends `total` requests through `send`, `inFlight` at a time; the elapsed seconds. Throws on an answer other than 201. */
function load(send: () => Promise<number>, inFlight: number, total: number): Promise<number> {
  return runInFlight(
    async () => {
      const status = await send();
      if (status !== 201) throw new Error(`POST /generate answered ${status}`);
    },
    inFlight,
    total,
  );
}

/**
 * The floor (engines.ts) in this process, `inFlight` at a time: cards per second, and this
 * process's CPU per card (ms, every thread: `process.cpuUsage`).
 */
async function floorThroughput(
  photo: Buffer,
  inFlight: number,
  total: number,
): Promise<{ perSecond: number; cpuMs: number }> {
  const floor = floorEngine();
  for (let i = 0; i < 2; i++) await floor(photo, 'jpeg');
  const cpu = process.cpuUsage();
  const seconds = await load(async () => ((await floor(photo, 'jpeg')) ? 201 : 0), inFlight, total);
  const used = process.cpuUsage(cpu);
  return { perSecond: total / seconds, cpuMs: (used.user + used.system) / 1000 / total };
}

/** Cards per second at each level of concurrency, `total` requests per level after a warm-up. */
async function throughput(
  server: ServerProcess,
  token: string,
  photo: Buffer,
  name: string,
  levels: number[],
  total: number,
  print: (line: string) => void,
): Promise<ThroughputRow[]> {
  const client = await generateClient(server, token, photo, name);
  const pid = server.proc.pid as number;
  try {
    for (let i = 0; i < 2; i++) await client.send();
    await eventLoopLag(server);
    const rows: ThroughputRow[] = [];
    for (const inFlight of levels) {
      const cpu = process.cpuUsage();
      const serverCpu = procCpuMs(pid);
      const perSecond = total / (await load(client.send, inFlight, total));
      const used = process.cpuUsage(cpu);
      rows.push({
        inFlight,
        perSecond,
        serverCpuMs: (procCpuMs(pid) - serverCpu) / total,
        clientCpuMs: (used.user + used.system) / 1000 / total,
      });
    }
    const lag = await eventLoopLag(server);
    const base = rows[0]?.perSecond ?? 1;
    print(`\nHTTP: POST /api/generate, ${total} JPEG cards per level (${name}), one server process`);
    for (const r of rows)
      print(
        `  ${String(r.inFlight).padStart(2)} in flight: ${r.perSecond.toFixed(1)} cards/s (${(r.perSecond / base).toFixed(2)}× one at a time; server CPU ${r.serverCpuMs.toFixed(0)} ms a card, client ${r.clientCpuMs.toFixed(1)})`,
      );
    const floor = await floorThroughput(photo, 4, total);
    const four = rows.find((r) => r.inFlight === 4);
    print(
      `  the floor in one process, 4 at a time: ${floor.perSecond.toFixed(1)} cards/s, ${floor.cpuMs.toFixed(0)} ms of CPU a card; ` +
        `the server at 4 in flight makes ${((four?.perSecond ?? NaN) / floor.perSecond).toFixed(2)} of it, at ${((four?.serverCpuMs ?? NaN) - floor.cpuMs).toFixed(0)} ms of CPU a card beside the floor's`,
    );
    print(
      `  server event-loop delay meanwhile: p50 ${lag.p50?.toFixed(1)} ms, p90 ${lag.p90?.toFixed(1)} ms, p99 ${lag.p99?.toFixed(1)} ms, max ${lag.max?.toFixed(1)} ms`,
    );
    return rows;
  } finally {
    client.close();
  }
}

/** Each photo in each format, `rounds` times, 4 requests in flight; the cards made. */
async function everyFormat(
  server: ServerProcess,
  token: string,
  photos: Map<string, Buffer>,
  formats: readonly Format[],
  rounds: number,
): Promise<number> {
  let cards = 0;
  for (const [name, photo] of photos)
    for (const format of formats) {
      const client = await generateClient(server, token, photo, name, format);
      try {
        await load(client.send, 4, rounds);
        cards += rounds;
      } finally {
        client.close();
      }
    }
  return cards;
}

/**
 * One server through the whole session: every photo × format, then the throughput levels, then
 * `clients` uploads of `large` at once; prints the memory after each part.
 */
export async function serverSession(
  options: {
    photos: Map<string, Buffer>;
    formats: readonly Format[];
    /** Photos to measure throughput on, by name: a small one, where the fixed cost of a card shows, and a camera photo. */
    throughputPhotos: Map<string, Buffer>;
    levels: number[];
    total: number;
    /** Cards per photo, new and seen each, of the new-against-seen part. */
    rounds: number;
    large: Buffer;
    clients: number;
  },
  print: (line: string) => void,
): Promise<void> {
  const { server, token, cleanup } = await startServer();
  const pid = server.proc.pid as number;
  const memory = (after: string) =>
    print(
      `  server memory ${after}: resident ${procMemoryMiB(pid, 'VmRSS').toFixed(0)} MiB, high-water ${procMemoryMiB(pid, 'VmHWM').toFixed(0)} MiB`,
    );
  try {
    print(
      `\nOne server process for the whole session (idle after start: ${procMemoryMiB(pid, 'VmRSS').toFixed(0)} MiB)`,
    );
    const cards = await everyFormat(server, token, options.photos, options.formats, 4);
    print(`  ${cards} cards, every photo × format, 4 in flight`);
    memory(`after them`);
    await newAgainstSeen(server, token, options.photos, options.rounds, print);
    memory(`after them`);
    let more = 0;
    for (const [name, photo] of options.throughputPhotos) {
      const rows = await throughput(server, token, photo, name, options.levels, options.total, print);
      more += rows.length * options.total + 2;
    }
    memory(`after ${more} more JPEG cards`);
    await uploadMemory(server, token, options.large, options.clients, print);
    print(
      `  high-water resident memory (VmHWM) of the server over the whole session: ${procMemoryMiB(pid, 'VmHWM').toFixed(0)} MiB`,
    );
  } finally {
    await cleanup();
  }
}

/**
 * `photo` with bytes of its own (`n` written into it) and the same pixels: a JPEG gets a comment
 * segment (COM) after its start marker, a PNG a tEXt chunk after IHDR, a WebP a chunk of its own at
 * the end (its RIFF size raised to match): segments and chunks decoders skip.
 */
export function unseen(photo: Buffer, n: number): Buffer {
  const note = Buffer.from(`titlecard bench ${n} ${process.hrtime.bigint()}`);
  if (photo[0] === 0xff && photo[1] === 0xd8) {
    const head = Buffer.from([0xff, 0xfe, 0, 0]);
    head.writeUInt16BE(note.length + 2, 2);
    return Buffer.concat([photo.subarray(0, 2), head, note, photo.subarray(2)]);
  }
  if (photo.subarray(1, 4).toString('latin1') === 'PNG') {
    const ihdrEnd = 8 + 12 + photo.readUInt32BE(8);
    const body = Buffer.concat([Buffer.from('tEXt'), Buffer.from('Comment\0'), note]);
    const chunk = Buffer.alloc(body.length + 8);
    chunk.writeUInt32BE(body.length - 4, 0);
    body.copy(chunk, 4);
    chunk.writeUInt32BE(crc32(body), body.length + 4);
    return Buffer.concat([photo.subarray(0, ihdrEnd), chunk, photo.subarray(ihdrEnd)]);
  }
  const even = note.length % 2 ? Buffer.concat([note, Buffer.alloc(1)]) : note;
  const chunk = Buffer.alloc(8 + even.length);
  chunk.write('TCBN', 0, 'latin1');
  chunk.writeUInt32LE(even.length, 4);
  even.copy(chunk, 8);
  const out = Buffer.concat([photo, chunk]);
  out.writeUInt32LE(out.length - 8, 4);
  return out;
}

/**
 * Each photo as a JPEG card with the defaults (`focus` auto: the subject detector looks at a photo
 * whose crop cuts it), one request at a time, `rounds` times with new bytes and `rounds` times with
 * the same bytes, interleaved; prints the server's CPU (from /proc, all its threads) and the median
 * wall time per card of each, and their differences.
 */
async function newAgainstSeen(
  server: ServerProcess,
  token: string,
  photos: Map<string, Buffer>,
  rounds: number,
  print: (line: string) => void,
) {
  const pid = server.proc.pid as number;
  let n = 0;
  print(
    `\nA new photo against a seen one: JPEG cards with the defaults, one at a time, ${rounds} of each per photo\n` +
      `${'photo'.padEnd(42)}${'new CPU / wall'.padStart(18)}${'seen CPU / wall'.padStart(18)}${'CPU +ms'.padStart(9)}${'wall ×'.padStart(8)}`,
  );
  for (const [name, photo] of photos) {
    const seen = await generateClient(server, token, photo, name);
    try {
      // The seen photo is seen: its first card looked at it.
      await seen.send();
      const cpu = { new: 0, seen: 0 };
      const wall = { new: [] as number[], seen: [] as number[] };
      for (let i = 0; i < rounds; i++)
        for (const kind of ['new', 'seen'] as const) {
          // The same connection for both, so that neither pays for a new one.
          const client =
            kind === 'seen'
              ? seen
              : await generateClient(server, token, unseen(photo, n++), name, 'jpeg', seen.agent);
          const c0 = procCpuMs(pid);
          const t0 = performance.now();
          const status = await client.send();
          wall[kind].push(performance.now() - t0);
          cpu[kind] += procCpuMs(pid) - c0;
          if (kind === 'new') client.close();
          if (status !== 201) throw new Error(`POST /generate answered ${status}`);
        }
      const c = { new: cpu.new / rounds, seen: cpu.seen / rounds };
      const w = { new: median(wall.new), seen: median(wall.seen) };
      print(
        `${name.padEnd(42)}${`${c.new.toFixed(0)} / ${w.new.toFixed(0)} ms`.padStart(18)}${`${c.seen.toFixed(0)} / ${w.seen.toFixed(0)} ms`.padStart(18)}` +
          `${(c.new - c.seen).toFixed(0).padStart(9)}${(w.new / w.seen).toFixed(2).padStart(8)}`,
      );
    } finally {
      seen.close();
    }
  }
}

/** A JPEG (quality 100) just under the upload limit, from `photo` scaled up: the widest that fits. */
export async function tenMegabytePhoto(photo: Buffer): Promise<Buffer> {
  for (let width = 7000; width >= 3000; width -= 200) {
    const out = await sharp(photo).resize(width).jpeg({ quality: 100 }).toBuffer();
    if (out.length <= UPLOAD_LIMIT) return out;
  }
  throw new Error('could not make a photo under the upload limit');
}

/** `clients` upload `photo` at once; prints the answers counted by status, and the resident memory before and after. */
async function uploadMemory(
  server: ServerProcess,
  token: string,
  photo: Buffer,
  clients: number,
  print: (line: string) => void,
) {
  const client = await generateClient(server, token, photo, 'large.jpg');
  const pid = server.proc.pid as number;
  try {
    const before = procMemoryMiB(pid, 'VmRSS');
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: clients }, async () => {
        try {
          return String(await client.send());
        } catch (err) {
          // No answer: the connection failed (a 503 comes as an answer, the upload read and discarded).
          return `failed (${(err as { code?: string }).code ?? String(err)})`;
        }
      }),
    );
    const elapsed = performance.now() - started;
    const counts = new Map<string, number>();
    for (const s of answers) counts.set(s, (counts.get(s) ?? 0) + 1);
    print(
      `\nMemory: ${clients} clients upload a ${(photo.length / 2 ** 20).toFixed(1)} MiB JPEG at once: ` +
        `resident ${before.toFixed(0)} MiB before, ${procMemoryMiB(pid, 'VmRSS').toFixed(0)} MiB after; answers ${[...counts].map(([s, n]) => `${n}× ${s}`).join(', ')} in ${(elapsed / 1000).toFixed(1)} s`,
    );
  } finally {
    client.close();
  }
}
