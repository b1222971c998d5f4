// Errors the writers throw. Input problems in raw entries are *returned* as
// RuleViolations by `normalizeUrlEntry`; these are for writer input that should never
// have got this far (a limit overrun, a forbidden character in a hand-built SitemapUrl),
// so the caller fails loudly instead of publishing a broken or truncated file.

export type SitemapXmlErrorCode =
  | 'FILE_URL_LIMIT'
  | 'FILE_BYTE_LIMIT'
  | 'FRAGMENT_TOO_LARGE'
  | 'FRAGMENT_BYTES_MISMATCH'
  | 'INDEX_ENTRY_LIMIT'
  | 'NESTED_INDEX'
  | 'EMPTY_FILE'
  | 'BUILDER_BUSY'
  | 'INVALID_CHARACTER'
  | 'INVALID_VALUE'
  | 'INVALID_URL'
  | 'INVALID_ORIGIN';

export class SitemapXmlError extends Error {
  override readonly name = 'SitemapXmlError';

  constructor(
    readonly code: SitemapXmlErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
