import { beforeAll, describe, expect, it } from 'vitest';
import type { Pool } from 'pg';
import { useTestPool } from '@sitemaps/testing';
import { copyRows, FieldArena, type CopyRow, type CopyType, type CopyValue } from './pg-copy';

// Rows handed to COPY as values and as fields encoded ahead (FieldArena) must land the same,
// whatever the arena went through: rows across its blocks, a row larger than a block, reuse
// after `clear`.
describe('copyRows with fields encoded ahead (real Postgres)', () => {
  let pool: Pool;
  const fixture = useTestPool();
  beforeAll(() => {
    pool = fixture.pool;
  });

  const columns = {
    k: 'int4',
    u: 'uuid',
    b: 'bytea',
    t: 'text',
    j: 'jsonb',
    d: 'timestamptz',
    f: 'float4',
    n: 'int8',
    x: 'bool',
  } as const satisfies Record<string, CopyType>;
  const types = Object.values(columns);

  function values(k: number): CopyValue[] {
    const text = k === 7 ? 'é'.repeat(600_000) : `row ${k} ${'ü'.repeat(k % 50)} "q" \\ ${k}`;
    return [
      k,
      '6f1c2a4e-0b1d-4c8e-9a77-3d5b2e8f0c11',
      Buffer.from([k & 255, 0, 255]),
      text,
      JSON.stringify({ k, s: 'ß' }),
      new Date(Date.UTC(2026, 0, 1, 0, 0, k)),
      k / 4,
      k * 1_000_003,
      k % 2 === 0,
    ];
  }

  async function copyAndRead(table: string, rows: CopyRow[]) {
    await pool.query(
      `CREATE TABLE ${table} (k int4, u uuid, b bytea, t text, j jsonb, d timestamptz, f real, n bigint, x boolean)`,
    );
    const db = await pool.connect();
    try {
      await copyRows(db, { table, columns, rows, toRow: (row) => row });
    } finally {
      db.release();
    }
    return (await pool.query(`SELECT * FROM ${table} ORDER BY k`)).rows;
  }

  it('lands encoded rows exactly as plain ones, across blocks, oversized and after clear', async () => {
    const keys = Array.from({ length: 2_000 }, (_, k) => k);
    const plain = await copyAndRead('copy_plain', keys.map(values));
    expect(plain).toHaveLength(2_000);
    expect((plain[7] as { t: string }).t).toHaveLength(600_000);

    const arena = new FieldArena();
    // Fill the arena with rows that are then voided, so the second round reuses its blocks.
    for (const k of keys) arena.encode(types, values(k + 10_000));
    arena.clear();
    // All but the last two columns encoded ahead, as the batch writer leaves the shard for last.
    const ahead = keys.map((k) => {
      const all = values(k);
      return { encoded: arena.encode(types.slice(0, -2), all.slice(0, -2)), rest: all.slice(-2) };
    });
    expect(await copyAndRead('copy_ahead', ahead)).toEqual(plain);
  });
});
