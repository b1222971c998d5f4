import { z } from 'zod';

export const shardView = z
  .object({
    id: z.string().describe('bigint as a string'),
    section: z.string().nullable(),
    ordinal: z.number().int(),
    path: z.string().describe("the shard's file on the site's host; a shard keeps it for life"),
    urlCount: z.number().int(),
    byteSize: z.number().int().describe('uncompressed bytes of its URL entries'),
    dirty: z.boolean().describe('changed since it was last rendered'),
    createdAt: z.date(),
  })
  .meta({ id: 'Shard' });
export type ShardView = z.output<typeof shardView>;
