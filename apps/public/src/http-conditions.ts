// The few pieces of HTTP semantics the public server needs (RFC 9110), kept small and explicit.

/** Whether `Accept-Encoding` admits gzip (`gzip`, `x-gzip` or `*` with a non-zero q). */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let wildcard = false;
  for (const part of header.split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((param) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    const accepted = q === undefined || Number(q) > 0;
    if (coding.trim() === 'gzip' || coding.trim() === 'x-gzip') return accepted;
    if (coding.trim() === '*') wildcard = accepted;
  }
  return wildcard;
}

/**
 * If-None-Match wins over If-Modified-Since when both are sent. ETags compare weakly, as RFC 9110
 * requires for If-None-Match; dates at one-second precision, as HTTP dates carry. Without a
 * Last-Modified (null), only If-None-Match can match.
 */
export function isNotModified(
  headers: { 'if-none-match'?: string; 'if-modified-since'?: string },
  etag: string,
  lastModified: Date | null,
): boolean {
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    // What a client sends back almost always: the tag itself.
    if (ifNoneMatch === etag) return true;
    const opaque = etag.replace(/^W\//, '');
    return ifNoneMatch.split(',').some((tag) => {
      const candidate = tag.trim();
      return candidate === '*' || candidate.replace(/^W\//, '') === opaque;
    });
  }
  const ifModifiedSince = headers['if-modified-since'];
  if (ifModifiedSince === undefined || lastModified === null) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}
