/**
 * Charges one user's quota from several OS processes at once, each with its own connection to the
 * store, released together. Unlike `Promise.all` in one process (where a synchronous driver such as
 * better-sqlite3 runs the calls one after another), this lets a read-then-write implementation race.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { StorageConfig } from '../../src/adapters/storage/index.js';
import { ROOT } from './process.js';

const WORKER = fileURLToPath(new URL('./charge-worker.ts', import.meta.url));

/** Resolves with the number of charges that succeeded, summed over the processes. */
export async function chargeFromProcesses(job: {
  storage: StorageConfig;
  userId: string;
  month: string;
  limit: number;
  processes: number;
  chargesEach: number;
  /** Use the broken read-then-write charge (to show that the check catches it). */
  racy?: boolean;
}): Promise<number> {
  const children = Array.from({ length: job.processes }, () =>
    spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        WORKER,
        JSON.stringify({ ...job, charges: job.chargesEach, racy: job.racy ?? false }),
      ],
      { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
    ),
  );
  const outputs = children.map((child) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    return { child, text: () => out };
  });
  // Wait until every process has opened its store, then release them together.
  await Promise.all(
    outputs.map(
      ({ child, text }) =>
        new Promise<void>((resolve, reject) => {
          const check = () => (text().includes('ready\n') ? resolve() : undefined);
          child.stdout.on('data', check);
          child.once('exit', (code) =>
            reject(new Error(`charge worker exited with ${code} before it was ready`)),
          );
          check();
        }),
    ),
  );
  for (const { child } of outputs) child.stdin.write('go\n');
  await Promise.all(
    outputs.filter(({ child }) => child.exitCode === null).map(({ child }) => once(child, 'exit')),
  );
  return outputs.reduce((sum, { child, text }) => {
    if (child.exitCode !== 0) throw new Error(`charge worker exited with ${child.exitCode}`);
    return sum + Number(text().split('\n').filter(Boolean).pop());
  }, 0);
}
