// The public server as production starts it (apps/public/src/main.ts), in a process of its own,
// so PUBLIC_WORKERS can fork a cluster. Its JSON log lines are parsed as they arrive and can be
// awaited: the access log's `pid` tells which worker process answered a request.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { APP_NODE_FLAGS, childProcessEnv, developmentSiteVerification } from '@sitemaps/config';

const ROOT = path.resolve(__dirname, '../..');

export interface LogLine {
  pid: number;
  msg: string;
  [field: string]: unknown;
}

export interface PublicProcess {
  child: ChildProcess;
  url: string;
  lines: LogLine[];
  /** Resolves with the first line, logged so far or from now on, that matches. */
  waitForLine(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
}

export async function spawnPublic(
  env: Record<string, string>,
  opts: { startTimeoutMs?: number } = {},
): Promise<PublicProcess> {
  const child = spawn(
    process.execPath,
    [...APP_NODE_FLAGS.public, '-r', '@swc-node/register', 'apps/public/src/main.ts'],
    {
      cwd: ROOT,
      // Info: the access log is how a test sees which process answered.
      env: childProcessEnv({
        SITE_VERIFICATION: developmentSiteVerification(),
        PUBLIC_PORT: '0',
        PUBLIC_HOST: '127.0.0.1',
        ...env,
        LOG_LEVEL: 'info',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: LogLine[] = [];
  const waiters = new Set<{ match: (line: LogLine) => boolean; resolve: (line: LogLine) => void }>();
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  readline.createInterface({ input: child.stdout as NodeJS.ReadableStream, crlfDelay: Infinity }).on('line', (text) => {
    if (!text.startsWith('{')) return;
    const line = JSON.parse(text) as LogLine;
    lines.push(line);
    for (const waiter of waiters) if (waiter.match(line)) waiter.resolve(line);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const waitForLine = (match: (line: LogLine) => boolean, timeoutMs = 60_000): Promise<LogLine> => {
    const seen = lines.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => done(new Error(`no such log line within ${timeoutMs} ms; stderr:\n${stderr}`)),
        timeoutMs,
      );
      const waiter = { match, resolve: (line: LogLine) => done(line) };
      const done = (result: LogLine | Error) => {
        clearTimeout(timer);
        waiters.delete(waiter);
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      waiters.add(waiter);
      void exited.then((code) => done(new Error(`the public server exited (code ${code}); stderr:\n${stderr}`)));
    });
  };

  const ready = await waitForLine((line) => line.msg === 'public server listening', opts.startTimeoutMs).catch(
    async (error: unknown) => {
      // Not started is no reason to leave it running.
      child.kill('SIGKILL');
      await exited;
      throw error;
    },
  );
  return {
    child,
    url: `http://127.0.0.1:${String(ready.port)}`,
    lines,
    waitForLine,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
