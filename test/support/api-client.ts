// A thin REST client for tests: what a customer's system would send.
// The file, not the lib's index: the fault soak's script imports this outside vitest.
import { waitUntil } from '@sitemaps/testing/src/wait-until';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export function apiClient(baseUrl: string, key?: string) {
  const call = async <T = any>(
    method: string,
    path: string,
    body?: unknown,
    init: { raw?: string; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body !== undefined || init.raw !== undefined ? { 'content-type': 'application/json' } : {}),
        ...init.headers,
      },
      body: init.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await response.text();
    // A stream of lines (an export) stays text: only a JSON answer is one document.
    const json = text && !/ndjson/.test(response.headers.get('content-type') ?? '');
    return {
      status: response.status,
      body: (json ? JSON.parse(text) : text || undefined) as T,
      headers: response.headers,
    };
  };
  return {
    call,
    get: <T = any>(path: string) => call<T>('GET', path),
    post: <T = any>(path: string, body?: unknown) => call<T>('POST', path, body),
    put: <T = any>(path: string, body?: unknown) => call<T>('PUT', path, body),
    patch: <T = any>(path: string, body?: unknown) => call<T>('PATCH', path, body),
    delete: <T = any>(path: string, body?: unknown) => call<T>('DELETE', path, body),
    /** Polls a build until it leaves queued/running; the deadline fails the test instead of hanging. */
    waitForBuild(siteId: string, buildId: string, timeoutMs = 120_000): Promise<any> {
      return waitUntil(
        `build ${buildId} to publish or fail`,
        async (seen) => {
          const { body } = await call('GET', `/v1/sites/${siteId}/builds/${buildId}`);
          seen(body.status);
          return body.status === 'published' || body.status === 'failed' ? body : undefined;
        },
        { timeoutMs },
      );
    },
  };
}
