/**
 * Work in flight per account in this process, for the shares that keep one account from taking
 * all of a pool (admission of generations, the batch runner, webhook deliveries; issue 41).
 */
export interface Tally {
  /** How many of `key`'s are in flight (0 when none). */
  count(key: string): number;
  /** Counts one more for `key`; the function returned counts it done (call it once). */
  start(key: string): () => void;
  /** The keys with at least `n` in flight. */
  atLeast(n: number): string[];
}

export function createTally(): Tally {
  const counts = new Map<string, number>();
  return {
    count: (key) => counts.get(key) ?? 0,
    start(key) {
      counts.set(key, (counts.get(key) ?? 0) + 1);
      return () => {
        const left = (counts.get(key) ?? 1) - 1;
        if (left > 0) counts.set(key, left);
        else counts.delete(key);
      };
    },
    atLeast: (n) => [...counts].filter(([, c]) => c >= n).map(([key]) => key),
  };
}
