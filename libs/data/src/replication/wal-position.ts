// WAL positions (LSNs) of a primary and of a streaming replica, as numbers that compare.
import type { Pool } from 'pg';

/** `16/B374D848` as a number, to compare WAL positions. */
export function parseLsn(lsn: string): bigint {
  const [high = '0', low = '0'] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** A WAL position in Postgres' text form (`16/B374D848`), as announcements carry it. */
export function formatLsn(position: bigint): string {
  return `${(position >> 32n).toString(16).toUpperCase()}/${(position & 0xffffffffn).toString(16).toUpperCase()}`;
}

/**
 * The primary's WAL insert position: at or past the end of every commit record written so far,
 * even one not yet flushed (synchronous_commit = off), so a replica that has replayed this far
 * has replayed those commits.
 */
export async function primaryWalPosition(primary: Pool): Promise<bigint> {
  const { rows } = await primary.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
  return parseLsn(rows[0]?.lsn ?? '0/0');
}

/** How far a streaming replica has replayed (`pg_last_wal_replay_lsn()`); null on a server that is not one. */
export async function replayedWalPosition(replica: Pool): Promise<bigint | null> {
  const { rows } = await replica.query<{ lsn: string | null }>('SELECT pg_last_wal_replay_lsn()::text AS lsn');
  const lsn = rows[0]?.lsn;
  return lsn ? parseLsn(lsn) : null;
}
