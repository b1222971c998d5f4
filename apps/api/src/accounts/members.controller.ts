import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuditActor } from '@sitemaps/data';
import { notFound } from '@sitemaps/domain';
import { PlatformOnly, RequireScope, type AuthedRequest } from '../auth/api-key.guard';
import { uuidKey } from '../common/pagination';
import { AuditActorOf } from '../auth/audit-actor.decorator';
import { TenantId } from '../auth/current-tenant.decorator';
import { parseInput } from '../errors/parse-input';
import { ApiErrors, ZodBody, ZodCreated, ZodResponse } from '../openapi/zod-openapi';
import { createInvitationInput, invitationsView, invitationView, membersView } from './account.schemas';
import { MembersService } from './members.service';

/** A tenant's people: every member sees who else is; owners and admins invite and remove. */
@ApiTags('members')
@Controller('v1')
export class MembersController {
  constructor(private readonly members: MembersService) {}

  @Get('members')
  @RequireScope('read')
  @ZodResponse(200, membersView)
  @ApiErrors()
  @ApiOperation({ summary: 'List the people of the tenant and their roles' })
  async list(@TenantId() tenantId: string) {
    return { items: await this.members.members(tenantId) };
  }

  @Delete('members/:personId')
  @HttpCode(204)
  @RequireScope('admin')
  @ZodResponse(204, null, 'removed: the person no longer reaches the tenant')
  @ApiErrors(404, 409)
  @ApiOperation({ summary: 'Remove a person from the tenant' })
  async remove(@Req() request: AuthedRequest, @Param('personId') personId: string, @AuditActorOf() actor: AuditActor) {
    await this.members.remove(request.principal, personId, actor);
  }

  @Post('invitations')
  @RequireScope('admin')
  @ZodBody(createInvitationInput)
  @ZodCreated(
    201,
    invitationView,
    (invitation: { id: string }) => `/v1/invitations/${invitation.id}`,
    'stored; its email is queued (see mail.status)',
  )
  @ApiErrors(503)
  @ApiOperation({ summary: 'Invite a person by email' })
  invite(
    @Req() request: AuthedRequest,
    @TenantId() tenantId: string,
    @Body() body: unknown,
    @AuditActorOf() actor: AuditActor,
  ) {
    const input = parseInput(createInvitationInput, body);
    return this.members.invite(request.principal, { tenantId, ...input }, actor);
  }

  @Post('tenants/:tenantId/invitations')
  @PlatformOnly()
  @ZodBody(createInvitationInput)
  @ZodCreated(
    201,
    invitationView,
    (invitation: { id: string }) => `/v1/invitations/${invitation.id}`,
    'stored; its email is queued (see mail.status)',
  )
  @ApiErrors(404, 503)
  @ApiOperation({ summary: 'Invite a person to a tenant, as the platform operator (a first owner)' })
  inviteAsOperator(
    @Req() request: AuthedRequest,
    @Param('tenantId') tenantId: string,
    @Body() body: unknown,
    @AuditActorOf() actor: AuditActor,
  ) {
    const input = parseInput(createInvitationInput, body);
    if (!uuidKey.safeParse(tenantId).success) throw notFound('tenant', tenantId);
    return this.members.invite(request.principal, { tenantId, ...input }, actor);
  }

  @Get('invitations')
  @RequireScope('admin')
  @ZodResponse(200, invitationsView, 'pending invitations, oldest first')
  @ApiErrors()
  @ApiOperation({ summary: 'List pending invitations' })
  async listInvitations(@TenantId() tenantId: string) {
    return { items: await this.members.pendingInvitations(tenantId) };
  }

  @Delete('invitations/:invitationId')
  @HttpCode(204)
  @RequireScope('admin')
  @ZodResponse(204, null, 'revoked: its link no longer works')
  @ApiErrors(404)
  @ApiOperation({ summary: 'Revoke a pending invitation' })
  async revokeInvitation(@TenantId() tenantId: string, @Param('invitationId') id: string) {
    await this.members.revokeInvitation(tenantId, id);
  }
}
