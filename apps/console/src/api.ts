// The console's access to the admin API: the typed client of libs/client, same origin, with the
// key the tenant signed in with. The key lives in sessionStorage: gone when the tab closes.
import { createSitemapsClient, SitemapsApiError, unwrap, type Schemas, type SitemapsClient } from '@sitemaps/client';

export { SitemapsApiError, unwrap };
export type { Schemas };

const KEY_ITEM = 'sitemaps.apiKey';

export function storedKey(): string | null {
  return sessionStorage.getItem(KEY_ITEM);
}

export function storeKey(key: string | null): void {
  if (key === null) sessionStorage.removeItem(KEY_ITEM);
  else sessionStorage.setItem(KEY_ITEM, key);
}

export function clientFor(apiKey: string): SitemapsClient {
  return createSitemapsClient({ baseUrl: window.location.origin, apiKey });
}

/** `field` → message, from a VALIDATION_FAILED answer's details: shown on the form's fields. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof SitemapsApiError)) return {};
  const errors: Record<string, string> = {};
  for (const detail of error.details) {
    const field = detail.field ?? '';
    const line = detail.line === undefined ? '' : ` (line ${detail.line})`;
    errors[field] = errors[field] ? `${errors[field]}; ${detail.message}${line}` : `${detail.message}${line}`;
  }
  return errors;
}

export function messageOf(error: unknown): string {
  if (error instanceof SitemapsApiError) return `${error.message} (${error.code})`;
  return error instanceof Error ? error.message : String(error);
}

export interface UploadProgress {
  sent: number;
  total: number;
}

/**
 * An upload of an NDJSON or CSV file (gzipped or not). XMLHttpRequest, not fetch: only it
 * reports the bytes sent. The API answers when the import has finished.
 */
export function uploadUrls(upload: {
  apiKey: string;
  siteId: string;
  file: File;
  mode: 'upsert' | 'replace';
  onProgress(progress: UploadProgress): void;
}): Promise<Schemas['ImportResult']> {
  const { apiKey, siteId, file, mode, onProgress } = upload;
  const name = file.name.toLowerCase();
  const gzipped = name.endsWith('.gz');
  const format = name.replace(/\.gz$/, '').endsWith('.csv') ? 'csv' : 'ndjson';
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/v1/sites/${encodeURIComponent(siteId)}/urls/import?mode=${mode}&format=${format}`);
    xhr.setRequestHeader('authorization', `Bearer ${apiKey}`);
    xhr.setRequestHeader('content-type', format === 'csv' ? 'text/csv' : 'application/x-ndjson');
    if (gzipped) xhr.setRequestHeader('content-encoding', 'gzip');
    xhr.upload.onprogress = (event) =>
      onProgress({ sent: event.loaded, total: event.lengthComputable ? event.total : file.size });
    xhr.onerror = () => reject(new SitemapsApiError(0, 'UNREACHABLE', 'the upload was interrupted'));
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON: reported by status below.
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(body as Schemas['ImportResult']);
      const error = (body as Partial<Schemas['Error']> | null)?.error;
      reject(
        new SitemapsApiError(
          xhr.status,
          error?.code ?? `HTTP_${xhr.status}`,
          error?.message ?? xhr.statusText,
          error?.details ?? [],
        ),
      );
    };
    xhr.send(file);
  });
}
