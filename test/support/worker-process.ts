// A worker in its own process, so a test can kill it with SIGKILL like a crash would.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { childProcessEnv, developmentSiteVerification } from '@sitemaps/config';
import { stopChild, waitFor } from '@sitemaps/local-services';

const ROOT = path.resolve(__dirname, '../..');

export interface WorkerProcess {
  child: ChildProcess;
  /** Its HTTP listener (health probes), on 127.0.0.1. */
  httpUrl: string;
  output(): string;
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export async function spawnWorker(
  env: Record<string, string>,
  opts: { startTimeoutMs?: number } = {},
): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'apps/worker/src/main.ts'], {
    cwd: ROOT,
    env: childProcessEnv({ WORKER_HTTP_PORT: '0', SITE_VERIFICATION: developmentSiteVerification(), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitFor(
    async () => output.includes('worker serving queues') || child.exitCode !== null,
    opts.startTimeoutMs ?? 60_000,
    'worker did not start',
  );
  if (child.exitCode !== null) throw new Error(`worker exited at start:\n${output}`);
  const port = /worker serving queues: .*http:\/\/[^ ]+:(\d+)\//.exec(output)?.[1];
  return {
    child,
    httpUrl: `http://127.0.0.1:${port}`,
    output: () => output,
    kill: () => stopChild(child, 'SIGKILL'),
    stop: () => stopChild(child),
  };
}
