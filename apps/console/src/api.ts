// The console's access to the admin API: the typed client of libs/client, same origin, as a
// person (the HttpOnly session cookie the browser sends by itself, with the session's CSRF token
// and the tenant they act in) or with a tenant's API key, kept in sessionStorage: gone when the
// tab closes.
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

/** How requests authenticate: a key, or a person's session acting in one of their tenants. */
export type Credentials = { apiKey: string } | { csrfToken: string; tenantId: string | undefined };

export function authHeaders(credentials: Credentials): Record<string, string> {
  if ('apiKey' in credentials) return { authorization: `Bearer ${credentials.apiKey}` };
  return {
    'x-csrf-token': credentials.csrfToken,
    ...(credentials.tenantId ? { 'x-tenant-id': credentials.tenantId } : {}),
  };
}

export function clientFor(credentials: Credentials | string): SitemapsClient {
  const headers = authHeaders(typeof credentials === 'string' ? { apiKey: credentials } : credentials);
  return createSitemapsClient({ baseUrl: window.location.origin, headers });
}

const SIGNED_IN_ITEM = 'sitemaps.signedIn';
const TENANT_ITEM = 'sitemaps.tenantId';

/** Whether this browser signed a person in: only then is the session asked for (no 401 on a first visit). */
export function hasSession(): boolean {
  return localStorage.getItem(SIGNED_IN_ITEM) === '1';
}

export function rememberSession(signedIn: boolean): void {
  if (signedIn) localStorage.setItem(SIGNED_IN_ITEM, '1');
  else localStorage.removeItem(SIGNED_IN_ITEM);
}

export function storedTenant(): string | null {
  return sessionStorage.getItem(TENANT_ITEM);
}

export function storeTenant(tenantId: string): void {
  sessionStorage.setItem(TENANT_ITEM, tenantId);
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
  credentials: Credentials;
  siteId: string;
  file: File;
  mode: 'upsert' | 'replace';
  onProgress(progress: UploadProgress): void;
}): Promise<Schemas['ImportResult']> {
  const { credentials, siteId, file, mode, onProgress } = upload;
  const name = file.name.toLowerCase();
  const gzipped = name.endsWith('.gz');
  const format = name.replace(/\.gz$/, '').endsWith('.csv') ? 'csv' : 'ndjson';
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/v1/sites/${encodeURIComponent(siteId)}/urls/import?mode=${mode}&format=${format}`);
    for (const [name, value] of Object.entries(authHeaders(credentials))) xhr.setRequestHeader(name, value);
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
