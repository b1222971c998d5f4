// npm run bench:ingest-growth [-- --urls 4000000 --window 500000 --out /tmp/bench-ingest-growth.jsonl]
// What Postgres pays per uploaded URL as one site grows: URLs with three hreflang alternates (the
// shape of bench:scale) go in through the ingest library (the API's path, batches of 10,000) on
// one connection, and every `--window` URLs the bench reports, per URL of that window: the
// backend's CPU (/proc/<pid>/stat), WAL records, full-page images and bytes (pg_stat_wal), pages
// of `urls` and of its loc-hash index read from outside shared_buffers (pg_statio_user_*), buffers
// the backend had to write out itself (pg_stat_bgwriter), checkpoints, and the statements' time
// (pg_stat_statements, when the server preloads it). After each window it sends 10 batches of
// stored URLs again, unchanged, from across the site, and reports Postgres' CPU per URL for them
// (lookups alone: an unchanged URL writes nothing). No HTTP, no builds: bench:scale measures the
// whole product; this isolates the database's share of an upload and what makes it grow.
//
// DATABASE_URL as for npm start. The server-wide counters (WAL, bgwriter, checkpoints) are the
// server's: run it on a Postgres of its own, e.g. one initdb'd for the purpose.
import { appendFileSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { Pool } from 'pg';
import { UrlIngestService } from '@sitemaps/ingest';
import { arg, createBenchEnv, printTable } from './support/bench-env';
import { insertBenchSite } from './support/bench-site';

const LANGS = ['en', 'de', 'fr'] as const;
const BATCH = 9_999; // whole clusters of three
const RESENDS = 10; // batches of stored URLs sent again, unchanged, per window

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : (process.argv[at + 1] ?? '');
}

