/**
 * Render turns shared fairly between accounts (issue 55, item 1): at most `concurrency` renders
 * run at once, and when a turn frees, the account that has waited longest since its last turn goes
 * next (the waiting account whose last turn is oldest, one never served first; first come, first
 * served within one account). A plain first-come queue let one account's sixteen huge previews sit ahead of every
 * other account's card for seconds; here another account's render waits for at most the renders
 * already running.
 */

/** The render turns: {@link RenderTurns.run} queues, {@link RenderTurns.load} counts. */
export interface RenderTurns {
  /** Runs `work` in `account`'s next turn; resolves or rejects as `work` does. */
  run<T>(account: string, work: () => Promise<T>): Promise<T>;
  /** Renders running, and waiting for a turn. */
  load(): { active: number; waiting: number };
}

/** Accounts whose last turn is remembered while renders keep coming (a bound on memory). */
const MAX_REMEMBERED = 1024;

/** Turns for `concurrency` (at least 1) renders at once, shared round robin between accounts. */
export function createRenderTurns(concurrency: number): RenderTurns {
  let active = 0;
  let waiting = 0;
  /** Turns given so far: an account's last turn is the count when it had it. */
  let given = 0;
  /** Each account's waiting work, oldest first. */
  const queues = new Map<string, (() => void)[]>();
  /** When each account last had a turn (an account never seen has waited longest). */
  const lastTurn = new Map<string, number>();

  function next(): void {
    while (active < concurrency && waiting > 0) {
      // The waiting account whose last turn is oldest (a few accounts wait at once: a scan).
      let account: string | undefined;
      let oldest = Infinity;
      for (const key of queues.keys()) {
        const at = lastTurn.get(key) ?? -1;
        if (at < oldest) [account, oldest] = [key, at];
      }
      const queue = queues.get(account as string) as (() => void)[];
      const start = queue.shift() as () => void;
      if (queue.length === 0) queues.delete(account as string);
      lastTurn.set(account as string, given++);
      waiting--;
      active++;
      start();
    }
    // Accounts with nothing waiting lose their entry once the turns are idle, or past
    // MAX_REMEMBERED: they then count as never served, which their last turn, long ago, nearly is.
    if (active === 0 && waiting === 0) lastTurn.clear();
    else if (lastTurn.size > MAX_REMEMBERED)
      for (const key of lastTurn.keys()) if (!queues.has(key)) lastTurn.delete(key);
  }

  return {
    run<T>(account: string, work: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const start = () => {
          Promise.resolve()
            .then(work)
            .then(resolve, reject)
            .finally(() => {
              active--;
              next();
            });
        };
        const queue = queues.get(account);
        if (queue) queue.push(start);
        else queues.set(account, [start]);
        waiting++;
        next();
      });
    },
    load: () => ({ active, waiting }),
  };
}
