import type { Type } from '@nestjs/common';
import { Field, ID, InputType, ObjectType, type ReturnTypeFunc } from '@nestjs/graphql';

/*
 * Relay's mutation shape, the same for every mutation: `name(input: NameInput!): NamePayload!`. The
 * input holds every argument (the id of the object acted on included); the payload holds what the
 * mutation produced under one field: the object it created or changed (`site`, `build`, …), or
 * `deleted…Id` for what it removed. The URL batches, which change no single object, answer their
 * outcome (`UpsertUrlsPayload { upserted changed errors warnings }`). Values are checked by REST's zod
 * schemas, whose errors name the input's fields; GraphQL's own checks say `input.scheme`.
 */

/** `PayloadType('CreateSite', 'site', () => SiteModel)` is `type CreateSitePayload { site: Site! }`. */
export function PayloadType<K extends string>(
  mutation: string,
  field: K,
  type: ReturnTypeFunc,
): Type<Record<K, unknown>> {
  @ObjectType(`${mutation}Payload`)
  class Payload {}
  Field(type)(Payload.prototype, field);
  return Payload as Type<Record<K, unknown>>;
}

export interface IdInput {
  id: string;
}

/** The input of a mutation that needs only its object's id: `input DeleteSiteInput { id: ID! }`. */
export function IdInputType(mutation: string, description?: string): Type<IdInput> {
  @InputType(`${mutation}Input`)
  class Input implements IdInput {
    @Field(() => ID, { description }) id!: string;
  }
  return Input;
}
