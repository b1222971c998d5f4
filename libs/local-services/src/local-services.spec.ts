// The embedded PostgreSQL as root: it runs as the `postgres` user, which must be able to enter every
// directory above its binaries and its data. A clone in root's 0700 home is the common case that
// cannot; it is refused up front with what to do, not left to crash inside initdb with EACCES.
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedBinaryDir, ensurePostgres, LocalServiceError, untraversableDirs } from './local-services';

describe('the embedded PostgreSQL as root', () => {
  let home: string;
  beforeAll(async () => {
    // As root's home is: nobody else may enter.
    home = await mkdtemp(path.join(tmpdir(), 'private-home-'));
    await chmod(home, 0o700);
    await mkdir(path.join(home, 'clone', '.data'), { recursive: true });
  });
  afterAll(() => rm(home, { recursive: true, force: true }));

  it('finds the directories the postgres user cannot enter, including parents not made yet', async () => {
    expect(untraversableDirs([path.join(home, 'clone', '.data', 'postgres')])).toEqual([home]);
    expect(untraversableDirs([path.join(home, 'not', 'made', 'yet')])).toEqual([home]);
    expect(untraversableDirs([tmpdir(), embeddedBinaryDir()])).toEqual([]);
    expect(existsSync(path.join(embeddedBinaryDir(), 'bin', 'initdb'))).toBe(true);
    await chmod(home, 0o711);
    try {
      expect(untraversableDirs([path.join(home, 'clone', '.data', 'postgres')])).toEqual([]);
    } finally {
      await chmod(home, 0o700);
    }
  });

  it.runIf(userInfo().uid === 0)('refuses a data directory under a 0700 directory, saying what to do', async () => {
    const attempt = ensurePostgres({ dataDir: path.join(home, 'clone', '.data') });
    await expect(attempt).rejects.toThrow(LocalServiceError);
    await expect(attempt).rejects.toThrow(new RegExp(`cannot enter\\n  ${home}\\n`));
    await expect(attempt).rejects.toThrow(/chmod o\+x .*DATABASE_URL/s);
    // Nothing was made: no half-initialised cluster to trip over next time.
    expect(existsSync(path.join(home, 'clone', '.data', 'postgres'))).toBe(false);
  });
});
