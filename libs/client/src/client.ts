// The typed client of the admin API: openapi-fetch over the types generated from the API's
// OpenAPI document (generated/api.ts). Every path, parameter, body and response is typed:
//
//   const api = createSitemapsClient({ baseUrl, apiKey });
//   const site = await unwrap(api.POST('/v1/sites', { body: { hostname: 'shop.example.com' } }));
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './generated/api';

export type { components, operations, paths } from './generated/api';
export type Schemas = components['schemas'];
export type SitemapsClient = Client<paths>;

export interface ClientOptions {
  /** The API's origin: `http://127.0.0.1:3000`. */
  baseUrl: string;
  apiKey?: string;
  fetch?: typeof globalThis.fetch;
  userAgent?: string;
  /** Sent with every request: a console session's X-CSRF-Token and X-Tenant-Id. */
  headers?: Record<string, string>;
}

export function createSitemapsClient(options: ClientOptions): SitemapsClient {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  if (options.userAgent) headers['user-agent'] = options.userAgent;
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}

/** An answer of the API outside 2xx, in its one error shape; `status` 0: the API could not be reached. */
export class SitemapsApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Schemas['ErrorDetail'][] = [],
  ) {
    super(message);
    this.name = 'SitemapsApiError';
  }
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The body of a 2xx answer, or a SitemapsApiError carrying the API's code and details. */
export async function unwrap<T>(call: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await call;
  } catch (error) {
    const cause =
      error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    throw new SitemapsApiError(0, 'UNREACHABLE', `the API could not be reached: ${cause}`);
  }
  const { data, error, response } = answer;
  if (response.ok) return data as T;
  const body = (error ?? {}) as Partial<Schemas['Error']>;
  throw new SitemapsApiError(
    response.status,
    body.error?.code ?? `HTTP_${response.status}`,
    body.error?.message ?? `${response.status} ${response.statusText}`,
    body.error?.details ?? [],
  );
}
