import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { TenantId } from '../auth/current-tenant.decorator';
import { cursorQuery, restPage } from '../common/pagination';
import { parseInput } from '../errors/parse-input';
import { ApiErrors, pageOfSchema, ZodQuery, ZodResponse } from '../openapi/zod-openapi';
import { shardView } from './shard.schemas';
import { ShardsService } from './shards.service';

@ApiTags('shards')
@Controller('v1/sites/:siteId/shards')
export class ShardsController {
  constructor(private readonly shards: ShardsService) {}

  @Get()
  @ZodQuery(cursorQuery)
  @ZodResponse(200, pageOfSchema(shardView))
  @ApiErrors(404)
  @ApiOperation({ summary: 'List the shards (sitemap files) of a site' })
  async list(@TenantId() tenantId: string, @Param('siteId') siteId: string, @Query() query: unknown) {
    const { cursor, limit } = parseInput(cursorQuery, query, 'query');
    return restPage(await this.shards.list(tenantId, siteId, { after: cursor, first: limit }));
  }
}
