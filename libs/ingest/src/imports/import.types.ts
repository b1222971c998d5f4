export type ImportMode = 'upsert' | 'replace';
export type ImportSource = 'upload' | 'sitemaps';
export type ImportFormat = 'ndjson' | 'csv' | 'sitemap';
export type ImportStatus = 'queued' | 'running' | 'completed' | 'failed';

/** Why a line (or a sitemap file) was not stored; or, as a warning, what was repaired in a line that was. */
export interface ImportIssue {
  code: string;
  field: string;
  message: string;
}

/**
 * One unit a reader hands the import: a parsed entry, a line that could not be parsed, or a
 * line that carries nothing (blank, or a CSV header) but still counts as read.
 */
export type ImportItem =
  /** `warnings`: what the reader already repaired (an unknown spelling left unset, …). */
  | { line: number; entry: unknown; source?: string; warnings?: ImportIssue[] }
  | { line: number; issue: ImportIssue; source?: string }
  /** A warning about the file, not about a line (counted as a warning, not as a line read). */
  | { line: number; notice: ImportIssue; source?: string }
  | { line: number; blank: true };

export interface ImportProgress {
  id: string;
  status: ImportStatus;
  mode: ImportMode;
  linesRead: number;
  stored: number;
  rejected: number;
  /** Repairs made to stored lines (sitemaps imports). */
  warnings: number;
  changed: number;
  deleted: number;
  error: string | null;
}