/** CPU seconds (user + system) of one process. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Counters {
  cpu: number;
  walRecords: number;
  walFpi: number;
  walBytes: number;
  heapRead: number;
  heapHit: number;
  keyRead: number;
  keyHit: number;
  idxRead: number;
  buffersBackend: number;
  buffersCheckpoint: number;
  checkpoints: number;
  keyBytes: number;
  at: number;
}

async function counters(stats: Pool, pid: number, keyIndex: string): Promise<Counters> {
  const { rows } = await stats.query<Record<string, string>>(
    `SELECT w.wal_records, w.wal_fpi, w.wal_bytes,
            t.heap_blks_read, t.heap_blks_hit, t.idx_blks_read,
            i.idx_blks_read AS key_read, i.idx_blks_hit AS key_hit,
            b.buffers_backend, b.buffers_checkpoint, b.checkpoints_timed + b.checkpoints_req AS checkpoints,
            pg_relation_size($1::text::regclass) AS key_bytes
       FROM pg_stat_wal w, pg_statio_user_tables t, pg_statio_user_indexes i, pg_stat_bgwriter b
      WHERE t.relname = 'urls' AND i.indexrelname = $1::text`,
    [keyIndex],
  );
  const r = rows[0];
  if (!r) throw new Error('no counters');
  return {
    cpu: cpuSeconds(pid),
    walRecords: +r.wal_records!,
    walFpi: +r.wal_fpi!,
    walBytes: +r.wal_bytes!,
    heapRead: +r.heap_blks_read!,
    heapHit: +r.heap_blks_hit!,
    keyRead: +r.key_read!,
    keyHit: +r.key_hit!,
    idxRead: +r.idx_blks_read!,
    buffersBackend: +r.buffers_backend!,
    buffersCheckpoint: +r.buffers_checkpoint!,
    checkpoints: +r.checkpoints!,
    keyBytes: +r.key_bytes!,
    at: performance.now(),
  };
}

async function main(): Promise<void> {
  const total = arg('urls', 4_000_000);
  const window = arg('window', 500_000);
  const out = option('out', '/tmp/bench-ingest-growth.jsonl');
  const label = option('label', '');
  const env = await createBenchEnv('growth');
  const pool = new Pool({ connectionString: env.databaseUrl, max: 1, idleTimeoutMillis: 0 });
  const stats = new Pool({ connectionString: env.databaseUrl, max: 1 });
  pool.on('error', () => undefined);
  stats.on('error', () => undefined);
  try {
    const settings = await stats.query<{ name: string; setting: string }>(
      `SELECT name, current_setting(name) AS setting FROM pg_settings
        WHERE name IN ('shared_buffers', 'max_wal_size', 'checkpoint_timeout', 'wal_compression', 'full_page_writes', 'server_version')`,
    );
    const server = Object.fromEntries(settings.rows.map((s) => [s.name, s.setting]));
    console.log(
      `bench:ingest-growth ${label}, ${total} URLs, window ${window}, node ${process.version}, ` +
        `load ${os.loadavg()[0]?.toFixed(2)}, ${JSON.stringify(server)}`,
    );
    // The extension installs without the preload, but then its functions fail: try one.
    const statements = await stats
      .query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements')
      .then(() => stats.query('SELECT pg_stat_statements_reset()'))
      .then(
        () => true,
        () => false,
      );
    const keyIndex = (
      await stats.query<{ name: string }>(
        `SELECT i.indexrelid::regclass::text AS name FROM pg_index i
           JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
          WHERE i.indrelid = 'urls'::regclass AND a.attname = 'loc_hash'`,
      )
    ).rows[0]?.name;
    if (!keyIndex) throw new Error('no loc-hash index on urls');

    const site = await insertBenchSite(pool, 'growth.example.com');
    const pid = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const ingest = new UrlIngestService(pool, async () => {});
    const entry = (i: number) => {
      const page = Math.floor(i / 3);
      const href = (l: string) => `https://${site.hostname}/${l}/catalogue/product-${page}`;
      return {
        loc: href(LANGS[i % 3]!),
        lastmod: '2026-01-01',
        priority: 0.5,
        alternates: LANGS.map((l) => ({ hreflang: l, href: href(l) })),
      };
    };

    const table: (string | number)[][] = [
      [
        'site after',
        'PG CPU µs/URL',
        'sent again: PG µs/URL',
        'URLs/s',
        'WAL B/URL',
        'FPI/URL',
        'WAL rec/URL',
        'key reads/URL',
        'key hits/URL',
        'heap reads/URL',
        'backend writes/URL',
        'checkpoints',
        'key MB',
        'load',
      ],
    ];
    if (statements) await stats.query('SELECT pg_stat_statements_reset()');
    let before = await counters(stats, pid, keyIndex);
    for (let done = 0; done < total;) {
      const n = Math.min(BATCH, total - done);
      const result = await ingest.upsert(
        site,
        Array.from({ length: n }, (_, k) => entry(done + k)),
      );
      if (result.errors.length > 0) throw new Error(`refused: ${JSON.stringify(result.errors.slice(0, 3))}`);
      const crossed = Math.floor((done + n) / window) > Math.floor(done / window) || done + n === total;
      const windowStart = done - (done % window);
      done += n;
      if (!crossed) continue;
      const after = await counters(stats, pid, keyIndex);
      const urls = done - windowStart;
      const per = (key: keyof Counters) => (after[key] - before[key]) / urls;
      let top: { query: string; ms_per_url: number; calls: number; rows_per_call: number }[] = [];
      if (statements) {
        const q = await stats.query<{ query: string; ms: number; calls: string; rows: string }>(
          `SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query, total_exec_time AS ms, calls, rows
             FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
            ORDER BY total_exec_time DESC LIMIT 6`,
        );
        top = q.rows.map((s) => ({
          query: s.query,
          ms_per_url: +((s.ms / urls) * 1000).toFixed(2), // µs per URL
          calls: +s.calls,
          rows_per_call: +(+s.rows / +s.calls).toFixed(0),
        }));
        await stats.query('SELECT pg_stat_statements_reset()');
      }
      // Stored URLs sent again, unchanged, from across the site: Postgres only looks them up.
      const resendFrom = cpuSeconds(pid);
      for (let b = 0; b < RESENDS; b++) {
        const from = Math.floor((((b + 0.5) / RESENDS) * (done - BATCH)) / 3) * 3;
        const again = await ingest.upsert(
          site,
          Array.from({ length: BATCH }, (_, k) => entry(from + k)),
        );
        if (again.changed !== 0) throw new Error(`a batch sent again changed ${again.changed} URLs`);
      }
      const resendUs = ((cpuSeconds(pid) - resendFrom) / (RESENDS * BATCH)) * 1e6;
      const row = {
        label,
        site: done,
        pgCpuUsPerUrl: +(per('cpu') * 1e6).toFixed(1),
        resendPgCpuUsPerUrl: +resendUs.toFixed(1),
        urlsPerSecond: Math.round(urls / ((after.at - before.at) / 1000)),
        walBytesPerUrl: Math.round(per('walBytes')),
        fpiPerUrl: +per('walFpi').toFixed(3),
        walRecordsPerUrl: +per('walRecords').toFixed(2),
        keyReadsPerUrl: +per('keyRead').toFixed(3),
        keyHitsPerUrl: +per('keyHit').toFixed(2),
        heapReadsPerUrl: +per('heapRead').toFixed(3),
        backendWritesPerUrl: +per('buffersBackend').toFixed(3),
        checkpoints: after.checkpoints - before.checkpoints,
        keyMb: Math.round(after.keyBytes / 1e6),
        load: +(os.loadavg()[0] ?? 0).toFixed(1),
        statements: top,
        server,
      };
      appendFileSync(out, `${JSON.stringify(row)}\n`);
      table.push([
        row.site,
        row.pgCpuUsPerUrl,
        row.resendPgCpuUsPerUrl,
        row.urlsPerSecond,
        row.walBytesPerUrl,
        row.fpiPerUrl,
        row.walRecordsPerUrl,
        row.keyReadsPerUrl,
        row.keyHitsPerUrl,
        row.heapReadsPerUrl,
        row.backendWritesPerUrl,
        row.checkpoints,
        row.keyMb,
        row.load,
      ]);
      console.log(JSON.stringify(row));
      // As autovacuum would (the server here runs without it): the planner's row estimates.
      await stats.query('ANALYZE urls');
      before = await counters(stats, pid, keyIndex);
    }
    printTable(table);
  } finally {
    await pool.end();
    await stats.end();
    await env.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
