// The replica pair's caughtUp(): once it resolves, every commit made before it is readable on the
// replica. The primary runs with synchronous_commit = off, so a commit's record can still sit in
// WAL buffers, past the position written so far: waiting for that position alone let a test read
// the replica before the rows it had just written (the replica e2e failed so, under load).
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresReplicaPair, type PostgresReplicaPair } from './postgres-replica';

describe('startPostgresReplicaPair', () => {
  let pair: PostgresReplicaPair;
  let primary: Client;
  let replica: Client;
  beforeAll(async () => {
    pair = await startPostgresReplicaPair();
    primary = new Client({ connectionString: pair.primaryUrl });
    replica = new Client({ connectionString: pair.replicaUrl });
    await Promise.all([primary.connect(), replica.connect()]);
    await primary.query('CREATE TABLE caught_up_probe (n int PRIMARY KEY)');
  }, 120_000);
  afterAll(async () => {
    await Promise.all([primary?.end(), replica?.end()]);
    await pair?.stop();
  });

  it('caughtUp() makes every earlier commit readable on the replica', async () => {
    const missing: number[] = [];
    for (let n = 0; n < 20; n++) {
      await primary.query('INSERT INTO caught_up_probe VALUES ($1)', [n]);
      await pair.caughtUp();
      const { rowCount } = await replica.query('SELECT 1 FROM caught_up_probe WHERE n = $1', [n]);
      if (rowCount !== 1) missing.push(n);
    }
    expect(missing).toEqual([]);
  }, 120_000);
});
