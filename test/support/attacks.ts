/**
 * The attacks of issue 55, items 1 and 2, as a test (test/http/huge-photos.test.ts) and the
 * benchmark (bench/attack.ts) make them: free previews of 64-megapixel PNGs with bytes never seen
 * before, over `/mcp` (`preview_card`) and through the playground, and loops of `card_image` on one
 * of the attacker's own cards. Each resolves to what it did, in words, and the moment
 * (`performance.now()`) each of its requests was answered.
 */
import { crc32 } from 'node:zlib';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import sharp from 'sharp';
import type { WebClient } from './web.js';

/** What an attack did: a line for people, and when each of its requests was answered. */
export interface AttackResult {
  summary: string;
  answeredAt: number[];
}

/** An 8000 × 8000 PNG of coarse noise (about 2 MB): 64 megapixels, the most an upload may have. */
export async function hugePng(): Promise<Buffer> {
  const noise = await sharp({
    create: {
      width: 400,
      height: 400,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .png()
    .toBuffer();
  return sharp(noise).resize(8000, 8000, { kernel: 'nearest' }).png().toBuffer();
}

/** `png` with a tEXt chunk after its header naming `n`: the same pixels, bytes never seen before. */
export function withNewBytes(png: Buffer, n: number): Buffer {
  const data = Buffer.from(`Comment\0copy ${n} ${Math.random()}`, 'latin1');
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write('tEXt', 4, 'latin1');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  // The signature (8 bytes) and IHDR (25 bytes) come first.
  return Buffer.concat([png.subarray(0, 33), chunk, png.subarray(33)]);
}

/** An MCP client of `url` (a server's `/mcp`) with a bearer token. */
export async function mcpClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'attacker', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

/** The range of `ms`, for the summaries. */
const range = (ms: number[]) => `${Math.min(...ms).toFixed(0)} to ${Math.max(...ms).toFixed(0)} ms`;

/** Runs `requests` at once; when each was answered, and how long it took. */
async function atOnce<T>(requests: (() => Promise<T>)[]) {
  const start = performance.now();
  return Promise.all(
    requests.map(async (request) => {
      const result = await request();
      const at = performance.now();
      return { result, at, ms: at - start };
    }),
  );
}

/** 16 `preview_card` calls at once, each of `huge` with new bytes. */
export async function previewCardAttack(client: Client, huge: Buffer): Promise<AttackResult> {
  const answers = await atOnce(
    Array.from(
      { length: 16 },
      (_, i) => () =>
        client.callTool({
          name: 'preview_card',
          arguments: { title: `Huge ${i}`, imageBase64: withNewBytes(huge, i).toString('base64') },
        }),
    ),
  );
  const shown = answers.filter((a) => !a.result.isError).length;
  return {
    summary: `16 preview_card calls of new 64 MP PNGs: ${shown} shown, in ${range(answers.map((a) => a.ms))}`,
    answeredAt: answers.map((a) => a.at),
  };
}

/** 16 playground previews at once from each of `people` (signed in), each of `huge` with new bytes. */
export async function playgroundAttack(people: WebClient[], huge: Buffer): Promise<AttackResult> {
  const answers = await atOnce(
    people.flatMap((web, p) =>
      Array.from({ length: 16 }, (_, i) => async () => {
        const form = new FormData();
        form.set('title', `Huge ${p}.${i}`);
        form.set('image', new Blob([withNewBytes(huge, p * 100 + i)], { type: 'image/png' }), 'huge.png');
        return (await web.request('POST', '/playground/preview', form)).status;
      }),
    ),
  );
  const statuses = new Map<number, number>();
  for (const a of answers) statuses.set(a.result, (statuses.get(a.result) ?? 0) + 1);
  return {
    summary: `${answers.length} playground previews of new 64 MP PNGs from ${people.length} accounts: answered ${[
      ...statuses,
    ]
      .map(([status, n]) => `${n} × ${status}`)
      .join(', ')} in ${range(answers.map((a) => a.ms))}`,
    answeredAt: answers.map((a) => a.at),
  };
}

/**
 * 8 loops calling `card_image` on card `id`, `calls` calls in all (a count, not a time: a loaded
 * machine makes fewer calls in a second); how many were answered and refused.
 */
export async function cardImageLoops(
  client: Client,
  id: string,
  calls: number,
): Promise<AttackResult & { answered: number; refused: number }> {
  let left = calls;
  const answeredAt: number[] = [];
  let refused = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (left-- > 0) {
        const r = await client.callTool({ name: 'card_image', arguments: { id } });
        if (r.isError) refused++;
        else answeredAt.push(performance.now());
      }
    }),
  );
  return {
    summary: `8 loops of card_image, ${calls} calls: ${answeredAt.length} answered, ${refused} refused`,
    answeredAt,
    answered: answeredAt.length,
    refused,
  };
}
