// One POST of a signed event to a customer's URL, from inside the platform's network: the same
// address policy as sitemap imports (checked in the resolver hook the socket connects with, and
// for IP literals up front), no redirects followed (the spec counts a 3xx as a failure), and one
// deadline for the whole exchange.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { FetchRefusedError, guardedLookup, isPublicAddress, networkFailure } from '@sitemaps/ingest';
import { redactUrls } from '@sitemaps/observability';

export interface SendPolicy {
  allowPrivateAddresses: boolean;
  timeoutMs: number;
}

export interface SendResult {
  /** The answer's status; null when there was none (refused, unreachable, timed out). */
  status: number | null;
  latencyMs: number;
  /** Why it failed, for the delivery log the tenant reads: no addresses, no credentials. */
  error: string | null;
  /** The network's own words (addresses included), for the server's log only. */
  detail?: string;
  /** The answer's `Retry-After`, as sent; null without one. */
  retryAfter: string | null;
}

const USER_AGENT = 'sitemaps-platform-webhooks/1.0';
/** Of an answer's body, only the start is kept for the delivery log. */
const KEPT_BODY_BYTES = 256;

export class WebhookSender {
  constructor(private readonly policy: SendPolicy) {}

  async send(rawUrl: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return { status: null, latencyMs: 0, error: 'not a URL', retryAfter: null };
    }
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(literal) && !this.policy.allowPrivateAddresses && !isPublicAddress(literal)) {
      return {
        status: null,
        latencyMs: 0,
        error: `${literal} is a private, loopback or link-local address`,
        retryAfter: null,
      };
    }
    try {
      const { status, text, retryAfter } = await this.post(url, headers, body);
      const ok = status >= 200 && status < 300;
      return {
        status,
        latencyMs: elapsed(),
        error: ok ? null : `answered ${status}${text ? `: ${text}` : ''}`,
        retryAfter,
      };
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause;
      const refused =
        error instanceof FetchRefusedError ? error : cause instanceof FetchRefusedError ? cause : undefined;
      const detail = refused ? refused.detail : redactUrls((error as Error).message);
      return {
        status: null,
        latencyMs: elapsed(),
        error: refused ? refused.message : networkFailure(error),
        ...(detail ? { detail } : {}),
        retryAfter: null,
      };
    }
  }

  private post(
    url: URL,
    headers: Record<string, string>,
    body: string,
  ): Promise<{ status: number; text: string; retryAfter: string | null }> {
    return new Promise((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : undefined;
      if (!client) return reject(new Error(`${url.protocol} is not http or https`));
      const payload = Buffer.from(body);
      const request = client.request(url, {
        method: 'POST',
        agent: false,
        lookup: guardedLookup(this.policy),
        signal: AbortSignal.timeout(this.policy.timeoutMs),
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(payload.length),
          'user-agent': USER_AGENT,
        },
      });
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on('data', (chunk: Buffer) => {
          if (kept < KEPT_BODY_BYTES) chunks.push(chunk.subarray(0, KEPT_BODY_BYTES - kept));
          kept += chunk.length;
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8').trim(),
            retryAfter: response.headers['retry-after'] ?? null,
          }),
        );
        response.on('error', reject);
      });
      request.on('error', (error) =>
        reject(
          error.name === 'AbortError' || error.name === 'TimeoutError'
            ? new Error(`no answer within ${this.policy.timeoutMs} ms`)
            : error,
        ),
      );
      request.end(payload);
    });
  }
}
