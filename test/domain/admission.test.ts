/**
 * Admission of generations and previews (src/domain/images/admission.ts) when several accounts fill
 * the server with slow renders (issue 55, item 1, found by an independent review): another
 * account's one card is still admitted, because render turns go round robin between accounts and
 * an account with nothing under way may enter past the cap; one account past its share is still
 * refused.
 */
import { describe, expect, it } from 'vitest';
import { createAdmission } from '../../src/domain/images/admission.js';
import { ServiceBusyError } from '../../src/domain/kernel/errors.js';

/** Work that holds its place until `release()`. */
function held() {
  let release: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { release, work: () => done };
}

describe('admission beside other accounts', () => {
  it("another account's card is admitted while four accounts hold their whole share of slow renders", async () => {
    // 2 renders at once, 64 waiting (the defaults), each render 1.5 s: four accounts' 64 counted
    // whole ahead of the card made it wait 47 s, past RENDER_MAX_WAIT (30 s).
    const admission = createAdmission({
      renderer: { load: () => ({ active: 2, waiting: 62, concurrency: 2, meanRenderMs: 1500 }) },
      maxInFlight: 66,
      maxWaitMs: 30_000,
    });
    const holds = Array.from({ length: 5 * 16 }, () => held());
    const running = holds.map((h, i) =>
      admission.admitted(`attacker-${i % 5}`, h.work).catch((e: unknown) => e),
    );
    // A fifth account's renders found the server full but entered as accounts with none under way
    // do, up to a share past the cap; the rest of its 16 were refused.
    const card = await admission.admitted('victim', async () => 'made');
    expect(card).toBe('made');
    // One account past its share is refused, whatever the others do.
    await expect(admission.admitted('attacker-0', async () => 'more')).rejects.toBeInstanceOf(
      ServiceBusyError,
    );
    for (const h of holds) h.release();
    const refused = (await Promise.all(running)).filter((r) => r instanceof ServiceBusyError).length;
    expect(refused).toBeGreaterThan(0);
  });
});
