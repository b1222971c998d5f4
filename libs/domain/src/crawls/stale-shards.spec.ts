import { describe, expect, it } from 'vitest';
import type { ManifestFile, ManifestFiles } from '../builds/manifest-merge';
import { DomainError } from '../domain.errors';
import { parseWebhookEvent } from '../webhooks/webhook-event';
import { staleShardEvent, staleShards, validateStaleAfterDays } from './stale-shards';

const NOW = new Date('2026-06-20T12:00:00.000Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000);
const file = (kind: ManifestFile['kind'], modifiedAt?: Date): ManifestFile => ({
  sha256: 'a'.repeat(64),
  kind,
  byteSize: 100,
  gzipSize: 50,
  urlCount: 1,
  lastmod: null,
  ...(modifiedAt ? { modifiedAt: modifiedAt.toISOString() } : {}),
});

describe('staleShards', () => {
  const files: ManifestFiles = {
    'sitemap.xml': file('index', daysAgo(30)),
    'sitemap.txt': file('text', daysAgo(30)),
    'sitemap-1.xml.gz': file('shard', daysAgo(10)),
    'sitemap-2.xml.gz': file('shard', daysAgo(10)),
    'sitemap-3.xml.gz': file('shard', daysAgo(3)),
    'sitemap-4.xml.gz': file('shard'),
    'sitemap-10.xml.gz': file('shard', daysAgo(7)),
  };

  it('finds shards changed at least N days ago and unread since, oldest-first by path, never the index or text files', () => {
    const stale = staleShards({
      files,
      reads: [
        { path: 'sitemap-2.xml.gz', lastAt: daysAgo(9) },
        { path: 'sitemap-1.xml.gz', lastAt: daysAgo(12) },
        { path: 'sitemap.xml', lastAt: daysAgo(40) },
      ],
      notices: [],
      staleAfterDays: 7,
      now: NOW,
    });
    expect(stale).toEqual([
      { path: 'sitemap-1.xml.gz', modifiedAt: daysAgo(10), lastReadAt: daysAgo(12) },
      { path: 'sitemap-10.xml.gz', modifiedAt: daysAgo(7), lastReadAt: null },
    ]);
  });

  it('takes the latest read of any crawler', () => {
    const stale = staleShards({
      files: { 'sitemap-1.xml.gz': file('shard', daysAgo(10)) },
      reads: [
        { path: 'sitemap-1.xml.gz', lastAt: daysAgo(20) },
        { path: 'sitemap-1.xml.gz', lastAt: daysAgo(1) },
      ],
      notices: [],
      staleAfterDays: 1,
      now: NOW,
    });
    expect(stale).toEqual([]);
  });

  it('announces a version once, and a later change of the same path again', () => {
    const input = { files, reads: [], staleAfterDays: 7, now: NOW };
    const first = staleShards({ ...input, notices: [] });
    expect(first.map((s) => s.path)).toEqual(['sitemap-1.xml.gz', 'sitemap-2.xml.gz', 'sitemap-10.xml.gz']);
    expect(staleShards({ ...input, notices: first })).toEqual([]);
    const changed = { ...files, 'sitemap-1.xml.gz': file('shard', daysAgo(8)) };
    expect(staleShards({ ...input, files: changed, notices: first })).toEqual([
      { path: 'sitemap-1.xml.gz', modifiedAt: daysAgo(8), lastReadAt: null },
    ]);
  });
});

describe('staleShardEvent', () => {
  it('is a valid sitemap.stale whose id names the shard version', () => {
    const siteId = '0b0f3c1e-8c55-4d4b-9b7e-3b8f1f2a6c11';
    const shard = { path: 'sitemap-1.xml.gz', modifiedAt: daysAgo(10), lastReadAt: null, staleAfterDays: 7 };
    const event = parseWebhookEvent({ ...staleShardEvent(siteId, shard), timestamp: NOW.toISOString() });
    expect(event).toMatchObject({
      type: 'sitemap.stale',
      data: { siteId, path: 'sitemap-1.xml.gz', modifiedAt: daysAgo(10).toISOString(), lastReadAt: null },
    });
    expect(staleShardEvent(siteId, shard).id).toBe(event.id);
    expect(staleShardEvent(siteId, { ...shard, modifiedAt: daysAgo(9) }).id).not.toBe(event.id);
  });
});

describe('validateStaleAfterDays', () => {
  it.each([null, 1, 7, 365])('accepts %s', (value) => expect(validateStaleAfterDays(value)).toBe(value));
  it.each([0, 366, 1.5, -1, '7'])('refuses %s, naming the field', (value) => {
    try {
      validateStaleAfterDays(value);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).details).toEqual([expect.objectContaining({ field: 'staleAfterDays' })]);
    }
  });
});
