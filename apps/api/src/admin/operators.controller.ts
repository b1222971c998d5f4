import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuditActor } from '@sitemaps/data';
import { PlatformKeyOnly, PlatformOnly } from '../auth/api-key.guard';
import { AuditActorOf } from '../auth/audit-actor.decorator';
import { parseInput } from '../errors/parse-input';
import { ApiErrors, ZodBody, ZodResponse } from '../openapi/zod-openapi';
import { platformPeopleView, platformPersonView, setPlatformRoleInput } from './operators.schemas';
import { OperatorsService } from './operators.service';

/** The people with a platform role. Granting it takes the ADMIN_API_KEY; operators may read the list. */
@ApiTags('admin')
@Controller('v1/admin/operators')
export class OperatorsController {
  constructor(private readonly operators: OperatorsService) {}

  @Get()
  @PlatformOnly()
  @ZodResponse(200, platformPeopleView, 'by email')
  @ApiErrors(403)
  @ApiOperation({ summary: 'List the people with a platform role' })
  list() {
    return this.operators.list();
  }

  @Put()
  @PlatformKeyOnly()
  @ZodBody(setPlatformRoleInput)
  @ZodResponse(200, platformPersonView, 'set; their sessions have it from their next request')
  @ApiErrors(403, 404)
  @ApiOperation({ summary: "Grant or withdraw a person's platform role (the admin key only)" })
  set(@Body() body: unknown, @AuditActorOf() actor: AuditActor) {
    const { email, platformRole } = parseInput(setPlatformRoleInput, body);
    return this.operators.setRole(email, platformRole, actor);
  }
}
