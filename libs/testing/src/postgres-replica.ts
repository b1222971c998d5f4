// A PostgreSQL primary and a streaming replica of it, made by the test from the machine's own
// PostgreSQL binaries (/usr/lib/postgresql/<version>/bin: initdb, pg_ctl, pg_basebackup) in a
// temporary directory on spare ports; the machine's own cluster is never touched. initdb refuses
// to run as root, so as root (CI here) the servers run as the `postgres` user through runuser.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { appendFile, chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { applyMigrations } from '@sitemaps/data';
import { freePort } from '@sitemaps/local-services';
import { waitUntil } from './wait-until';

const execFileAsync = promisify(execFile);

export interface PostgresReplicaPair {
  /** The migrated `sitemaps` database on the primary, and the same database on the replica. */
  primaryUrl: string;
  replicaUrl: string;
  /** Stops (pg_wal_replay_pause) and restarts replaying WAL on the replica: lag on demand. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Waits until the replica has replayed everything the primary has written so far. */
  caughtUp(): Promise<void>;
  /** The port of the server that takes writes now (the replica's once promoted). */
  primaryPort(): number;
  /** Restarts the server that takes writes (`pg_ctl restart`, fast: open sessions are cut). */
  restartPrimary(): Promise<void>;
  /** Stops the server that takes writes (fast: open sessions are cut) and starts it again: an outage of a chosen length. */
  stopPrimary(): Promise<void>;
  startPrimary(): Promise<void>;
  /**
   * A planned failover: stops the primary (fast: it sends its last WAL to the replica first),
   * promotes the replica and waits until it takes writes. Once only: no replica is left after it.
   */
  promoteReplica(): Promise<void>;
  /**
   * An unplanned failover: the primary dies (immediate stop, as a crash: nothing more is sent to
   * the replica), then the replica is promoted. Only a pair started `synchronous` keeps every commit.
   */
  crashPrimaryAndPromote(): Promise<void>;
  stop(): Promise<void>;
}

export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root).filter((name) => existsSync(path.join(root, name, 'bin', 'pg_basebackup')))
    : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error(`no PostgreSQL server binaries under ${root} (apt-get install postgresql)`);
  return path.join(root, newest, 'bin');
}

