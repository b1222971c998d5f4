// Which encoding a fetched XML document is in, as XML 1.0 (appendix F) finds it: a byte order
// mark, else the first bytes of `<?xml` in UTF-16, else the declaration's `encoding`, else UTF-8.
// The bytes are then decoded with the WHATWG decoder Node ships (full ICU: windows-1252,
// ISO-8859-x, UTF-16, Shift_JIS, …), instead of reading them as UTF-8 and turning every byte
// that is not into U+FFFD.

/** Bytes enough to hold a BOM and an XML declaration. */
export const ENCODING_SNIFF_BYTES = 1024;

const DECLARED = /^<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._:-]*)["']/;

export class UnsupportedEncodingError extends Error {
  readonly code = 'UNSUPPORTED_ENCODING';
}

/** The WHATWG name of the document's encoding (`utf-8`, `windows-1252`, `utf-16le`, …). */
export function sniffXmlEncoding(head: Uint8Array): string {
  const [a, b, c, d] = head;
  if (a === 0xef && b === 0xbb && c === 0xbf) return 'utf-8';
  if (a === 0xff && b === 0xfe) return 'utf-16le';
  if (a === 0xfe && b === 0xff) return 'utf-16be';
  if (a === 0x3c && b === 0x00 && c === 0x3f && d === 0x00) return 'utf-16le';
  if (a === 0x00 && b === 0x3c && c === 0x00 && d === 0x3f) return 'utf-16be';
  const declared = DECLARED.exec(Buffer.from(head.subarray(0, ENCODING_SNIFF_BYTES)).toString('latin1'))?.[1];
  if (declared === undefined) return 'utf-8';
  let encoding: string;
  try {
    encoding = new TextDecoder(declared).encoding;
  } catch {
    throw new UnsupportedEncodingError(
      `the XML declaration names encoding "${declared}", which is not one we can read`,
    );
  }
  // A declaration read as ASCII cannot be UTF-16 (those files start with a BOM or `<\0?\0`).
  return encoding === 'utf-16le' || encoding === 'utf-16be' ? 'utf-8' : encoding;
}

/** A streaming decoder for `encoding`; a BOM is dropped. */
export function xmlTextDecoder(encoding: string): { write(chunk: Uint8Array): string; end(): string } {
  const decoder = new TextDecoder(encoding);
  return {
    write: (chunk) => decoder.decode(chunk, { stream: true }),
    end: () => decoder.decode(),
  };
}
