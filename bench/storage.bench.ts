// Postgres sizing per URL, for the capacity model (docs/scaling.md): ingests N URLs through the
// ingest library (the path the API takes, batches of 10,000) into a scratch database, in two
// shapes — plain URLs, and URLs with three hreflang alternates and an image, the shape of the
// ingest benchmark — and reports, per URL: heap, TOAST and index bytes of `urls`, the other
// tables the ingest writes (`shards`), and the WAL the inserts wrote (pg_current_wal_lsn before
// and after; full-page images included, a checkpoint first so the figure is the steady state's).
//
//   npm run bench:storage                      100,000 URLs per shape
//   npm run bench:storage -- --urls 20000      a quicker run
//
// DATABASE_URL as for npm start (else an embedded PostgreSQL).
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { UrlIngestService, type IngestSite } from '@sitemaps/ingest';
import { createBenchEnv } from './support/bench-env';
import { insertBenchSite } from './support/bench-site';

interface Shape {
  name: string;
  /** The entries of cluster `i`: `step` pages, each one row. */
  entries(site: IngestSite, i: number): Record<string, unknown>[];
  step: number;
}

const SHAPES: Shape[] = [
  {
    name: 'plain',
    step: 1,
    entries: (site, i) => [{ loc: `${site.scheme}://${site.hostname}/products/${i}`, lastmod: '2026-01-15' }],
  },
  {
    name: 'hreflang cluster of 3 + 1 image',
    step: 3,
    entries: (site, i) => {
      const page = (lang: string) => `${site.scheme}://${site.hostname}/${lang}/products/${i}`;
      const alternates = ['en', 'de', 'fr'].map((hreflang) => ({ hreflang, href: page(hreflang) }));
      const images = [{ loc: `https://img.example.com/${i}.jpg` }];
      return ['en', 'de', 'fr'].map((hreflang) => ({
        loc: page(hreflang),
        hreflang,
        alternates,
        images,
        lastmod: '2026-01-15',
      }));
    },
  },
];

async function main(): Promise<void> {
  const urlsArg = process.argv.indexOf('--urls');
  const urls = urlsArg > 0 ? Number(process.argv[urlsArg + 1]) : 100_000;
  console.log(
    `bench:storage, ${urls} URLs per shape, node ${process.version}, load average ${os.loadavg()[0]?.toFixed(2)} at start`,
  );
  const env = await createBenchEnv('storage');
  const pool = new Pool({ connectionString: env.databaseUrl, max: 2 });
  // Dropping the scratch database at the end terminates any connection still open: nothing to report.
  pool.on('error', () => undefined);
  try {
    const rows: string[][] = [];
    for (const shape of SHAPES) rows.push(await measure(pool, shape, urls));
    const header = [
      'shape',
      'URLs',
      'heap B/URL',
      'TOAST B/URL',
      'index B/URL',
      'urls total B/URL',
      'shards B/URL',
      'WAL B/URL',
      'URLs/s',
    ];
    console.log(`\n| ${header.join(' | ')} |\n|${header.map(() => ' --- |').join('')}`);
    for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  } finally {
    await pool.end();
    await env.close();
  }
}

async function measure(pool: Pool, shape: Shape, urls: number): Promise<string[]> {
  const site = await insertBenchSite(pool, `${randomUUID().slice(0, 8)}.example.com`);
  const ingest = new UrlIngestService(pool, async () => {});
  await pool.query('VACUUM ANALYZE urls');
  await pool.query('CHECKPOINT');
  const before = await sizes(pool);
  const started = process.hrtime.bigint();
  const batch = 10_000;
  const clusters = Math.floor(urls / shape.step);
  const perBatch = Math.floor(batch / shape.step);
  for (let i = 0; i < clusters; i += perBatch) {
    const entries = Array.from({ length: Math.min(perBatch, clusters - i) }, (_, k) =>
      shape.entries(site, i + k),
    ).flat();
    const result = await ingest.upsert(site, entries);
    if (result.errors.length > 0)
      throw new Error(`ingest refused entries: ${JSON.stringify(result.errors.slice(0, 3))}`);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const stored = Number(
    (await pool.query<{ n: string }>('SELECT count(*) AS n FROM urls WHERE site_id = $1', [site.id])).rows[0]?.n,
  );
  const after = await sizes(pool);
  const per = (key: keyof Sizes) => String(Math.round((after[key] - before[key]) / stored));
  return [
    shape.name,
    String(stored),
    per('heap'),
    per('toast'),
    per('indexes'),
    per('total'),
    per('shards'),
    per('wal'),
    String(Math.round(stored / seconds)),
  ];
}

interface Sizes {
  heap: number;
  toast: number;
  indexes: number;
  total: number;
  shards: number;
  wal: number;
}

async function sizes(pool: Pool): Promise<Sizes> {
  const { rows } = await pool.query<Record<keyof Sizes, string>>(`
    SELECT pg_relation_size('urls') AS heap,
           coalesce((SELECT pg_total_relation_size(reltoastrelid) FROM pg_class WHERE oid = 'urls'::regclass AND reltoastrelid <> 0), 0) AS toast,
           pg_indexes_size('urls') AS indexes,
           pg_total_relation_size('urls') AS total,
           pg_total_relation_size('shards') AS shards,
           pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') AS wal`);
  const row = rows[0];
  if (!row) throw new Error('no sizes');
  return {
    heap: +row.heap,
    toast: +row.toast,
    indexes: +row.indexes,
    total: +row.total,
    shards: +row.shards,
    wal: +row.wal,
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
