// A request with a Host header of our choosing: Node's fetch drops `host`, which is exactly
// what the public server routes on. Sends the path as given (a URL would be normalised).
import http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export function rawRequest(
  baseUrl: string,
  rawPath: string,
  opts: {
    host?: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    /** The address to connect from, e.g. `127.0.0.2`: a second client on loopback (Linux routes all of 127/8 there). */
    localAddress?: string;
  } = {},
): Promise<RawResponse> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: base.hostname,
        port: base.port,
        path: rawPath,
        method: opts.method ?? 'GET',
        headers: { ...(opts.host ? { host: opts.host } : {}), ...opts.headers },
        ...(opts.localAddress ? { localAddress: opts.localAddress } : {}),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(opts.body);
  });
}
