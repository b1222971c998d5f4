// Shared set-up for benchmarks: a scratch database on the configured (or embedded) Postgres,
// Redis found the usual way, apps started as child processes, and peak RSS from /proc.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { appArgs, childProcessEnv, developmentSiteVerification, loadServiceEnv, type AppName } from '@sitemaps/config';
import { applyMigrations } from '@sitemaps/data';
import { ensurePostgres, ensureRedis, stopChild, waitFor, type LocalService } from '@sitemaps/local-services';

export const ROOT = path.resolve(__dirname, '../..');

export interface BenchEnv {
  databaseUrl: string;
  redisUrl: string;
  queuePrefix: string;
  close(): Promise<void>;
}

/**
 * A scratch database, migrated; or, with `template`, a copy of that database (file by file, no
 * migration: the template was made by the same migrations).
 */
export async function createBenchEnv(label: string, opts: { template?: string } = {}): Promise<BenchEnv> {
  const found = loadServiceEnv();
  const postgres: LocalService = await ensurePostgres({ databaseUrl: found.databaseUrl, dataDir: found.dataDir });
  const redis: LocalService = await ensureRedis({ redisUrl: found.redisUrl, dataDir: found.dataDir });
  const name = `bench_${label}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: postgres.url });
  await admin.connect();
  const url = new URL(postgres.url);
  url.pathname = `/${name}`;
  if (opts.template) {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${admin.escapeIdentifier(opts.template)} STRATEGY FILE_COPY`);
  } else {
    await admin.query(`CREATE DATABASE ${name}`);
    await applyMigrations(url.toString());
  }
  return {
    databaseUrl: url.toString(),
    redisUrl: redis.url,
    queuePrefix: `bench-${randomBytes(4).toString('hex')}`,
    async close() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
      await redis.stop();
      await postgres.stop();
    },
  };
}

export interface AppProcess {
  child: ChildProcess;
  peakRssMb(): number;
  stop(): Promise<void>;
}

let built = false;

/** Starts an app as production runs it (compiled, dist/apps/<app>/src/main.js) and waits for its ready line. */
export async function startApp(app: AppName, env: Record<string, string>, ready: RegExp): Promise<AppProcess> {
  if (!built) {
    const build = spawnSync(process.execPath, ['scripts/build.js'], { cwd: ROOT, encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`build failed:\n${build.stderr}`);
    built = true;
  }
  const child = spawn(process.execPath, appArgs(app), {
    cwd: ROOT,
    env: childProcessEnv({ SITE_VERIFICATION: developmentSiteVerification(), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitFor(async () => ready.test(output) || child.exitCode !== null, 60_000, `${app} did not start`);
  if (child.exitCode !== null) throw new Error(`${app} exited:\n${output}`);
  // Keep draining the pipes (a full pipe would block the app) but stop collecting.
  child.stdout?.removeAllListeners('data').resume();
  child.stderr
    ?.removeAllListeners('data')
    .on('data', (chunk: Buffer) => process.stderr.write(`[${app}] ${chunk.toString()}`));
  return { child, peakRssMb: () => peakRssMb(child.pid), stop: () => stopChild(child) };
}

/** VmHWM: the most resident memory the process has had. */
export function peakRssMb(pid: number | undefined): number {
  if (!pid) return Number.NaN;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

export function arg(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

export function printTable(rows: (string | number)[][]): void {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => String(row[column] ?? '').length))) ?? [];
  for (const row of rows) console.log(row.map((cell, column) => String(cell).padEnd(widths[column] ?? 0)).join('  '));
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux everywhere that matters). */
const USER_HZ = 100;

/**
 * CPU seconds (user + system) used so far by a process and its descendants alive now, from /proc:
 * a server's cost per request whatever else competes for the CPUs.
 */
export function treeCpuSeconds(rootPid: number | undefined): number {
  if (!rootPid) return Number.NaN;
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name may hold spaces and parentheses: fields count from the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // Exited while listed.
    }
  }
  let ticks = 0;
  const pending = [rootPid];
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    ticks += stats.get(pid)?.ticks ?? 0;
    for (const [child, stat] of stats) if (stat.ppid === pid) pending.push(child);
  }
  return ticks / USER_HZ;
}
