// One IndexNow request: the batch's URLs, re-read from the window the drain fixed, POSTed to one
// endpoint. Every attempt's outcome is appended to the build; the answer decides whether BullMQ
// retries (429, 5xx, network) or gives up (400, 403, 422: resending the same body cannot help).
import { UnrecoverableError } from 'bullmq';
import type { IndexNowRepository, IndexNowResult } from '@sitemaps/data';
import type { SubmitIndexNowPayload } from '@sitemaps/jobs';
import { INDEXNOW_MAX_URLS, IndexNowRetryableError, parseRetryAfter } from './indexnow.policy';

export type { IndexNowResult } from '@sitemaps/data';

const REQUEST_TIMEOUT_MS = 30_000;

export class IndexNowSubmitter {
  constructor(private readonly indexNow: IndexNowRepository) {}

  async submit(payload: SubmitIndexNowPayload, attempt: number): Promise<IndexNowResult | null> {
    const key = await this.indexNow.siteKey(payload.siteId);
    if (!key) return null; // deleted with its site
    const locs = await this.indexNow.changedLocs({ ...payload, limit: INDEXNOW_MAX_URLS });
    // Changed again since the drain: those URLs belong to the next publish's window.
    if (locs.length === 0) return null;

    const body = {
      host: payload.host,
      key: key.key,
      keyLocation: `${key.scheme}://${payload.host}/${key.key}.txt`,
      urlList: locs,
    };
    const result: IndexNowResult = {
      at: new Date().toISOString(),
      endpoint: redact(payload.endpoint),
      host: payload.host,
      batch: payload.batch,
      urlCount: locs.length,
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
      await this.indexNow.recordResult(payload.buildId, result);
      throw new IndexNowRetryableError(`IndexNow ${result.endpoint}: ${result.error}`, null);
    }
    result.status = response.status;
    const text = await response.text().catch(() => '');
    if (!response.ok) result.error = text.trim().slice(0, 200) || response.statusText || `HTTP ${response.status}`;
    await this.indexNow.recordResult(payload.buildId, result);

    if (response.ok) return result;
    const message = `IndexNow ${result.endpoint} answered ${response.status}`;
    if (response.status === 429 || response.status === 408 || response.status >= 500) {
      throw new IndexNowRetryableError(message, parseRetryAfter(response.headers.get('retry-after')));
    }
    // 400 bad request, 403 key not valid, 422 URLs or key do not match the host, and any other
    // answer the protocol does not define: the same body would get the same answer.
    throw new UnrecoverableError(message);
  }
}

/** Results are shown to the site's tenant: never credentials an endpoint URL might carry. */
function redact(endpoint: string): string {
  const url = new URL(endpoint);
  url.username = '';
  url.password = '';
  return url.toString();
}
