import { Scalar, type CustomScalar } from '@nestjs/graphql';
import { Kind, type ValueNode } from 'graphql';

/**
 * Free-form JSON for the sitemap extensions (images, videos, news): the ingest validates their
 * fields. A Nest scalar class rather than a GraphQLScalarType, so Nest builds the type with its own
 * copy of graphql (vitest may load the ESM one for this file).
 */
@Scalar('JSON')
export class JsonScalar implements CustomScalar<unknown, unknown> {
  description = 'Any JSON value';

  parseValue(value: unknown): unknown {
    return value;
  }

  serialize(value: unknown): unknown {
    return value;
  }

  parseLiteral(node: ValueNode, variables?: Record<string, unknown> | null): unknown {
    switch (node.kind) {
      case Kind.STRING:
      case Kind.BOOLEAN:
        return node.value;
      case Kind.INT:
      case Kind.FLOAT:
        return Number(node.value);
      case Kind.NULL:
        return null;
      case Kind.LIST:
        return node.values.map((item) => this.parseLiteral(item, variables));
      case Kind.OBJECT:
        return Object.fromEntries(
          node.fields.map((field) => [field.name.value, this.parseLiteral(field.value, variables)]),
        );
      case Kind.VARIABLE:
        return variables?.[node.name.value];
      default:
        return undefined;
    }
  }
}
