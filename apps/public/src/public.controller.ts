import { All, Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PublicService } from './public.service';

/** Every path and method lands here: the site's manifest, not the router, decides what exists. */
@Controller()
export class PublicController {
  constructor(private readonly service: PublicService) {}

  @All('*')
  async serve(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const response = await this.service.respond({ method: request.method, url: request.url, headers: request.headers });
    await reply.status(response.status).headers(response.headers).send(response.body);
  }
}
