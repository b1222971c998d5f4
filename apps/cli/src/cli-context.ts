// What every command shares: where the API is and which key to use (environment first, then the
// file `sitemaps login` wrote), the typed client, output (human lines or --json), and exit codes.
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { createSitemapsClient, SitemapsApiError, type SitemapsClient } from '@sitemaps/client';
import type { CliEnv } from '@sitemaps/config';

/** Exit codes, stable for scripts. */
export const EXIT = {
  ok: 0,
  /** The API refused the operation, a build failed, a sitemap is invalid. */
  failed: 1,
  /** Bad arguments or options. */
  usage: 2,
  /** An import completed, but some lines were rejected. */
  rejected: 3,
  /** No key, or the API refused it (401/403). */
  auth: 4,
  /** The API could not be reached. */
  unreachable: 5,
} as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    readonly code = 'CLI_ERROR',
  ) {
    super(message);
  }
}

const storedConfig = z.object({ apiUrl: z.url(), apiKey: z.string().min(1) });
export type StoredConfig = z.infer<typeof storedConfig>;

export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
}

export class CliContext {
  json = false;
  /** What the command ended with when it did not throw: an import with rejected lines, an invalid sitemap. */
  exitCode: number = EXIT.ok;

  constructor(
    readonly env: CliEnv,
    readonly io: Io,
  ) {}

  async readConfig(): Promise<StoredConfig | undefined> {
    let text: string;
    try {
      text = await readFile(this.env.configFile, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const parsed = storedConfig.safeParse(JSON.parse(text));
    if (!parsed.success)
      throw new CliError(`${this.env.configFile} is not a config this CLI wrote; run sitemaps login again`, EXIT.usage);
    return parsed.data;
  }

  /** Only the owner may read the file: it holds the key. */
  async writeConfig(config: StoredConfig): Promise<void> {
    await mkdir(path.dirname(this.env.configFile), { recursive: true, mode: 0o700 });
    await writeFile(this.env.configFile, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
    await chmod(this.env.configFile, 0o600);
  }

  /** The API and key to use: SITEMAPS_API_URL and SITEMAPS_API_KEY win over the config file. */
  async target(): Promise<{ apiUrl: string; apiKey: string }> {
    const stored = this.env.apiUrl && this.env.apiKey ? undefined : await this.readConfig();
    const apiUrl = this.env.apiUrl ?? stored?.apiUrl;
    const apiKey = this.env.apiKey ?? stored?.apiKey;
    if (!apiUrl || !apiKey) {
      throw new CliError(
        'not logged in: run `sitemaps login`, or set SITEMAPS_API_URL and SITEMAPS_API_KEY',
        EXIT.auth,
        'NOT_LOGGED_IN',
      );
    }
    return { apiUrl, apiKey };
  }

  async client(): Promise<SitemapsClient> {
    const { apiUrl, apiKey } = await this.target();
    return createSitemapsClient({ baseUrl: apiUrl, apiKey, userAgent: 'sitemaps-cli' });
  }

  /** A result: JSON on stdout with --json, else the human lines. */
  print(result: unknown, human: () => string | string[]): void {
    if (this.json) {
      this.io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return;
    }
    const lines = human();
    const text = Array.isArray(lines) ? lines.join('\n') : lines;
    if (text !== '') this.io.stdout.write(`${text}\n`);
  }

  /** Progress and notes: stderr, so stdout stays the result. */
  note(line: string): void {
    if (!this.json) this.io.stderr.write(`${line}\n`);
  }
}

/** The exit code and message of anything a command throws. */
export function failure(error: unknown): { exitCode: number; code: string; message: string; details?: unknown[] } {
  if (error instanceof CliError) return { exitCode: error.exitCode, code: error.code, message: error.message };
  if (error instanceof SitemapsApiError) {
    const exitCode =
      error.status === 0 ? EXIT.unreachable : error.status === 401 || error.status === 403 ? EXIT.auth : EXIT.failed;
    const details = error.details.map(
      (d) =>
        `  ${[d.field, d.index !== undefined ? `#${d.index}` : undefined, d.line !== undefined ? `line ${d.line}` : undefined].filter(Boolean).join(' ')}: ${d.message}`,
    );
    return {
      exitCode,
      code: error.code,
      message: [`${error.message} (${error.code}${error.status ? `, HTTP ${error.status}` : ''})`, ...details].join(
        '\n',
      ),
      details: error.details,
    };
  }
  return { exitCode: EXIT.failed, code: 'UNEXPECTED', message: error instanceof Error ? error.message : String(error) };
}
