// Figures a machine can read: each benchmark ends with one `BENCH_RESULT {json}` line on stdout
// (printResult), and `npm run bench:compare` reads those lines from runs of two trees (A: the
// base ref, B: the working tree) to put each metric side by side. This half is pure (no I/O
// beyond printing) so its arithmetic is unit-tested.

export const RESULT_PREFIX = 'BENCH_RESULT ';

export interface Metric {
  name: string;
  value: number;
  unit: string;
  /** Which direction is an improvement: req/s and URLs/s are `higher`, p99, CPU and RSS `lower`. */
  better: 'higher' | 'lower';
}

export interface BenchResult {
  bench: string;
  metrics: Metric[];
}

/** Prints the line bench:compare reads; metrics that were not measured (NaN, undefined) are left out. */
export function printResult(bench: string, metrics: (Metric | null | undefined)[]): void {
  const measured = metrics.filter((metric): metric is Metric => !!metric && Number.isFinite(metric.value));
  console.log(`${RESULT_PREFIX}${JSON.stringify({ bench, metrics: measured } satisfies BenchResult)}`);
}

/** Every result line in a benchmark's output; other lines are the human report and are skipped. */
export function parseResults(output: string): BenchResult[] {
  const results: BenchResult[] = [];
  for (const line of output.split('\n')) {
    if (!line.startsWith(RESULT_PREFIX)) continue;
    const parsed = JSON.parse(line.slice(RESULT_PREFIX.length)) as Partial<BenchResult>;
    if (typeof parsed.bench !== 'string' || !Array.isArray(parsed.metrics))
      throw new Error(`malformed result line: ${line}`);
    results.push({ bench: parsed.bench, metrics: parsed.metrics });
  }
  return results;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** One round: the same benchmark run once on each tree, A (the base) right before or after B. */
export interface Round {
  base: BenchResult;
  head: BenchResult;
}

export interface Comparison {
  bench: string;
  name: string;
  unit: string;
  better: Metric['better'];
  /** Medians over the rounds. */
  base: number;
  head: number;
  /** head / base of the medians: above 1 is more req/s, or more milliseconds. */
  ratio: number;
  /** The lowest and highest head / base of a single round: how far the machine's noise reaches. */
  spread: [number, number];
  rounds: number;
  /**
   * `worse` or `better` when the medians differ by more than the threshold in that direction and
   * every round (two at least: one round has no spread to judge) agrees on the direction; `same`
   * otherwise (within the noise).
   */
  verdict: 'worse' | 'better' | 'same';
}

/**
 * Pairs each metric across the rounds (by bench and name; a metric missing from one side of a
 * round is compared over the rounds that have both) and judges it against `threshold` (0.1: 10%).
 */
export function compareRounds(rounds: Round[], threshold: number): Comparison[] {
  const pairs = new Map<string, { metric: Metric; base: number[]; head: number[] }>();
  for (const { base, head } of rounds) {
    const heads = new Map(head.metrics.map((metric) => [metric.name, metric]));
    for (const metric of base.metrics) {
      const other = heads.get(metric.name);
      if (!other) continue;
      const key = `${base.bench}\u0000${metric.name}`;
      let pair = pairs.get(key);
      if (!pair) pairs.set(key, (pair = { metric, base: [], head: [] }));
      pair.base.push(metric.value);
      pair.head.push(other.value);
    }
  }
  return [...pairs.entries()].map(([key, { metric, base, head }]) => {
    const ratios = base.map((value, round) => (head[round] as number) / value);
    const ratio = median(head) / median(base);
    const spread: [number, number] = [Math.min(...ratios), Math.max(...ratios)];
    // Above 1: an improvement, whichever way the metric counts.
    const gain = (r: number) => (metric.better === 'higher' ? r : 1 / r);
    const gains = ratios.map(gain);
    const judged = ratios.length >= 2;
    let verdict: Comparison['verdict'] = 'same';
    if (judged && gain(ratio) < 1 - threshold && gains.every((g) => g < 1)) verdict = 'worse';
    else if (judged && gain(ratio) > 1 + threshold && gains.every((g) => g > 1)) verdict = 'better';
    return {
      bench: key.slice(0, key.indexOf('\u0000')),
      name: metric.name,
      unit: metric.unit,
      better: metric.better,
      base: median(base),
      head: median(head),
      ratio,
      spread,
      rounds: ratios.length,
      verdict,
    };
  });
}
