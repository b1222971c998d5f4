import { SitemapXmlError } from './sitemap-xml.errors';

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
 * The stylesheet that shows a sitemap as a table, served beside the index at the root of a site
 * (the public server's `sitemap.xsl`). A file names it with a processing instruction: the XSDs,
 * which constrain elements only, and crawlers ignore it. Written after the declaration, before
 * the root element.
 */
export const XSL_STYLESHEET_FILE = 'sitemap.xsl';

/** What an href may hold: it is written into the PI as is, and headers are written as latin1. */
const STYLESHEET_HREF = /^[A-Za-z0-9._/-]+$/;

/** The stylesheet PI's data, `type="text/xsl" href="…"`, for an href relative to the file (domain: stylesheetHref). */
export function xslStylesheetData(href: string): string {
  if (!STYLESHEET_HREF.test(href))
    throw new SitemapXmlError('INVALID_VALUE', `stylesheet href "${href}" must be a plain relative or absolute path`);
  return `type="text/xsl" href="${href}"`;
}

/** `<?xml-stylesheet type="text/xsl" href="…"?>` and its newline. */
export function xslStylesheetPi(href: string): string {
  return `<?xml-stylesheet ${xslStylesheetData(href)}?>\n`;
}

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
/** Per stylesheet href: a platform uses one or two (a file's depth decides it). */
const STYLED_OPENINGS = new Map<string, readonly string[]>();

/**
 * XML declaration, the stylesheet's PI when `stylesheetHref` is given, and `<urlset …>`
 * declaring the sitemap namespace plus those in `mask`.
 */
export function urlsetOpen(mask: number, stylesheetHref?: string | null): string {
  if (!stylesheetHref) return OPENINGS[mask & ALL_NAMESPACES]!;
  let styled = STYLED_OPENINGS.get(stylesheetHref);
  if (!styled)
    STYLED_OPENINGS.set(stylesheetHref, (styled = openings(XML_DECLARATION + xslStylesheetPi(stylesheetHref))));
  return styled[mask & ALL_NAMESPACES]!;
}

/** Bytes a file spends on header and footer for `mask` (all ASCII, so length = bytes). */
export function urlsetOverheadBytes(mask: number = ALL_NAMESPACES): number {
  return urlsetOpen(mask).length + URLSET_CLOSE.length;
}
