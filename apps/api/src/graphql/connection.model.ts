import type { Type } from '@nestjs/common';
import { ArgsType, Field, Int, ObjectType } from '@nestjs/graphql';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Page } from '../common/pagination';

/** Relay's PageInfo. Lists page forward only (`first`, `after`), by keyset. */
@ObjectType('PageInfo')
export class PageInfoModel {
  @Field(() => Boolean) hasNextPage!: boolean;
  @Field(() => Boolean, {
    description: 'true when the page was asked for `after` a cursor: items the client has seen come before it',
  })
  hasPreviousPage!: boolean;
  @Field(() => String, { nullable: true, description: 'cursor of the first edge; null for an empty page' })
  startCursor!: string | null;
  @Field(() => String, { nullable: true, description: 'pass as `after` for the next page' }) endCursor!: string | null;
}

@ArgsType()
export class ConnectionArgs {
  @Field(() => Int, { nullable: true, description: `page size, 1-${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})` })
  first?: number | null;
  @Field(() => String, { nullable: true, description: 'endCursor of the previous page' }) after?: string | null;
}

export interface Connection<T> {
  edges: { cursor: string; node: T }[];
  nodes: T[];
  pageInfo: PageInfoModel;
}

/** A Relay-style connection type for a node type: edges with cursors, nodes, pageInfo. */
export function ConnectionType<T>(node: Type<T>, name: string): Type<Connection<T>> {
  @ObjectType(`${name}Edge`)
  class Edge {
    @Field(() => String) cursor!: string;
    @Field(() => node) node!: T;
  }
  @ObjectType({ isAbstract: true })
  abstract class ConnectionBase implements Connection<T> {
    @Field(() => [Edge]) edges!: Edge[];
    @Field(() => [node]) nodes!: T[];
    @Field(() => PageInfoModel) pageInfo!: PageInfoModel;
  }
  return ConnectionBase as Type<Connection<T>>;
}

/** `args`: the connection's arguments as the client sent them (`after` decides hasPreviousPage). */
export function connectionOf<T>(page: Page<T>, args: { after?: string | null }): Connection<T> {
  return {
    edges: page.edges,
    nodes: page.edges.map((edge) => edge.node),
    pageInfo: {
      hasNextPage: page.hasNextPage,
      hasPreviousPage: typeof args.after === 'string' && args.after !== '',
      startCursor: page.edges[0]?.cursor ?? null,
      endCursor: page.edges.at(-1)?.cursor ?? null,
    },
  };
}

/** Cost of a connection field: its items times what each asks for (the page size comes from `first`). */
export const connectionComplexity = ({
  args,
  childComplexity,
}: {
  args: { first?: number | null };
  childComplexity: number;
}) => 1 + childComplexity * Math.min(Math.max(args.first ?? DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);
