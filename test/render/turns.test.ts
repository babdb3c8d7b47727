/**
 * Render turns (src/domain/render/turns.ts): at most `concurrency` at once, and a turn that frees
 * goes round robin between the accounts waiting, first come first served within one account.
 */
import { describe, expect, it } from 'vitest';
import { createRenderTurns } from '../../src/domain/render/turns.js';

/** A piece of work that ends when `finish()` is called; `started` says whether it began. */
function gate() {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const state = { started: false };
  return { state, finish, work: () => ((state.started = true), done) };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('render turns', () => {
  it("give the next free turn to an account that waited, ahead of another account's long queue", async () => {
    const turns = createRenderTurns(2);
    const order: string[] = [];
    const a = Array.from({ length: 6 }, () => gate());
    const b = gate();
    const runs = a.map((g, i) => turns.run('a', () => (order.push(`a${i}`), g.work())));
    const bRun = turns.run('b', () => (order.push('b'), b.work()));
    await tick();
    expect(order).toEqual(['a0', 'a1']);
    expect(turns.load()).toEqual({ active: 2, waiting: 5 });
    a[0]?.finish();
    await tick();
    // b arrived after all six of a's, yet has the first turn that frees.
    expect(order).toEqual(['a0', 'a1', 'b']);
    b.finish();
    a[1]?.finish();
    await tick();
    expect(order).toEqual(['a0', 'a1', 'b', 'a2', 'a3']);
    for (const g of a) g.finish();
    await Promise.all([...runs, bRun]);
    expect(order).toEqual(['a0', 'a1', 'b', 'a2', 'a3', 'a4', 'a5']);
    expect(turns.load()).toEqual({ active: 0, waiting: 0 });
  });

  it('pass on what the work answers or throws, and free the turn either way', async () => {
    const turns = createRenderTurns(1);
    await expect(turns.run('a', () => Promise.reject(new Error('bad photo')))).rejects.toThrow('bad photo');
    await expect(turns.run('a', () => Promise.resolve(7))).resolves.toBe(7);
    expect(turns.load()).toEqual({ active: 0, waiting: 0 });
  });
});
