// The arithmetic of `npm run bench:compare` (bench/support/bench-result.ts): what it reads from a
// bench's output, and how it pairs rounds and judges a change. No benchmark runs here.
import { describe, expect, it } from 'vitest';
import { compareRounds, median, parseResults, printResult, type BenchResult } from '../bench/support/bench-result';

const serve = (rps: number, p99: number): BenchResult => ({
  bench: 'serve',
  metrics: [
    { name: 'public shard 304 req/s', value: rps, unit: 'req/s', better: 'higher' },
    { name: 'public shard 304 p99', value: p99, unit: 'ms', better: 'lower' },
  ],
});

describe('bench results', () => {
  it('reads the BENCH_RESULT lines among the human report, as printResult writes them', () => {
    const lines: string[] = [];
    const log = console.log;
    console.log = (line: string) => lines.push(line);
    try {
      printResult('serve', [
        { name: 'a', value: 1.5, unit: 'ms', better: 'lower' },
        { name: 'not measured', value: Number.NaN, unit: 'ms', better: 'lower' },
        null,
      ]);
    } finally {
      console.log = log;
    }
    const output = ['case  req/s', '  shard 304  30,000', ...lines, 'done'].join('\n');
    expect(parseResults(output)).toEqual([
      { bench: 'serve', metrics: [{ name: 'a', value: 1.5, unit: 'ms', better: 'lower' }] },
    ]);
    expect(() => parseResults('BENCH_RESULT {"metrics":[]}')).toThrow(/malformed/);
  });

  it('takes medians of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('reports medians, B/A and the spread of per-round ratios', () => {
    const [rps, p99] = compareRounds(
      [
        { base: serve(100, 10), head: serve(110, 10) },
        { base: serve(120, 10), head: serve(120, 12) },
        { base: serve(100, 10), head: serve(90, 8) },
      ],
      0.1,
    );
    expect(rps).toMatchObject({ bench: 'serve', base: 100, head: 110, ratio: 1.1, rounds: 3, verdict: 'same' });
    expect(rps?.spread).toEqual([0.9, 1.1]);
    expect(p99).toMatchObject({ base: 10, head: 10, ratio: 1, verdict: 'same' });
    expect(p99?.spread).toEqual([0.8, 1.2]);
  });

  it('calls a change worse or better only past the threshold and when every round agrees', () => {
    // 15% fewer req/s and 20% more p99 in every round: both worse.
    const slower = [
      { base: serve(100, 10), head: serve(85, 12) },
      { base: serve(110, 10), head: serve(93, 12) },
    ];
    expect(compareRounds(slower, 0.1).map((c) => c.verdict)).toEqual(['worse', 'worse']);
    // The same medians, but one round went the other way: noise, not a verdict.
    const mixed = [...slower, { base: serve(80, 12), head: serve(90, 10) }];
    expect(compareRounds(mixed, 0.1).map((c) => c.verdict)).toEqual(['same', 'same']);
    // Faster and lower latency: better; but one round alone has no spread to judge.
    const faster = { base: serve(100, 10), head: serve(130, 7) };
    expect(compareRounds([faster, faster], 0.1).map((c) => c.verdict)).toEqual(['better', 'better']);
    expect(compareRounds([faster], 0.1).map((c) => c.verdict)).toEqual(['same', 'same']);
  });

  it('compares a metric over the rounds that measured it on both sides', () => {
    const partial: BenchResult = { bench: 'serve', metrics: [serve(1, 1).metrics[0]!] };
    const [rps, ...rest] = compareRounds(
      [
        { base: serve(100, 10), head: partial },
        { base: serve(100, 10), head: serve(100, 10) },
      ],
      0.1,
    );
    expect(rps?.rounds).toBe(2);
    expect(rest.map((c) => [c.name, c.rounds])).toEqual([['public shard 304 p99', 1]]);
  });
});
