// A local S3-compatible object store for tests: s3rver (an npm package that implements the S3
// REST API over a directory) on 127.0.0.1 and a spare port, with one bucket. No real S3 server
// can be installed on these machines; s3rver speaks the same protocol the SDK does.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { S3StorageConfig } from '@sitemaps/config';

export interface S3TestServer {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** The settings of the `s3` storage driver for this server's bucket, under `prefix`. */
  config(prefix?: string): S3StorageConfig;
  stop(): Promise<void>;
}

/** s3rver checks signatures against this fixed key pair. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export async function startS3Server(bucket = 'sitemaps-test'): Promise<S3TestServer> {
  const directory = await mkdtemp(path.join(tmpdir(), 's3rver-'));
  // Loaded here, not at the top: every test file imports this lib, few start an object store.
  const { default: S3rver } = await import('s3rver');
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    config: (prefix = '') => ({
      bucket,
      prefix,
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: CREDENTIALS,
    }),
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
