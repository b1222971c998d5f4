// The admin API as production starts it (apps/api/src/main.ts): a process of its own with the
// production heap flags, so a test can see it survive (or not) what would exhaust that heap, and
// read its resident memory.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { APP_NODE_FLAGS, childProcessEnv, developmentSiteVerification } from '@sitemaps/config';
import { freePort, waitFor } from '@sitemaps/local-services';

const ROOT = path.resolve(__dirname, '../..');

export interface ApiProcess {
  child: ChildProcess;
  url: string;
  /** What it printed so far (stdout and stderr). */
  output(): string;
  /** Resident set size now, from /proc. */
  rssBytes(): number;
  stop(): Promise<void>;
}

export async function spawnApi(
  env: Record<string, string>,
  opts: { startTimeoutMs?: number } = {},
): Promise<ApiProcess> {
  const startTimeoutMs = opts.startTimeoutMs ?? 60_000;
  const port = await freePort();
  const child = spawn(process.execPath, [...APP_NODE_FLAGS.api, '-r', '@swc-node/register', 'apps/api/src/main.ts'], {
    cwd: ROOT,
    env: childProcessEnv({
      SITE_VERIFICATION: developmentSiteVerification(),
      ...env,
      API_PORT: String(port),
      API_HOST: '127.0.0.1',
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const alive = () => child.exitCode === null && child.signalCode === null;
  try {
    await waitFor(
      async () => {
        if (!alive()) throw new Error(`the API exited while starting:\n${output}`);
        return (await fetch(`${url}/health`).catch(() => undefined))?.status === 200;
      },
      startTimeoutMs,
      `the API did not answer /health within ${startTimeoutMs / 1000} s:\n${output}`,
    );
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    throw error;
  }
  return {
    child,
    url,
    output: () => output,
    rssBytes: () =>
      Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024,
    async stop() {
      if (alive()) child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * Sends a body with node:http and resolves with the answer even when the server answers before
 * it has read the body and closes the connection (fetch reports that as a failed request).
 */
export function sendRaw(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: Buffer | string,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(
      url,
      { method, headers: { 'content-length': String(Buffer.byteLength(body)), ...headers } },
      (response) => {
        answered = true;
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
        response.on('error', reject);
      },
    );
    // Writing into a connection the server closed after answering: the answer is what counts.
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') return reject(error);
      // The answer may still be in the socket's buffer; if none comes, the reset is the answer.
      setTimeout(() => answered || reject(new Error(`${method} ${url}: ${error.code} with no answer`)), 2_000).unref();
    });
    request.end(body);
  });
}
