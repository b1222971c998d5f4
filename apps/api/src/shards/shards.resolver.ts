import { Args, ID, Query, Resolver } from '@nestjs/graphql';
import { TenantId } from '../auth/current-tenant.decorator';
import { connectionArgs } from '../common/pagination';
import { parseInput } from '../errors/parse-input';
import { ConnectionArgs, connectionComplexity, connectionOf } from '../graphql/connection.model';
import { ShardConnection } from './shard.model';
import { ShardsService } from './shards.service';

@Resolver()
export class ShardsResolver {
  constructor(private readonly shardsService: ShardsService) {}

  @Query(() => ShardConnection, { nullable: true, complexity: connectionComplexity })
  async shards(
    @TenantId() tenantId: string,
    @Args('siteId', { type: () => ID }) siteId: string,
    @Args() args: ConnectionArgs,
  ) {
    return connectionOf(
      await this.shardsService.list(tenantId, siteId, parseInput(connectionArgs, args, 'arguments')),
      args,
    );
  }
}
