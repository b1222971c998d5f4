import { SitemapXmlError } from './sitemap-xml.errors';

// XML 1.0 `Char`: tab, LF, CR, U+0020–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF. Everything
// else (other C0 controls, lone surrogates, U+FFFE/U+FFFF) makes the file not XML at all.
const FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- the C0 controls XML 1.0 forbids are what this finds
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Index of the first character XML 1.0 forbids, or -1. */
export function findForbiddenChar(value: string): number {
  const match = FORBIDDEN.exec(value);
  return match ? match.index : -1;
}

export function describeChar(value: string, index: number): string {
  const code = value.charCodeAt(index);
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')} at position ${index}`;
}

// One test decides the common case (nothing to do) so clean strings cost one regex scan
// and no allocation. Surrogates are in the class so pairs are checked in the slow path.
// eslint-disable-next-line no-control-regex -- C0 controls are escaped or refused, so they need work
const NEEDS_WORK = /[&<>"'\u0000-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/**
 * Escapes text or attribute content: the five entities the protocol names, plus tab, LF
 * and CR as character references (attribute-value normalization would turn them into
 * spaces, and parsers fold a literal CR into LF). Throws INVALID_CHARACTER rather than
 * emit a character no XML parser accepts.
 */
export function escapeXml(value: string): string {
  return NEEDS_WORK.test(value) ? escapeSlow(value) : value;
}

function escapeSlow(value: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    let replacement: string;
    switch (code) {
      case 0x26:
        replacement = '&amp;';
        break;
      case 0x3c:
        replacement = '&lt;';
        break;
      case 0x3e:
        replacement = '&gt;';
        break;
      case 0x22:
        replacement = '&quot;';
        break;
      case 0x27:
        replacement = '&apos;';
        break;
      case 0x09:
        replacement = '&#9;';
        break;
      case 0x0a:
        replacement = '&#10;';
        break;
      case 0x0d:
        replacement = '&#13;';
        break;
      default:
        if (code >= 0xd800 && code <= 0xdbff) {
          const next = value.charCodeAt(i + 1);
          if (next >= 0xdc00 && next <= 0xdfff) {
            i++;
            continue;
          }
          throw forbidden(value, i);
        }
        if (code < 0x20 || (code >= 0xdc00 && code <= 0xdfff) || code === 0xfffe || code === 0xffff) {
          throw forbidden(value, i);
        }
        continue;
    }
    out += value.slice(last, i) + replacement;
    last = i + 1;
  }
  return last === 0 ? value : out + value.slice(last);
}

function forbidden(value: string, index: number): SitemapXmlError {
  return new SitemapXmlError('INVALID_CHARACTER', `XML 1.0 forbids ${describeChar(value, index)}`, { index });
}
