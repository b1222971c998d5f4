import { invalid, type ErrorDetail } from '../domain.errors';

/** Google reads the first 500 KiB of a robots.txt. */
export const MAX_ROBOTS_TXT_BYTES = 500 * 1024;
const STANDARD = new Set(['user-agent', 'allow', 'disallow', 'sitemap', 'crawl-delay']);
/** Recognised by some engines only (Yandex); written only when the site asks for them. */
const NON_STANDARD = new Set(['host', 'clean-param']);

/**
 * A site's own robots.txt rules, as stored: every line a comment, a blank or a known
 * `field: value` directive. Returns the text with LF line endings and a final newline.
 */
export function validateRobotsTxt(text: string, opts: { allowNonStandard?: boolean } = {}): string {
  if (Buffer.byteLength(text) > MAX_ROBOTS_TXT_BYTES) {
    throw invalid('INVALID_ROBOTS_TXT', 'robots.txt is larger than 500 KiB, which crawlers truncate', [
      { field: 'robotsTxt', message: 'too large' },
    ]);
  }
  const lines = text.replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n');
  const details: ErrorDetail[] = [];
  lines.forEach((line, index) => {
    const content = line.replace(/#.*$/, '').trim();
    if (content === '') return;
    const match = /^([A-Za-z-]+)\s*:(.*)$/.exec(content);
    const field = match?.[1]?.toLowerCase();
    if (!field || !(STANDARD.has(field) || (opts.allowNonStandard && NON_STANDARD.has(field)))) {
      details.push({
        field: 'robotsTxt',
        line: index + 1,
        message: `line ${index + 1} is not a robots.txt directive (${[...STANDARD].join(', ')})`,
      });
    }
  });
  if (details.length > 0)
    throw invalid('INVALID_ROBOTS_TXT', 'robots.txt has lines crawlers would not understand', details);
  return `${lines.join('\n')}\n`;
}
