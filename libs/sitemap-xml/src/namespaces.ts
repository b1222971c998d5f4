// A file declares only the extension namespaces its fragments use, so a plain sitemap
// stays plain. Fragments carry their needs as a bitmask; a file's header is chosen by the
// OR of its fragments' masks.

export const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
export const XHTML_NS = 'http://www.w3.org/1999/xhtml';
export const IMAGE_NS = 'http://www.google.com/schemas/sitemap-image/1.1';
export const VIDEO_NS = 'http://www.google.com/schemas/sitemap-video/1.1';
export const NEWS_NS = 'http://www.google.com/schemas/sitemap-news/0.9';

/** Bits of a namespace mask. */
export const Namespace = {
  XHTML: 1,
  IMAGE: 2,
  VIDEO: 4,
  NEWS: 8,
} as const;
export const ALL_NAMESPACES = 15;

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
export const URLSET_CLOSE = '</urlset>\n';

/**
 * Where a browser finds the stylesheet that shows a sitemap as a table (the public server's
 * /sitemap.xsl). A processing instruction: the XSDs, which constrain elements only, and crawlers
 * ignore it. Written after the declaration, before the root element.
 */
export const XSL_STYLESHEET_PATH = '/sitemap.xsl';
export const XSL_STYLESHEET_PI = `<?xml-stylesheet type="text/xsl" href="${XSL_STYLESHEET_PATH}"?>\n`;

const openings = (prolog: string): readonly string[] =>
  Array.from({ length: ALL_NAMESPACES + 1 }, (_, mask) => {
    let open = `${prolog}<urlset xmlns="${SITEMAP_NS}"`;
    if (mask & Namespace.XHTML) open += ` xmlns:xhtml="${XHTML_NS}"`;
    if (mask & Namespace.IMAGE) open += ` xmlns:image="${IMAGE_NS}"`;
    if (mask & Namespace.VIDEO) open += ` xmlns:video="${VIDEO_NS}"`;
    if (mask & Namespace.NEWS) open += ` xmlns:news="${NEWS_NS}"`;
    return open + '>';
  });
const OPENINGS = openings(XML_DECLARATION);
const STYLED_OPENINGS = openings(XML_DECLARATION + XSL_STYLESHEET_PI);

/** XML declaration (and the stylesheet's PI) and `<urlset …>` declaring the sitemap namespace plus those in `mask`. */
export function urlsetOpen(mask: number, stylesheet = false): string {
  return (stylesheet ? STYLED_OPENINGS : OPENINGS)[mask & ALL_NAMESPACES]!;
}

/** Bytes a file spends on header and footer for `mask` (all ASCII, so length = bytes). */
export function urlsetOverheadBytes(mask: number = ALL_NAMESPACES): number {
  return urlsetOpen(mask).length + URLSET_CLOSE.length;
}
