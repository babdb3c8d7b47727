import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

/** Median of a non-empty list (mean of the middle two for an even count). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2
    ? (s[(s.length - 1) / 2] as number)
    : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
}

/** The `p`th percentile (0 to 100) of a non-empty list: the value at that rank, no interpolation. */
export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
}

/**
 * Runs `task` `total` times, `inFlight` at a time (each lane starts its next run when its last
 * ends); the elapsed seconds.
 */
export async function runInFlight(
  task: () => Promise<unknown>,
  inFlight: number,
  total: number,
): Promise<number> {
  let started = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (started < total) {
        started++;
        await task();
      }
    }),
  );
  return (performance.now() - t) / 1000;
}

/**
 * The event-loop delay while `fn` runs: percentiles and maximum, ms. The histogram samples every
 * 1 ms and records whole intervals; the delay is the interval less that millisecond.
 */
export async function eventLoopDelay(fn: () => Promise<void>) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  try {
    await fn();
  } finally {
    histogram.disable();
  }
  const ms = (ns: number) => Math.max(0, ns / 1e6 - 1);
  return {
    p50: ms(histogram.percentile(50)),
    p99: ms(histogram.percentile(99)),
    max: ms(histogram.max),
  };
}
export const delayLine = (d: { p50: number; p99: number; max: number }) =>
  `p50 ${d.p50.toFixed(1)} ms, p99 ${d.p99.toFixed(1)} ms, max ${d.max.toFixed(1)} ms`;

/** A memory figure of process `pid` from /proc/<pid>/status (Linux; proc(5)), MiB. */
export function procMemoryMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1]) / 1024;
}

/**
 * CPU process `pid` has used so far, ms, all its threads: utime + stime of /proc/<pid>/stat
 * (fields 14 and 15, in clock ticks of 1/100 s on Linux; proc(5)).
 */
export function procCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces: count from after it.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
