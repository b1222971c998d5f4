import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { Namespace, urlsetOpen, URLSET_CLOSE } from './namespaces';
import { gzipUrlsetStream } from './urlset-stream.writer';

async function* blocks(...parts: string[]) {
  for (const part of parts) yield Buffer.from(part);
}

describe('gzipUrlsetStream', () => {
  const a = '<url><loc>https://a.com/1</loc></url>';
  const b = '<url><loc>https://a.com/ü</loc></url>';
  const bytes = Buffer.byteLength(a + b);

  it('wraps the streamed body in the header for its namespaces and the footer', async () => {
    const { gzip, byteSize } = await gzipUrlsetStream(blocks(a, b), { urls: 2, bytes, mask: Namespace.IMAGE });
    const xml = gunzipSync(gzip).toString();
    expect(xml).toBe(`${urlsetOpen(Namespace.IMAGE)}${a}${b}${URLSET_CLOSE}`);
    expect(byteSize).toBe(Buffer.byteLength(xml));
  });

  it('enforces the limits before writing and the stated length after', async () => {
    await expect(gzipUrlsetStream(blocks(a), { urls: 50_001, bytes, mask: 0 })).rejects.toMatchObject({
      code: 'FILE_URL_LIMIT',
    });
    await expect(gzipUrlsetStream(blocks(a), { urls: 1, bytes: 52_428_800, mask: 0 })).rejects.toMatchObject({
      code: 'FILE_BYTE_LIMIT',
    });
    await expect(gzipUrlsetStream(blocks(a), { urls: 2, bytes, mask: 0 })).rejects.toMatchObject({
      code: 'FRAGMENT_BYTES_MISMATCH',
    });
    await expect(gzipUrlsetStream(blocks(), { urls: 0, bytes: 0, mask: 0 })).rejects.toMatchObject({
      code: 'EMPTY_FILE',
    });
  });
});
