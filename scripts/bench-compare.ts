// npm run bench:compare -- [<base-ref>] [--bench serve,hot-path] [--rounds 3] [--threshold 0.1]
//                          [--keep] [-- <arguments for every bench, e.g. --duration 5>]
// A regression gate: the working tree (B) against a base ref (A, default `main`), each bench run
// alternately A B, B A, A B … so both sides meet the same drift of a shared machine and each runs
// second as often as first (an even --rounds): the run after another pays for what that one left
// behind (checkpoints, vacuum, a dropped database). PUT ingest's API CPU per URL read 5-8% higher
// on whichever side ran second, identical or not, when every round was A then B. The base is a
// scratch git worktree in a temporary directory, with this tree's bench/ copied over it: both
// sides are measured by the same harness, so only the code under test differs. Its node_modules
// is a hard-linked copy of this one when package-lock.json is the same (the workspace links in
// node_modules are relative, so they point into the copy's own apps/ and libs/), else `npm ci`.
// Each bench builds its tree itself (scripts/build.js) before it starts the apps. Per metric it
// prints the medians, B/A of the medians and the lowest and highest B/A of a single round; a
// metric worse by more than the threshold in every round fails the run (exit code 1).
// Logs of every run: bench/.out/compare-<time>/.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import {
  compareRounds,
  parseResults,
  type BenchResult,
  type Comparison,
  type Round,
} from '../bench/support/bench-result';

const ROOT = path.resolve(__dirname, '..');
// The benches that print a BENCH_RESULT line.
const BENCHES = ['serve', 'hot-path', 'build', 'render', 'ingest'];

interface Options {
  baseRef: string;
  benches: string[];
  rounds: number;
  threshold: number;
  keep: boolean;
  benchArgs: string[];
}

function parseArgs(argv: string[]): Options {
  const separator = argv.indexOf('--');
  const own = separator < 0 ? argv : argv.slice(0, separator);
  const value = (name: string) => {
    const index = own.indexOf(`--${name}`);
    return index < 0 ? undefined : own.splice(index, 2)[1];
  };
  const benches = (value('bench') ?? 'serve').split(',').filter(Boolean);
  const rounds = Number(value('rounds') ?? 3);
  const threshold = Number(value('threshold') ?? 0.1);
  const keep = own.includes('--keep');
  const positional = own.filter((arg) => !arg.startsWith('--'));
  for (const bench of benches)
    if (!BENCHES.includes(bench)) throw new Error(`unknown bench ${bench} (one of ${BENCHES.join(', ')})`);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds wants a whole number of at least 1');
  if (!(threshold > 0 && threshold < 1)) throw new Error('--threshold wants a fraction, e.g. 0.1');
  return {
    baseRef: positional[0] ?? 'main',
    benches,
    rounds,
    threshold,
    keep,
    benchArgs: separator < 0 ? [] : argv.slice(separator + 1),
  };
}

function git(args: string[], cwd = ROOT): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

/** Runs a command to its end, its output into `log`; rejects with the log's tail on failure. */
function run(command: string, args: string[], cwd: string, log: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(log);
    const child = spawn(command, args, { cwd, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      out.write(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => out.write(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      out.end();
      if (code === 0) return resolve(stdout);
      void readFile(log, 'utf8').then((text) =>
        reject(
          new Error(`${command} ${args.join(' ')} in ${cwd} exited with ${code}; ${log} ends:\n${text.slice(-2_000)}`),
        ),
      );
    });
  });
}

