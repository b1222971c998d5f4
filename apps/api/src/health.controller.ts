import { Controller, Get, Inject } from '@nestjs/common';
import type { PrismaClient } from '@sitemaps/data';
import { PRISMA } from './api.tokens';
import { Public } from './auth/api-key.guard';

@Controller()
export class HealthController {
  constructor(@Inject(PRISMA) private readonly prisma: PrismaClient) {}

  @Get('health')
  @Public()
  async health() {
    await this.prisma.$queryRaw`SELECT 1`;
    return { status: 'ok' };
  }
}
