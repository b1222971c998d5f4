// @sitemaps/sitemap-xml: the one place that knows sitemap XML and the protocol's rules.
// Pure functions; no I/O beyond zlib, and reading its own schemas to validate against them.

export * from './sitemap-xml.types';
export { SitemapXmlError, type SitemapXmlErrorCode } from './sitemap-xml.errors';
export * from './limits';
export { escapeXml, findForbiddenChar } from './escape';
export { normalizeW3cDatetime, formatUtc, w3cInstant, type W3cDatetimeResult } from './w3c-datetime.rules';
export { normalizeHttpUrl, originOf, type HttpUrlResult } from './url.rules';
export {
  normalizeHreflang,
  normalizeNewsLanguage,
  normalizeCountryCode,
  validateHreflangCluster,
  type HreflangMember,
} from './hreflang.rules';
export { normalizeUrlEntry, roundPriority, type NormalizeOptions, type NormalizeResult } from './url-entry.rules';
export {
  Namespace,
  ALL_NAMESPACES,
  SITEMAP_NS,
  XHTML_NS,
  IMAGE_NS,
  VIDEO_NS,
  NEWS_NS,
  URLSET_CLOSE,
  urlsetOpen,
  urlsetOverheadBytes,
  XSL_STYLESHEET_FILE,
  xslStylesheetData,
  xslStylesheetPi,
} from './namespaces';
export {
  alternateLinkXml,
  renderUrlFragment,
  toUrlFragment,
  namespacesOf,
  withoutAlternates,
  type UrlFragment,
} from './url-fragment.writer';
export {
  assembleUrlset,
  packFragments,
  urlsetFiles,
  gzippedUrlsetFiles,
  UrlsetBuilder,
  renderUrlsetFiles,
  type FileLimits,
  type FileRange,
  type PackOptions,
  type UrlsetFile,
  type GzippedUrlsetFile,
} from './urlset.writer';
export { gzipFile, DEFAULT_GZIP_LEVEL, type GzipOptions } from './gzip';
export { renderSitemapIndex, type SitemapIndexEntry } from './sitemap-index.writer';
export { renderTextSitemap } from './text-sitemap.writer';
export * from './urlset-stream.writer';
export * from './urlset-slices.writer';
export {
  validateSitemapFile,
  validateSitemapSet,
  formatProblem,
  VALIDATION_RULES,
  type ValidationRule,
  type ValidationProblem,
  type FileReport,
  type SitemapSource,
  type ValidateOptions,
  type ValidateSetOptions,
} from './validate/sitemap.validator';
export * from './url-entry.schema';
export { SITEMAP_STYLESHEET } from './sitemap-stylesheet';
