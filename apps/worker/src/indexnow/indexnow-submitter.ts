// One IndexNow request: the batch's URLs, re-read from the window the drain fixed, POSTed to one
// endpoint. Every attempt's outcome is appended to the build; the answer decides whether BullMQ
// retries (429, 5xx, network) or gives up (400, 403, 422: resending the same body cannot help).
import { UnrecoverableError } from 'bullmq';
import type { Pool } from 'pg';
import type { SubmitIndexNowPayload } from '@sitemaps/jobs';
import { INDEXNOW_MAX_URLS, IndexNowRetryableError, parseRetryAfter, URL_HOST_SQL } from './indexnow.policy';

/** What `builds.indexnow` holds: one entry per request made. */
export interface IndexNowResult {
  at: string;
  endpoint: string;
  host: string;
  batch: number;
  urlCount: number;
  attempt: number;
  /** HTTP status, or null when no response came (network error, timeout). */
  status: number | null;
  error?: string;
}

const REQUEST_TIMEOUT_MS = 30_000;

export class IndexNowSubmitter {
  constructor(private readonly pool: Pool) {}

  async submit(payload: SubmitIndexNowPayload, attempt: number): Promise<IndexNowResult | null> {
    const site = await this.pool.query<{ scheme: string; key: string }>(
      'SELECT scheme, indexnow_key AS key FROM sites WHERE id = $1',
      [payload.siteId],
    );
    const key = site.rows[0];
    if (!key) return null; // deleted with its site
    const { rows } = await this.pool.query<{ loc: string }>(
      `SELECT loc FROM urls
        WHERE site_id = $1 AND id BETWEEN $2 AND $3 AND ($4::timestamptz IS NULL OR updated_at > $4) AND updated_at <= $5
          AND ${URL_HOST_SQL} = $6
        ORDER BY id LIMIT ${INDEXNOW_MAX_URLS}`,
      [payload.siteId, payload.firstId, payload.lastId, payload.from, payload.until, payload.host],
    );
    // Changed again since the drain: those URLs belong to the next publish's window.
    if (rows.length === 0) return null;

    const body = {
      host: payload.host,
      key: key.key,
      keyLocation: `${key.scheme}://${payload.host}/${key.key}.txt`,
      urlList: rows.map((row) => row.loc),
    };
    const result: IndexNowResult = {
      at: new Date().toISOString(),
      endpoint: redact(payload.endpoint),
      host: payload.host,
      batch: payload.batch,
      urlCount: rows.length,
      attempt,
      status: null,
    };
    let response: Response;
    try {
      response = await fetch(payload.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'sitemaps-platform' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      result.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      await this.record(payload.buildId, result);
      throw new IndexNowRetryableError(`IndexNow ${result.endpoint}: ${result.error}`, null);
    }
    result.status = response.status;
    const text = await response.text().catch(() => '');
    if (!response.ok) result.error = text.trim().slice(0, 200) || response.statusText || `HTTP ${response.status}`;
    await this.record(payload.buildId, result);

    if (response.ok) return result;
    const message = `IndexNow ${result.endpoint} answered ${response.status}`;
    if (response.status === 429 || response.status === 408 || response.status >= 500) {
      throw new IndexNowRetryableError(message, parseRetryAfter(response.headers.get('retry-after')));
    }
    // 400 bad request, 403 key not valid, 422 URLs or key do not match the host, and any other
    // answer the protocol does not define: the same body would get the same answer.
    throw new UnrecoverableError(message);
  }

  /** jsonb concatenation in one statement: concurrent batches append without losing each other. */
  private async record(buildId: string, result: IndexNowResult): Promise<void> {
    await this.pool.query(
      `UPDATE builds SET indexnow = coalesce(indexnow, '[]'::jsonb) || jsonb_build_array($2::jsonb) WHERE id = $1`,
      [buildId, JSON.stringify(result)],
    );
  }
}

/** Results are shown to the site's tenant: never credentials an endpoint URL might carry. */
function redact(endpoint: string): string {
  const url = new URL(endpoint);
  url.username = '';
  url.password = '';
  return url.toString();
}
