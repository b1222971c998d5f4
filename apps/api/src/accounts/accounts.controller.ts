import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { serialize } from 'cookie';
import type { FastifyReply } from 'fastify';
import type { AppConfig } from '@sitemaps/config';
import { CONFIG } from '@sitemaps/core';
import { PersonOnly, Public, type AuthedRequest } from '../auth/api-key.guard';
import { parseInput } from '../errors/parse-input';
import { ApiErrors, ZodBody, ZodResponse } from '../openapi/zod-openapi';
import {
  acceptInvitationInput,
  accountView,
  changeEmailInput,
  changePasswordInput,
  passwordResetConfirmInput,
  passwordResetInput,
  signedOutView,
  signInInput,
} from './account.schemas';
import {
  AccountsService,
  clearedSessionCookie,
  SESSION_COOKIE,
  sessionCookieOptions,
  SignInsLimitedError,
  type NewSession,
} from './accounts.service';
import { MembersService } from './members.service';

/**
 * People sign in with an email and a password and get a session cookie: HttpOnly (no script
 * reads it), SameSite=Strict (no other site's page sends it), Secure behind https. Writes with it
 * also carry the session's CSRF token.
 */
@ApiTags('accounts')
@Controller('v1/auth')
export class AccountsController {
  constructor(
    @Inject(CONFIG) private readonly config: AppConfig,
    private readonly accounts: AccountsService,
    private readonly members: MembersService,
  ) {}

  @Post('sign-in')
  @HttpCode(200)
  @Public()
  @ZodBody(signInInput)
  @ZodResponse(200, accountView, 'signed in: the session cookie is set')
  @ApiErrors(401, 429)
  @ApiOperation({ summary: 'Sign in with an email and a password' })
  async signIn(@Body() body: unknown, @Req() request: AuthedRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const input = parseInput(signInInput, body);
    try {
      return this.withCookie(reply, await this.accounts.signIn(input.email, input.password, request.ip));
    } catch (error) {
      if (error instanceof SignInsLimitedError) void reply.header('retry-after', String(error.retryAfterSeconds));
      throw error;
    }
  }

  @Get('session')
  @PersonOnly()
  @ZodResponse(200, accountView, 'the signed-in person, their tenants and roles')
  @ApiErrors()
  @ApiOperation({ summary: 'Read the signed-in account' })
  session(@Req() request: AuthedRequest) {
    const person = personOf(request);
    return this.accounts.account(person.personId, person.csrfToken);
  }

  @Post('sign-out')
  @HttpCode(200)
  @PersonOnly()
  @ZodResponse(200, signedOutView, 'this session ended; the cookie is cleared')
  @ApiErrors()
  @ApiOperation({ summary: 'Sign out' })
  async signOut(@Req() request: AuthedRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.accounts.signOut(personOf(request).sessionId);
    this.clearCookie(reply);
    return { sessionsEnded: 1 };
  }

  @Post('sign-out-everywhere')
  @HttpCode(200)
  @PersonOnly()
  @ZodResponse(200, signedOutView, 'every session of this person ended')
  @ApiErrors()
  @ApiOperation({ summary: 'Sign out on every device' })
  async signOutEverywhere(@Req() request: AuthedRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const sessionsEnded = await this.accounts.signOutEverywhere(personOf(request).personId);
    this.clearCookie(reply);
    return { sessionsEnded };
  }

  @Post('password')
  @HttpCode(200)
  @PersonOnly()
  @ZodBody(changePasswordInput)
  @ZodResponse(200, signedOutView, 'changed; every other session of this person ended, this one stays')
  @ApiErrors(400, 429)
  @ApiOperation({ summary: 'Change your password (the current one again first)' })
  async changePassword(@Body() body: unknown, @Req() request: AuthedRequest) {
    const sessionsEnded = await this.accounts.changePassword(
      personOf(request),
      parseInput(changePasswordInput, body),
      request.ip,
    );
    return { sessionsEnded };
  }

  @Post('email')
  @HttpCode(200)
  @PersonOnly()
  @ZodBody(changeEmailInput)
  @ZodResponse(200, accountView, 'changed: you sign in with the new email from now on')
  @ApiErrors(400, 409, 429)
  @ApiOperation({ summary: 'Change your email (the current password again first)' })
  changeEmail(@Body() body: unknown, @Req() request: AuthedRequest) {
    return this.accounts.changeEmail(personOf(request), parseInput(changeEmailInput, body), request.ip);
  }

  @Post('password-reset')
  @HttpCode(204)
  @Public()
  @ZodBody(passwordResetInput)
  @ZodResponse(204, null, 'if the email has an account, a reset link is on its way (the answer is the same if not)')
  @ApiErrors(503)
  @ApiOperation({ summary: 'Ask for a password reset link' })
  async requestReset(@Body() body: unknown) {
    await this.accounts.requestPasswordReset(parseInput(passwordResetInput, body).email);
  }

  @Post('password-reset/confirm')
  @HttpCode(204)
  @Public()
  @ZodBody(passwordResetConfirmInput)
  @ZodResponse(204, null, 'the password is changed and every session ended')
  @ApiErrors()
  @ApiOperation({ summary: 'Choose a new password with a reset link' })
  async confirmReset(@Body() body: unknown) {
    const input = parseInput(passwordResetConfirmInput, body);
    await this.accounts.resetPassword(input.token, input.password);
  }

  @Post('accept-invitation')
  @HttpCode(200)
  @Public()
  @ZodBody(acceptInvitationInput)
  @ZodResponse(200, accountView, 'a member now, and signed in: the session cookie is set')
  @ApiErrors(401)
  @ApiOperation({ summary: 'Accept an invitation' })
  async acceptInvitation(@Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    const input = parseInput(acceptInvitationInput, body);
    return this.withCookie(reply, await this.members.accept(input.token, input));
  }

  private withCookie(reply: FastifyReply, session: NewSession) {
    void reply.header(
      'set-cookie',
      serialize(SESSION_COOKIE, session.token, { ...this.cookieOptions(), expires: session.expiresAt }),
    );
    return session.account;
  }

  private clearCookie(reply: FastifyReply): void {
    void reply.header('set-cookie', clearedSessionCookie(this.config));
  }

  private cookieOptions() {
    return sessionCookieOptions(this.config);
  }
}

function personOf(request: AuthedRequest) {
  const { principal } = request;
  const person = principal.kind === 'person' || principal.kind === 'tenant' ? principal.person : undefined;
  if (!person) throw new Error('PersonOnly route without a person');
  return person;
}
