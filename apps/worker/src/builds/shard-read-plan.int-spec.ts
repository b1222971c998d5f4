import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pool, type PoolClient } from 'pg';
import { createPrismaClient, ShardRepository, type PrismaClient } from '@sitemaps/data';
import { UrlIngestService } from '@sitemaps/ingest';
import { insertSite, useTestPool } from '@sitemaps/testing';

const SHARDS = 6;
const SHARD_SIZE = 3_000;

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** Rows of `urls` a plan read: those its scans returned plus those they read and filtered out. */
function urlRowsRead(node: PlanNode): number {
  const own =
    node['Relation Name'] === 'urls'
      ? ((node['Actual Rows'] ?? 0) +
          (node['Rows Removed by Filter'] ?? 0) +
          (node['Rows Removed by Index Recheck'] ?? 0)) *
        (node['Actual Loops'] ?? 1)
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + urlRowsRead(child), 0);
}

/** The SELECT a query (or a COPY of one) runs, with its parameters. */
function selectOf(query: unknown, values: unknown): { text: string; values: unknown[] } | null {
  const text = typeof query === 'string' ? query : (query as { text?: unknown } | null)?.text;
  if (typeof text !== 'string' || !/\burls\b/.test(text)) return null;
  const copied = /^COPY \(([\s\S]*)\) TO STDOUT/.exec(text);
  return { text: copied ? (copied[1] as string) : text, values: Array.isArray(values) ? values : [] };
}

describe('ShardRepository.snapshot reads a shard without walking its site (real Postgres)', () => {
  let pool: Pool;
  let prisma: PrismaClient;
  const fixture = useTestPool();
  beforeAll(() => {
    prisma = createPrismaClient(fixture.db.url);
    pool = new Pool({ connectionString: fixture.db.url });
  });
  afterAll(async () => {
    await pool.end();
    await prisma.$disconnect();
  });

  it('reads each shard through its own rows whatever the statistics make of the site', async () => {
    const site = await insertSite(fixture.pool);
    const ingest = new UrlIngestService(fixture.pool, async () => undefined);
    const words = 'a-rather-long-path-segment/'.repeat(20);
    for (let shard = 0; shard < SHARDS; shard++)
      await ingest.upsert(
        { ...site, shardSize: SHARD_SIZE },
        Array.from({ length: SHARD_SIZE }, (_, i) => ({ loc: `https://${site.hostname}/${words}${shard}/${i}` })),
      );
    // Statistics of a site of few large shards: each is a sixth of the table.
    await fixture.pool.query('VACUUM ANALYZE urls');
    const shards = (
      await fixture.pool.query<{ id: string; url_count: number }>(
        'SELECT id::text, url_count FROM shards WHERE site_id = $1 ORDER BY id',
        [site.id],
      )
    ).rows;
    expect(shards.map((shard) => shard.url_count)).toEqual(Array.from({ length: SHARDS }, () => SHARD_SIZE));

    // Every query the render's reads send, as the repository sends it.
    const sent: { text: string; values: unknown[] }[] = [];
    pool.on('connect', (client: PoolClient) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const select = selectOf(args[0], args[1]);
        if (select) sent.push(select);
        return query(...args);
      };
    });
    const repository = new ShardRepository(prisma, pool, 1_000);
    const last = shards[SHARDS - 1]!;
    const bytes = await repository.snapshot(last.id, async (snapshot) => {
      const head = (await snapshot.head())!;
      expect(head.urls).toBe(SHARD_SIZE);
      let length = 0;
      for (const part of await snapshot.streamFragmentParts(head, 2))
        for await (const block of part) length += block.length;
      for await (const block of snapshot.streamFragments()) length += block.length;
      length += (await snapshot.fragmentRows()).length;
      return length;
    });
    expect(bytes).toBeGreaterThan(0);
    expect(sent.filter((query) => /\bfragment\b/.test(query.text)).length).toBeGreaterThanOrEqual(3);

    const read: { text: string; rows: number }[] = [];
    for (const query of sent) {
      const { rows } = await fixture.pool.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${query.text}`,
        query.values,
      );
      read.push({
        text: query.text.replace(/\s+/g, ' ').slice(0, 120),
        rows: urlRowsRead(rows[0]!['QUERY PLAN'][0]!.Plan),
      });
    }
    // Each read touches the shard's rows (and an index end), not the five other shards' as well.
    expect(read.filter((query) => query.rows > SHARD_SIZE + 2)).toEqual([]);
  }, 120_000);
});