export async function startPostgresReplicaPair(opts: { synchronous?: boolean } = {}): Promise<PostgresReplicaPair> {
  const bin = postgresBinDir();
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]) =>
    asRoot
      ? execFileAsync('runuser', ['-u', 'postgres', '--', path.join(bin, command), ...args])
      : execFileAsync(path.join(bin, command), args);
  const dir = await mkdtemp(path.join(tmpdir(), 'pg-replica-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    await chown(dir, uid, gid);
  }
  const primary = path.join(dir, 'primary');
  const replica = path.join(dir, 'replica');
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const started: string[] = [];
  const stop = async () => {
    for (const data of started.reverse())
      await run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await run('initdb', ['-D', primary, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    await appendFile(
      path.join(primary, 'postgresql.conf'),
      [
        `port = ${primaryPort}`,
        `listen_addresses = '127.0.0.1'`,
        `unix_socket_directories = '${dir}'`,
        // A test server: durability is not what it tests.
        'fsync = off',
        // Synchronous (set once the replica streams, below): a commit returns once the replica has it.
        opts.synchronous ? 'synchronous_commit = on' : 'synchronous_commit = off',
        'full_page_writes = off',
        'wal_level = replica',
        'max_wal_senders = 4',
        '',
      ].join('\n'),
    );
    await run('pg_ctl', ['-D', primary, '-l', path.join(dir, 'primary.log'), '-w', 'start']);
    started.push(primary);
    const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/sitemaps`;
    const postgresUrl = `postgres://postgres@127.0.0.1:${primaryPort}/postgres`;
    await withClient(postgresUrl, (client) => client.query('CREATE DATABASE sitemaps'));
    await applyMigrations(primaryUrl);

    // -R writes standby.signal and primary_conninfo: the copy starts as a streaming replica.
    await run('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      replica,
      '-R',
      '-X',
      'stream',
      '-c',
      'fast',
    ]);
    await appendFile(path.join(replica, 'postgresql.conf'), `port = ${replicaPort}\nhot_standby = on\n`);
    await run('pg_ctl', ['-D', replica, '-l', path.join(dir, 'replica.log'), '-w', 'start']);
    started.push(replica);
    const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/sitemaps`;

    const caughtUp = async () => {
      // The insert position, not pg_current_wal_lsn() (what is written so far): with
      // synchronous_commit = off a commit's record may still be in WAL buffers, past the written
      // position, and a replica that had replayed only that far would miss it. (At a page boundary
      // the insert position is a page header past the last record: the next record, such as the
      // running-transactions one the background writer logs within 15 s, gets there.)
      const target = await withClient(
        primaryUrl,
        async (client) =>
          (await client.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0]?.lsn,
      );
      await waitUntil('the replica to replay the primary’s WAL', () =>
        withClient(replicaUrl, async (client) => {
          const { rows } = await client.query<{ behind: boolean }>(
            'SELECT pg_last_wal_replay_lsn() < $1::pg_lsn AS behind',
            [target],
          );
          return rows[0]?.behind === false;
        }),
      );
    };
    await waitUntil('the replica to stream from the primary', () =>
      withClient(
        primaryUrl,
        async (client) =>
          (await client.query(`SELECT 1 FROM pg_stat_replication WHERE state = 'streaming'`)).rowCount === 1,
      ),
    );
    if (opts.synchronous)
      // On the primary only (after the base backup): a promoted replica has no standby to wait for.
      await withClient(postgresUrl, async (client) => {
        await client.query(`ALTER SYSTEM SET synchronous_standby_names = '*'`);
        await client.query('SELECT pg_reload_conf()');
      });
    await caughtUp();
    let writable = { data: primary, port: primaryPort, log: path.join(dir, 'primary.log') };
    const promote = async (mode: 'fast' | 'immediate') => {
      if (writable.data === replica) throw new Error('the replica has been promoted already');
      await run('pg_ctl', ['-D', primary, '-m', mode, '-w', 'stop']);
      started.splice(started.indexOf(primary), 1);
      await run('pg_ctl', ['-D', replica, '-w', 'promote']);
      writable = { data: replica, port: replicaPort, log: path.join(dir, 'replica.log') };
      await waitUntil('the promoted replica to take writes', () =>
        withClient(
          replicaUrl,
          async (client) =>
            (await client.query<{ standby: boolean }>('SELECT pg_is_in_recovery() AS standby')).rows[0]?.standby ===
            false,
        ),
      );
    };
    return {
      primaryUrl,
      replicaUrl,
      primaryPort: () => writable.port,
      async restartPrimary() {
        await run('pg_ctl', ['-D', writable.data, '-l', writable.log, '-m', 'fast', '-w', 'restart']);
      },
      async stopPrimary() {
        await run('pg_ctl', ['-D', writable.data, '-m', 'fast', '-w', 'stop']);
      },
      async startPrimary() {
        await run('pg_ctl', ['-D', writable.data, '-l', writable.log, '-w', 'start']);
      },
      async promoteReplica() {
        await promote('fast');
      },
      async crashPrimaryAndPromote() {
        await promote('immediate');
      },
      async pauseReplay() {
        await withClient(replicaUrl, (client) => client.query('SELECT pg_wal_replay_pause()'));
        // The pause takes hold at the next WAL record: write one, and wait until replay has stopped before it.
        await withClient(postgresUrl, (client) =>
          client.query(
            'CREATE TABLE IF NOT EXISTS replay_probe (at timestamptz); INSERT INTO replay_probe VALUES (now())',
          ),
        );
        await waitUntil('replay to pause on the replica', () =>
          withClient(
            replicaUrl,
            async (client) =>
              (await client.query<{ state: string }>('SELECT pg_get_wal_replay_pause_state() AS state')).rows[0]
                ?.state === 'paused',
          ),
        );
      },
      resumeReplay: () =>
        withClient(replicaUrl, async (client) => void (await client.query('SELECT pg_wal_replay_resume()'))),
      caughtUp,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function withClient<T>(url: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
