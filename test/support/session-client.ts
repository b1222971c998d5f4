// A browser's view of the API for tests: a person's session cookie, the CSRF token that goes with
// it, and the tenant they act in (X-Tenant-Id), as the console sends them.
import { apiClient, type ApiResponse } from './api-client';

export interface SessionClient {
  call<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse<T>>;
  get<T = any>(path: string): Promise<ApiResponse<T>>;
  post<T = any>(path: string, body?: unknown): Promise<ApiResponse<T>>;
  delete<T = any>(path: string): Promise<ApiResponse<T>>;
  /** Acts in this tenant from now on (undefined: none). */
  actIn(tenantId: string | undefined): void;
  cookie: string;
  csrfToken: string;
}

/** The session cookie of a sign-in's or an acceptance's answer, checked for its attributes. */
export function sessionCookieOf(res: ApiResponse): string {
  const header = res.headers.get('set-cookie') ?? '';
  const match = /^(sitemaps_session=[^;]+)/.exec(header);
  if (!match?.[1]) throw new Error(`no session cookie in ${res.status} ${JSON.stringify(res.body)}: ${header}`);
  return match[1];
}

export function sessionClient(baseUrl: string, signedIn: ApiResponse, tenantId?: string): SessionClient {
  const raw = apiClient(baseUrl);
  let tenant = tenantId;
  const client: SessionClient = {
    cookie: sessionCookieOf(signedIn),
    csrfToken: signedIn.body.csrfToken as string,
    call: (method, path, body, headers = {}) =>
      raw.call(method, path, body, {
        headers: {
          cookie: client.cookie,
          'x-csrf-token': client.csrfToken,
          ...(tenant ? { 'x-tenant-id': tenant } : {}),
          ...headers,
        },
      }),
    get: (path) => client.call('GET', path),
    post: (path, body) => client.call('POST', path, body),
    delete: (path) => client.call('DELETE', path),
    actIn: (id) => {
      tenant = id;
    },
  };
  return client;
}
