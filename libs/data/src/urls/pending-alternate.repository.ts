// Pending alternates: the hreflang links waiting for a page of the site that a cluster names
// before the page is stored. Part of the urls aggregate; written in the URL write's transaction,
// under the site's URL lock (libs/ingest's cluster resolution).
import type { Links } from '@sitemaps/domain';
import { hashList, packHashes } from '../copy/pg-copy';
import type { Queryable } from './url.repository';

export class PendingAlternateRepository {
  /** Whether the site has any: most have none, and one cheap question saves looking up every page. */
  async anyForSite(db: Queryable, siteId: string): Promise<boolean> {
    const { rows } = await db.query<{ any: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM pending_alternates WHERE site_id = $1) AS any',
      [siteId],
    );
    return rows[0]?.any === true;
  }

  /** The pending links of the pages among `hashes`, by loc hash in hex. */
  async find(db: Queryable, siteId: string, hashes: readonly Buffer[]): Promise<Map<string, Links>> {
    const { rows } = await db.query<{ href_hash: Buffer; links: Links }>(
      `SELECT href_hash, links FROM pending_alternates WHERE site_id = $1 AND href_hash = ANY(${hashList(2)})`,
      [siteId, packHashes(hashes)],
    );
    return new Map(rows.map((row) => [row.href_hash.toString('hex'), row.links]));
  }

  async drop(db: Queryable, siteId: string, hashes: readonly Buffer[]): Promise<void> {
    if (hashes.length === 0) return;
    await db.query(`DELETE FROM pending_alternates WHERE site_id = $1 AND href_hash = ANY(${hashList(2)})`, [
      siteId,
      packHashes(hashes),
    ]);
  }

  /** Sets the pending links of each page (inserted, or replacing what was there). */
  async save(db: Queryable, siteId: string, pages: readonly { hash: Buffer; href: string; links: Links }[]) {
    if (pages.length === 0) return;
    await db.query(
      `INSERT INTO pending_alternates (site_id, href_hash, href, links) SELECT $1, * FROM unnest($2::bytea[], $3::text[], $4::json[])
       ON CONFLICT (site_id, href_hash) DO UPDATE SET links = EXCLUDED.links`,
      [
        siteId,
        pages.map((page) => page.hash),
        pages.map((page) => page.href),
        pages.map((page) => JSON.stringify(page.links)),
      ],
    );
  }
}
