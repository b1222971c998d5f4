import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GZIP_LEVEL, gzipFile } from './gzip';

describe('gzipFile', () => {
  const xml =
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset>' +
    '<url><loc>https://shop.example.com/é</loc></url>'.repeat(2000) +
    '</urlset>\n';

  it('compresses the parts of one file, in order, into one gzip member', async () => {
    const parts = [xml.slice(0, 100), Buffer.from(xml.slice(100, 5000)), xml.slice(5000)];
    const gz = await gzipFile(parts);
    expect(gz[0]).toBe(0x1f);
    expect(gz[1]).toBe(0x8b);
    expect(gunzipSync(gz).toString('utf8')).toBe(xml);
  });

  it('takes a single buffer as is', async () => {
    const buffer = Buffer.from(xml);
    expect(gunzipSync(await gzipFile([buffer])).equals(buffer)).toBe(true);
  });

  it('uses the configured level, and is deterministic', async () => {
    const best = await gzipFile([xml], { level: 9 });
    const fast = await gzipFile([xml], { level: 1 });
    expect(gunzipSync(best).toString()).toBe(xml);
    expect(best.length).toBeLessThan(fast.length);
    expect((await gzipFile([xml])).equals(await gzipFile([xml], { level: DEFAULT_GZIP_LEVEL }))).toBe(true);
    expect((await gzipFile([xml])).equals(await gzipFile([xml]))).toBe(true);
  });
});
