import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config';

const base = { DATABASE_URL: 'postgres://localhost/db' };

describe('config', () => {
  it('runs one public server process per CPU unless PUBLIC_WORKERS says otherwise', () => {
    expect(parseConfig(base).public.workers).toBe(availableParallelism());
    expect(parseConfig({ ...base, PUBLIC_WORKERS: '3' }).public.workers).toBe(3);
    for (const bad of ['0', '-1', '1.5', 'many', '257']) {
      expect(() => parseConfig({ ...base, PUBLIC_WORKERS: bad })).toThrow(ConfigError);
    }
    expect(() => parseConfig({ ...base, PUBLIC_WORKERS: '0' })).toThrow(/PUBLIC_WORKERS/);
  });
});
