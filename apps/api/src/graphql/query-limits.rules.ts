// Checked before a query runs, with codes a client can act on. Introspection is not counted in
// depth: its nesting is fixed by the schema, and tools need it.
import { GraphQLError, Kind, type FragmentDefinitionNode, type SelectionSetNode, type ValidationRule } from 'graphql';
import { createComplexityRule, fieldExtensionsEstimator, simpleEstimator } from 'graphql-query-complexity';

export const QUERY_TOO_DEEP = 'QUERY_TOO_DEEP';
export const QUERY_TOO_COMPLEX = 'QUERY_TOO_COMPLEX';

export function depthLimitRule(maxDepth: number): ValidationRule {
  return (context) => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }
    return {
      OperationDefinition(operation) {
        const depth = depthOf(operation.selectionSet, fragments, new Set());
        if (depth > maxDepth) {
          context.reportError(
            new GraphQLError(`query depth ${depth} exceeds the limit of ${maxDepth}`, {
              nodes: [operation],
              extensions: { code: QUERY_TOO_DEEP },
            }),
          );
        }
      },
    };
  };
}

function depthOf(
  set: SelectionSetNode | undefined,
  fragments: Map<string, FragmentDefinitionNode>,
  visiting: Set<string>,
): number {
  let max = 0;
  for (const selection of set?.selections ?? []) {
    if (selection.kind === Kind.FIELD) {
      if (!selection.name.value.startsWith('__'))
        max = Math.max(max, 1 + depthOf(selection.selectionSet, fragments, visiting));
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      max = Math.max(max, depthOf(selection.selectionSet, fragments, visiting));
    } else {
      // Spreads add no level of their own; a cycle is reported by the standard rules.
      const fragment = fragments.get(selection.name.value);
      if (!fragment || visiting.has(fragment.name.value)) continue;
      visiting.add(fragment.name.value);
      max = Math.max(max, depthOf(fragment.selectionSet, fragments, visiting));
      visiting.delete(fragment.name.value);
    }
  }
  return max;
}

/**
 * Aliases let one request run the same field many times (`a1: site(id:…) a2: site(id:…) …`),
 * each a query of its own, for one rate-limit point. Counted through fragment spreads.
 */
export function aliasLimitRule(maxAliases: number): ValidationRule {
  return (context) => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }
    return {
      OperationDefinition(operation) {
        const aliases = aliasesOf(operation.selectionSet, fragments, new Set(), maxAliases + 1);
        if (aliases > maxAliases) {
          context.reportError(
            new GraphQLError(
              `more than ${maxAliases} aliased fields: each runs on its own; send fewer, or several requests`,
              { nodes: [operation], extensions: { code: QUERY_TOO_COMPLEX } },
            ),
          );
        }
      },
    };
  };
}

function aliasesOf(
  set: SelectionSetNode | undefined,
  fragments: Map<string, FragmentDefinitionNode>,
  visiting: Set<string>,
  stopAt: number,
): number {
  let count = 0;
  for (const selection of set?.selections ?? []) {
    if (count >= stopAt) break;
    if (selection.kind === Kind.FIELD) {
      if (selection.alias) count++;
      count += aliasesOf(selection.selectionSet, fragments, visiting, stopAt - count);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      count += aliasesOf(selection.selectionSet, fragments, visiting, stopAt - count);
    } else {
      const fragment = fragments.get(selection.name.value);
      if (!fragment || visiting.has(fragment.name.value)) continue;
      visiting.add(fragment.name.value);
      count += aliasesOf(fragment.selectionSet, fragments, visiting, stopAt - count);
      visiting.delete(fragment.name.value);
    }
  }
  return count;
}

/** Each field costs 1; connection fields multiply what each item asks for by `first` (see connectionComplexity). */
export function costLimitRule(
  maxCost: number,
  variables: Record<string, unknown> | undefined,
  operationName: string | undefined,
): ValidationRule {
  return createComplexityRule({
    maximumComplexity: maxCost,
    estimators: [fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })],
    ...(variables ? { variables } : {}),
    ...(operationName ? { operationName } : {}),
    createError: (max, actual) =>
      new GraphQLError(
        `query cost ${actual} exceeds the limit of ${max}: ask for fewer items (first) or fewer fields`,
        { extensions: { code: QUERY_TOO_COMPLEX } },
      ),
  });
}
