import { SitemapXmlError } from '../sitemap-xml.errors';

/** The SitemapXmlError code `fn` throws, or undefined when it returns; other errors propagate. */
export function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof SitemapXmlError) return error.code;
    throw error;
  }
  return undefined;
}
