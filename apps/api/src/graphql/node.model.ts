import { Field, ID, InterfaceType } from '@nestjs/graphql';

/** The object types `node(id:)` resolves, by their GraphQL names. */
export type NodeTypeName = 'Site' | 'Build' | 'Webhook' | 'WebhookDelivery' | 'ApiKey';

/** A node as `node(id:)` answers it: the object's view, tagged with its type for `resolveType`. */
export type TypedNode = { id: string; __typename: NodeTypeName };

/**
 * Relay's Node. Every object with a stable id has a uuid from the database (gen_random_uuid), unique
 * across tables in practice, so the uuid itself is the global id: the `id` a client reads from `site`,
 * `build` or REST is the one it passes to `node(id:)`, with no opaque encoding to translate.
 */
@InterfaceType('Node', {
  description: 'an object with a global id; fetch any of them again with node(id:)',
  resolveType: (node: TypedNode) => node.__typename,
})
export abstract class NodeModel {
  @Field(() => ID) id!: string;
}
