import net from 'node:net';
import { Prisma } from './generated/prisma/client';
import { DatabaseError, Pool } from 'pg';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './database-unavailable';

function serverError(code: string, message: string): DatabaseError {
  const error = new DatabaseError(message, message.length, 'error');
  error.code = code;
  error.severity = 'FATAL';
  return error;
}

/** A port nothing listens on: one the system gave us, closed again. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('isDatabaseUnavailable', () => {
  it('knows the error pg gives when nothing listens (a stopped server)', async () => {
    const pool = new Pool({ connectionString: `postgres://x@127.0.0.1:${await closedPort()}/x`, max: 1 });
    const error = await pool.query('SELECT 1').catch((caught: unknown) => caught);
    await pool.end();
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('knows a server shutting down, starting up, or out of connections, and connections cut', () => {
    expect(isDatabaseUnavailable(serverError('57P01', 'terminating connection due to administrator command'))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(serverError('57P03', 'the database system is starting up'))).toBe(true);
    expect(isDatabaseUnavailable(serverError('53300', 'sorry, too many clients already'))).toBe(true);
    expect(isDatabaseUnavailable(serverError('08006', 'connection failure'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
  });

  it('looks through Prisma and its pg adapter', () => {
    const known = new Prisma.PrismaClientKnownRequestError("Can't reach database server", {
      code: 'P1001',
      clientVersion: 'test',
    });
    expect(isDatabaseUnavailable(known)).toBe(true);
    // What Prisma's pg adapter throws: the failure's kind in `cause`, wrapped again.
    const adapter = Object.assign(new Error('DriverAdapterError'), { cause: { kind: 'ConnectionClosed' } });
    expect(isDatabaseUnavailable(new Error('query failed', { cause: adapter }))).toBe(true);
    const wrappedServer = Object.assign(new Error('DriverAdapterError'), {
      cause: { kind: 'postgres', code: '57P01', message: 'terminating connection' },
    });
    expect(isDatabaseUnavailable(wrappedServer)).toBe(true);
  });

  it('does not take a wrong request or a bug for an outage', () => {
    expect(isDatabaseUnavailable(serverError('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(isDatabaseUnavailable(serverError('40001', 'could not serialize access'))).toBe(false);
    expect(
      isDatabaseUnavailable(
        new Prisma.PrismaClientKnownRequestError('Unique constraint failed', { code: 'P2002', clientVersion: 'test' }),
      ),
    ).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    // A cycle of causes ends.
    const looped: Error & { cause?: unknown } = new Error('loop');
    looped.cause = looped;
    expect(isDatabaseUnavailable(looped)).toBe(false);
  });
});
