// Who is an operator: people with the platform role `operator` use the operator's routes from
// the console, as the ADMIN_API_KEY does by program. Only the key grants or withdraws the role.
import { Injectable } from '@nestjs/common';
import { PersonRepository, type AuditActor } from '@sitemaps/data';
import { normaliseEmail, notFound, parsePlatformRole, type PlatformRole } from '@sitemaps/domain';
import type { z } from 'zod';
import type { platformPersonView } from './operators.schemas';

type PlatformPersonView = z.output<typeof platformPersonView>;

@Injectable()
export class OperatorsService {
  constructor(private readonly people: PersonRepository) {}

  async list(): Promise<{ items: PlatformPersonView[] }> {
    const rows = await this.people.platformPeople();
    return { items: rows.map((row) => ({ ...row, platformRole: parsePlatformRole(row.platformRole) })) };
  }

  async setRole(email: string, platformRole: PlatformRole | null, who: AuditActor): Promise<PlatformPersonView> {
    const address = normaliseEmail(email);
    const person = await this.people.setPlatformRole(address, platformRole, who);
    if (!person) throw notFound('person', address);
    return { id: person.id, email: person.email, name: person.name, platformRole };
  }
}
