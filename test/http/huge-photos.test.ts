/**
 * One account's free previews of huge photos hold no other account's card (issue 55, items 1 and
 * 2): a free account sends 16 parallel `preview_card` calls over `/mcp`, each a 64-megapixel PNG
 * with bytes never seen before (so the subject detector looks at every one); three unconfirmed
 * accounts send 16 each through the playground; a free account loops `card_image` on its own card.
 *
 * What is asserted does not depend on the machine's load: another account's card is made in the
 * next render turn, long before the attack's queue is through (with one first-come queue it waited
 * for all of it), and `card_image` is refused past 60 a minute. The times (another account's card
 * within 2 s of its normal time, the event loop's stall under 50 ms) are printed here and measured
 * on a quiet machine by `npm run bench -- --attack` (bench/attack.ts, docs/performance.md).
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cardImageLoops,
  hugePng,
  mcpClient,
  playgroundAttack,
  previewCardAttack,
  type AttackResult,
} from '../support/attacks.js';
import { withEventLoopWatched } from '../support/event-loop.js';
import { photo } from '../support/images.js';
import { startTestServer, upload, type TestServer } from '../support/server.js';
import { WebClient } from '../support/web.js';

let srv: TestServer;
let huge: Buffer;

beforeAll(async () => {
  srv = await startTestServer();
  huge = await hugePng();
}, 120_000);
afterAll(async () => {
  await srv?.close();
});

/** Another account's card, timed: its normal time (the median of 3, its photo seen once before). */
async function victimCard() {
  const victim = await srv.createUser('pro');
  const seen = await sharp(photo('Kleiber_by_Lukas_Baubkus.jpg')).jpeg().toBuffer();
  const card = async () => {
    const start = performance.now();
    const res = await upload(srv, victim.token, '/generate', 'image', seen, 'p.jpg', { title: 'On time' });
    return { status: res.status, ms: performance.now() - start, at: performance.now() };
  };
  expect((await card()).status).toBe(201);
  const alone: number[] = [];
  for (let i = 0; i < 3; i++) alone.push((await card()).ms);
  return { card, normal: alone.sort((a, b) => a - b)[1] as number };
}

/**
 * Three of the victim's cards made one after another while `attack` runs (started 0.5 s before).
 * Each is answered 201 with at least a quarter of the attack's requests still unanswered (its turn
 * came before the attack's queue was through). Prints the times and the event loop's longest
 * stall, which on a loaded machine are the machine's as much as the server's: their targets are
 * the benchmark's.
 */
async function expectUnheld(attack: () => Promise<AttackResult>, quarter = true): Promise<void> {
  const { card, normal } = await victimCard();
  const attacking = attack();
  await new Promise((r) => setTimeout(r, 500));
  const during: { ms: number; at: number }[] = [];
  let maxLag = 0;
  for (let i = 0; i < 3; i++) {
    const { result, maxDelayMs } = await withEventLoopWatched(card);
    expect(result.status).toBe(201);
    during.push(result);
    maxLag = Math.max(maxLag, maxDelayMs);
  }
  const attacked = await attacking;
  const ahead = during.map((d) => attacked.answeredAt.filter((at) => at > d.at).length);
  console.info(
    `huge photos: a card took ${normal.toFixed(0)} ms alone, ${during.map((d) => d.ms.toFixed(0)).join(', ')} ms beside ${attacked.summary} (${ahead.join(', ')} of its ${attacked.answeredAt.length} still unanswered as each card came); longest event-loop stall ${maxLag.toFixed(0)} ms`,
  );
  if (quarter) for (const left of ahead) expect(left).toBeGreaterThanOrEqual(attacked.answeredAt.length / 4);
}

describe("one account's free previews of huge photos, and another account's card", () => {
  it('16 parallel preview_card calls of new 64-megapixel PNGs from a free account', async () => {
    const attacker = await srv.createUser('free');
    const client = await mcpClient(`${srv.url}/mcp`, attacker.token);
    try {
      await expectUnheld(() => previewCardAttack(client, huge));
    } finally {
      await client.close();
    }
  }, 120_000);

  it('16 parallel playground previews of new 64-megapixel PNGs from each of three unconfirmed accounts', async () => {
    const people = await Promise.all(
      [0, 1, 2].map(async (i) => {
        const web = new WebClient(srv.url);
        await web.signUp(`unconfirmed-${i}-${Date.now()}@example.com`);
        return web;
      }),
    );
    await expectUnheld(() => playgroundAttack(people, huge));
  }, 120_000);

  it("8 loops of card_image on the attacker's own card: 60 a minute, the rest refused at once", async () => {
    const attacker = await srv.createUser('free');
    const client = await mcpClient(`${srv.url}/mcp`, attacker.token);
    try {
      const made = await client.callTool({
        name: 'generate_image',
        arguments: {
          title: 'Mine',
          imageBase64: (await sharp(photo('mate_RainDrops.jpg')).png().toBuffer()).toString('base64'),
          fileFormat: 'png',
        },
      });
      const id = (made.structuredContent as { id: string }).id;
      let loops: Awaited<ReturnType<typeof cardImageLoops>> | undefined;
      await expectUnheld(async () => (loops = await cardImageLoops(client, id, 100)), false);
      expect(loops?.answered).toBeLessThanOrEqual(60);
      expect(loops?.refused).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  }, 120_000);
});
