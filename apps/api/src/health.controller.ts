import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { answerHealth, Readiness, type HealthProbe } from '@sitemaps/health';
import { Public } from './auth/api-key.guard';

/** Probes for orchestrators (libs/health); not part of the API's contract, so not in its OpenAPI document. */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(private readonly readiness: Readiness) {}

  @Get('live')
  @Public()
  live(@Res() reply: FastifyReply) {
    return this.answer('live', reply);
  }

  /** `/health` is the older name of `/health/ready`. */
  @Get(['ready', ''])
  @Public()
  ready(@Res() reply: FastifyReply) {
    return this.answer('ready', reply);
  }

  private async answer(probe: HealthProbe, reply: FastifyReply): Promise<void> {
    const answer = await answerHealth(probe, this.readiness);
    await reply.code(answer.status).headers(answer.headers).send(answer.body);
  }
}
