// GraphQL types derived from the zod schemas the validator and the OpenAPI document use, so the
// three cannot drift: a field added to `videoSchema` is a field of `Video` and `VideoInput`.
// Objects become an object type and an input type; enums become GraphQL enums whose values are
// the protocol's own words (`daily`, `allow`), as REST takes them. Fields typed `unknown` (the
// retired extension fields, accepted by REST with a warning and never written) have no GraphQL type
// and are left out.
import type { Type } from '@nestjs/common';
import { Field, Float, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { z } from 'zod';

type GraphqlType = Type<unknown> | object | typeof String | typeof Boolean;

interface Unwrapped {
  inner: z.ZodType;
  optional: boolean;
  description: string | undefined;
}

function unwrap(schema: z.ZodType): Unwrapped {
  let inner = schema;
  let optional = false;
  let description = schema.description;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable || inner instanceof z.ZodDefault) {
    optional = true;
    inner = inner.unwrap() as z.ZodType;
    description ??= inner.description;
  }
  return { inner, optional, description };
}

const enums = new Map<string, { name: string; ref: Record<string, string> }>();

/**
 * A GraphQL enum of these values (the same words as REST). One enum per set of values: a second
 * call with the same values returns the first enum, a different name for it is refused.
 */
export function graphqlEnum<const T extends string>(
  name: string,
  values: readonly T[],
  description?: string,
): Record<T, T> {
  const key = values.join('|');
  const known = enums.get(key);
  if (known) {
    if (known.name !== name) throw new Error(`enum ${name} has the values of ${known.name}`);
    return known.ref as Record<T, T>;
  }
  const ref = Object.fromEntries(values.map((value) => [value, value])) as Record<T, T>;
  registerEnumType(ref, { name, ...(description ? { description } : {}) });
  enums.set(key, { name, ref });
  return ref;
}

export interface DerivedTypes {
  output: Type<unknown>;
  input: Type<unknown>;
  /** Field names of the GraphQL types: the schema's, less the untyped (retired) ones. */
  fields: string[];
}

/**
 * Names of the types an object schema and its nested objects and enums get, keyed by the schema
 * instance (objects) or by the joined values (enums). A nested object or enum without a name is
 * an error at boot, so every name in the GraphQL schema is chosen on purpose.
 */
export interface ZodGraphqlNames {
  objects: Map<z.ZodType, string>;
  enums: Record<string, string>;
}

const derived = new Map<z.ZodType, DerivedTypes>();

export function typesFromZod(schema: z.ZodObject, names: ZodGraphqlNames): DerivedTypes {
  const existing = derived.get(schema);
  if (existing) return existing;
  const name = names.objects.get(schema);
  if (!name)
    throw new Error(`no GraphQL name for an object schema with fields ${Object.keys(schema.shape).join(', ')}`);

  class Output {}
  class Input {}
  Object.defineProperty(Output, 'name', { value: `${name}Model` });
  Object.defineProperty(Input, 'name', { value: `${name}Input` });
  const fields: string[] = [];
  for (const [field, fieldSchema] of Object.entries(schema.shape) as [string, z.ZodType][]) {
    const { inner, optional, description } = unwrap(fieldSchema);
    const types = graphqlTypesOf(inner, names, `${name}.${field}`);
    if (!types) continue;
    fields.push(field);
    const options = { nullable: optional, ...(description ? { description } : {}) };
    // Read from the JSON the row already holds: the extension field is counted, not its parts.
    Field(() => types.output, { ...options, complexity: 0 })(Output.prototype, field);
    Field(() => types.input, options)(Input.prototype, field);
  }
  const description = schema.description;
  ObjectType(name, description ? { description } : {})(Output);
  InputType(`${name}Input`, description ? { description } : {})(Input);
  const result = { output: Output, input: Input, fields };
  derived.set(schema, result);
  return result;
}

function graphqlTypesOf(
  schema: z.ZodType,
  names: ZodGraphqlNames,
  where: string,
): { output: GraphqlType | [GraphqlType]; input: GraphqlType | [GraphqlType] } | null {
  if (schema instanceof z.ZodString) return { output: String, input: String };
  if (schema instanceof z.ZodBoolean) return { output: Boolean, input: Boolean };
  if (schema instanceof z.ZodNumber) {
    const type = schema.isInt ? Int : Float;
    return { output: type, input: type };
  }
  if (schema instanceof z.ZodEnum) {
    const values = schema.options.map(String);
    const enumName = names.enums[values.join('|')];
    if (!enumName) throw new Error(`no GraphQL enum name for ${where} (${values.join(', ')})`);
    const ref = graphqlEnum(enumName, values);
    return { output: ref, input: ref };
  }
  if (schema instanceof z.ZodObject) {
    const types = typesFromZod(schema, names);
    return { output: types.output, input: types.input };
  }
  if (schema instanceof z.ZodArray) {
    const element = graphqlTypesOf(unwrap(schema.element as z.ZodType).inner, names, `${where}[]`);
    if (!element || Array.isArray(element.output) || Array.isArray(element.input))
      throw new Error(`${where}: only lists of scalars, enums and objects have a GraphQL type`);
    return { output: [element.output], input: [element.input] };
  }
  if (schema instanceof z.ZodUnknown) return null;
  throw new Error(`${where}: no GraphQL type for zod's ${schema.def.type}`);
}
