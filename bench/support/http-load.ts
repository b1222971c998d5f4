// HTTP load generators for benchmarks, each in a process of its own: wrk (C, epoll; the Debian
// package, installed when absent and possible) and autocannon (Node, the fallback). On a 2-core
// machine the client shares the CPUs with the servers it measures: autocannon's one Node thread
// saturates near 15,000 small responses/s, below what nginx answers, so it measured itself;
// one wrk thread drives several times that.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { aptInstall, findBinary } from './apt-package';

const execFileAsync = promisify(execFile);

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  connections: number;
  /** wrk threads (event loops); autocannon always has one. */
  threads: number;
  durationS: number;
  /** The status every answer should have. */
  status: number;
  /** Requests written back to back on each connection before reading (HTTP/1.1 pipelining); 1: none. */
  pipeline?: number;
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  mbps: number;
  /**
   * Socket errors, timeouts and answers with another status. wrk only counts statuses outside
   * 2xx/3xx, so a 200 where a 304 was expected is not seen: check one request before the run.
   */
  unexpected: number;
  /** What the unexpected were, as the client words it (wrk: connect/read/write/timeout, non-2xx/3xx). */
  unexpectedDetail?: string;
}

export interface LoadClient {
  name: 'wrk' | 'autocannon';
  run(options: LoadOptions): Promise<LoadResult>;
}

/** wrk, installed with apt-get when absent; autocannon, with a note saying so, when that fails. */
export function loadClient(prefer: 'wrk' | 'autocannon' = 'wrk'): LoadClient {
  if (prefer === 'wrk') {
    const binary = findBinary(['wrk'], ['-v']) ?? (aptInstall('wrk') ? findBinary(['wrk'], ['-v']) : null);
    if (binary) return wrk(binary);
    console.log(
      'NOTE: wrk is not available; falling back to autocannon, which saturates before nginx does on small answers.',
    );
  }
  return autocannon();
}

function wrk(binary: string): LoadClient {
  let pipelineScript: string | undefined;
  return {
    name: 'wrk',
    async run(options) {
      // wrk adds its own Host unless one is spelled exactly `Host`: two would be a 400.
      const headers = Object.entries(options.headers).flatMap(([name, value]) => [
        '-H',
        `${titleCase(name)}: ${value}`,
      ]);
      const pipeline = options.pipeline ?? 1;
      if (pipeline > 1) pipelineScript ??= writePipelineScript();
      const argv = [
        `-t${options.threads}`,
        `-c${options.connections}`,
        `-d${options.durationS}s`,
        '--latency',
        ...headers,
        ...(pipeline > 1 ? ['-s', pipelineScript as string, options.url, '--', String(pipeline)] : [options.url]),
      ];
      const { stdout } = await execFileAsync(binary, argv, { maxBuffer: 1024 * 1024 });
      return parseWrk(stdout);
    },
  };
}

function titleCase(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

/** wrk's own pipelining example: `depth` copies of the request in one write. */
function writePipelineScript(): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'wrk-')), 'pipeline.lua');
  writeFileSync(
    file,
    `init = function(args)
  local r = {}
  for i = 1, tonumber(args[1]) do r[i] = wrk.format() end
  req = table.concat(r)
end
request = function() return req end
`,
  );
  return file;
}

/** Reads wrk's text report (`--latency`). */
export function parseWrk(output: string): LoadResult {
  const number = (pattern: RegExp) => {
    const match = pattern.exec(output);
    if (!match) throw new Error(`unexpected wrk output (no ${pattern.source}):\n${output}`);
    return match;
  };
  const ms = (value: string, unit: string) =>
    Number(value) * ({ us: 0.001, ms: 1, s: 1_000, m: 60_000 }[unit] ?? Number.NaN);
  const bytes = (value: string, unit: string) =>
    Number(value) * ({ B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[unit] ?? Number.NaN);
  const [, p50, p50Unit = ''] = number(/^\s+50%\s+([\d.]+)(us|ms|s|m)\s*$/m);
  const [, p99, p99Unit = ''] = number(/^\s+99%\s+([\d.]+)(us|ms|s|m)\s*$/m);
  const [, transfer, transferUnit = ''] = number(/^Transfer\/sec:\s+([\d.]+)(B|KB|MB|GB)/m);
  const socketErrors =
    /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output)?.slice(1) ?? [];
  const non2xx3xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0);
  return {
    requests: Number(number(/^\s+(\d+) requests in /m)[1]),
    rps: Number(number(/^Requests\/sec:\s+([\d.]+)/m)[1]),
    p50Ms: ms(p50 ?? '', p50Unit),
    p99Ms: ms(p99 ?? '', p99Unit),
    mbps: bytes(transfer ?? '', transferUnit) / 1e6,
    unexpected: non2xx3xx + socketErrors.reduce((sum, count) => sum + Number(count), 0),
    unexpectedDetail: [/Socket errors: .*/.exec(output)?.[0], /Non-2xx or 3xx responses: \d+/.exec(output)?.[0]]
      .filter(Boolean)
      .join('; '),
  };
}

/** What `autocannon --json` prints. */
interface AutocannonReport {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  throughput: { average: number };
  errors: number;
  timeouts: number;
  statusCodeStats?: Record<string, { count: number }>;
}

function autocannon(): LoadClient {
  const script = require.resolve('autocannon/autocannon.js');
  return {
    name: 'autocannon',
    async run(options) {
      const headers = Object.entries(options.headers).flatMap(([name, value]) => ['-H', `${name}=${value}`]);
      const argv = [
        script,
        '--json',
        '-c',
        String(options.connections),
        '-d',
        String(options.durationS),
        '-p',
        String(options.pipeline ?? 1),
        ...headers,
        options.url,
      ];
      // Asynchronously: the caller's event loop keeps draining its children's pipes meanwhile.
      const { stdout } = await execFileAsync(process.execPath, argv, { maxBuffer: 16 * 1024 * 1024 });
      const report = JSON.parse(stdout) as AutocannonReport;
      const stats = report.statusCodeStats ?? {};
      const answered = Object.values(stats).reduce((sum, stat) => sum + stat.count, 0);
      const expected = stats[String(options.status)]?.count ?? 0;
      return {
        requests: report.requests.total,
        rps: report.requests.average,
        p50Ms: report.latency.p50,
        p99Ms: report.latency.p99,
        mbps: report.throughput.average / 1e6,
        unexpected: answered - expected + report.errors + report.timeouts,
      };
    },
  };
}
