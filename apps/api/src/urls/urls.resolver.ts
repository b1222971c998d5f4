import { Args, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { RequireScope } from '../auth/api-key.guard';
import { TenantId } from '../auth/current-tenant.decorator';
import { connectionArgs, type PageRequest } from '../common/pagination';
import { parseInput } from '../errors/parse-input';
import { connectionComplexity, connectionOf } from '../graphql/connection.model';
import {
  DeleteUrlsInput,
  DeleteUrlsPayload,
  UpsertUrlsInput,
  UpsertUrlsPayload,
  UrlConnection,
  UrlFilterArgs,
} from './url.model';
import { deleteUrlsInput, urlFilter, type UrlFilter } from './url.schemas';
import { UrlsService } from './urls.service';

/** The same filters and page rules as GET …/urls. */
export function urlFilterOf({ first, after, prefix, section, changedSince, excluded }: UrlFilterArgs): {
  filter: UrlFilter;
  page: PageRequest;
} {
  return {
    filter: {
      ...parseInput(
        urlFilter,
        { prefix: prefix ?? undefined, section: section ?? undefined, changedSince: changedSince ?? undefined },
        'arguments',
      ),
      excluded: excluded ?? undefined,
    },
    page: parseInput(connectionArgs, { first, after }, 'arguments'),
  };
}

@Resolver()
export class UrlsResolver {
  constructor(private readonly urlsService: UrlsService) {}

  @Query(() => UrlConnection, { nullable: true, complexity: connectionComplexity })
  async urls(
    @TenantId() tenantId: string,
    @Args('siteId', { type: () => ID }) siteId: string,
    @Args() args: UrlFilterArgs,
  ) {
    const { filter, page } = urlFilterOf(args);
    return connectionOf(await this.urlsService.list(tenantId, siteId, filter, page), args);
  }

  @Mutation(() => UpsertUrlsPayload, {
    description: 'upsert by loc, up to 10,000 entries; invalid entries are reported by index, the valid ones stored',
  })
  @RequireScope('write')
  upsertUrls(
    @TenantId() tenantId: string,
    @Args('input', { type: () => UpsertUrlsInput }) { siteId, entries }: UpsertUrlsInput,
  ) {
    return this.urlsService.upsert(tenantId, siteId, entries);
  }

  @Mutation(() => DeleteUrlsPayload)
  @RequireScope('write')
  deleteUrls(@TenantId() tenantId: string, @Args('input', { type: () => DeleteUrlsInput }) input: DeleteUrlsInput) {
    return this.urlsService.delete(
      tenantId,
      input.siteId,
      parseInput(deleteUrlsInput, { locs: input.locs }, 'input').locs,
    );
  }
}