/** The base ref checked out beside this tree, ready to run benches; `remove` undoes it all. */
async function prepareBase(sha: string, logs: string) {
  const scratch = await mkdtemp(path.join(tmpdir(), 'bench-compare-'));
  const tree = path.join(scratch, 'base');
  git(['worktree', 'add', '--detach', tree, sha]);
  const remove = async () => {
    spawnSync('git', ['worktree', 'remove', '--force', tree], { cwd: ROOT, stdio: 'ignore' });
    await rm(scratch, { recursive: true, force: true });
  };
  try {
    // This tree's harness on both sides (bench/.out holds logs, not harness).
    await rm(path.join(tree, 'bench'), { recursive: true, force: true });
    await cp(path.join(ROOT, 'bench'), path.join(tree, 'bench'), {
      recursive: true,
      filter: (source) => !source.startsWith(path.join(ROOT, 'bench', '.out')),
    });
    const sameLock =
      (await readFile(path.join(ROOT, 'package-lock.json'), 'utf8')) ===
      (await readFile(path.join(tree, 'package-lock.json'), 'utf8'));
    if (sameLock) {
      console.log('base: package-lock.json unchanged, hard-linking node_modules');
      // Hard links: no copy of 900 MB, and nothing the base writes (new files only) reaches this tree.
      await run(
        'cp',
        ['-al', path.join(ROOT, 'node_modules'), path.join(tree, 'node_modules')],
        tree,
        path.join(logs, 'base-node-modules.log'),
      );
      // The Prisma client is generated into the tree (gitignored), from the base's own schema.
      await run('npm', ['run', 'db:generate'], tree, path.join(logs, 'base-generate.log'));
    } else {
      console.log('base: package-lock.json differs, npm ci (a few minutes)');
      await run('npm', ['ci', '--no-audit', '--no-fund'], tree, path.join(logs, 'base-npm-ci.log'));
    }
  } catch (error) {
    await remove();
    throw error;
  }
  return { tree, remove };
}

function fmt(value: number): string {
  if (!Number.isFinite(value)) return '-';
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function report(comparisons: Comparison[], options: Options, baseLabel: string): void {
  const rows = [
    ['bench', 'metric', 'A (base)', 'B (this tree)', 'B/A', 'spread of B/A', ''],
    ...comparisons.map((c) => [
      c.bench,
      `${c.name} (${c.unit}, ${c.better} is better)`,
      fmt(c.base),
      fmt(c.head),
      c.ratio.toFixed(3),
      `${c.spread[0].toFixed(3)}–${c.spread[1].toFixed(3)}`,
      c.verdict === 'same' ? '' : c.verdict.toUpperCase(),
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  console.log(`\nA = ${baseLabel}, B = this tree; medians of ${options.rounds} round(s), A B, B A, …`);
  for (const row of rows) console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join('  '));
  console.log(
    `\nWORSE/BETTER: the medians differ by more than ${options.threshold * 100}% and every round agrees; otherwise within the noise.`,
  );
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const sha = git(['rev-parse', '--verify', `${options.baseRef}^{commit}`]);
  const baseLabel = `${options.baseRef} (${sha.slice(0, 10)})`;
  const logs = path.join(ROOT, 'bench', '.out', `compare-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  await mkdir(logs, { recursive: true });
  console.log(
    `bench:compare ${options.benches.join(',')}: ${baseLabel} vs this tree, ${options.rounds} round(s); logs in ${logs}`,
  );
  const base = await prepareBase(sha, logs);
  const stop = () => void base.remove().then(() => process.exit(130));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const rounds: Round[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      for (const bench of options.benches) {
        const results: Record<'A' | 'B', BenchResult | undefined> = { A: undefined, B: undefined };
        const sides = [
          ['A', base.tree],
          ['B', ROOT],
        ] as const;
        for (const [side, tree] of round % 2 === 1 ? sides : [...sides].reverse()) {
          const started = Date.now();
          const log = path.join(logs, `${bench}-${round}-${side}.log`);
          const args = ['-r', '@swc-node/register', `bench/${bench}.bench.ts`, ...options.benchArgs];
          const output = await run(process.execPath, args, tree, log);
          results[side] = parseResults(output).find((result) => result.bench === bench);
          if (!results[side]) throw new Error(`${log}: no BENCH_RESULT line for ${bench}`);
          console.log(
            `  round ${round}/${options.rounds} ${bench} ${side}: ${((Date.now() - started) / 1000).toFixed(0)} s, load average ${loadavg()[0]?.toFixed(2)}`,
          );
        }
        rounds.push({ base: results.A as BenchResult, head: results.B as BenchResult });
      }
    }
    const comparisons = options.benches.flatMap((bench) =>
      compareRounds(
        rounds.filter((round) => round.base.bench === bench),
        options.threshold,
      ),
    );
    report(comparisons, options, baseLabel);
    if (comparisons.some((c) => c.verdict === 'worse')) process.exitCode = 1;
  } finally {
    if (options.keep) console.log(`base tree kept: ${base.tree} (git worktree remove --force ${base.tree})`);
    else await base.remove();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 2;
});
