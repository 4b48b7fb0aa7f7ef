import type { ScalarType } from '../ast';
import { isScalarType } from '../types';
import type { FieldInfo as CatalogueFieldInfo } from './entries';
import { MAGIC_FIELDS } from './generated/magic';

export type { FieldValueKind } from './entries';
export { TCP_FLAG_BITS, hexByte } from './tcp-flags';

/**
 * A field of the magic_transit table: every one is a scalar. The code written for that phase
 * reads FIELDS; code for every phase reads catalogueFor(phase) (catalogues.ts) instead.
 */
export type FieldInfo = CatalogueFieldInfo & { readonly type: ScalarType };

function scalarFields(fields: readonly CatalogueFieldInfo[]): readonly FieldInfo[] {
  for (const field of fields) if (!isScalarType(field.type)) throw new Error(`the packet field ${field.name} is not a scalar`);
  return fields as readonly FieldInfo[];
}

/** Fields of the `magic_transit` phase (LANGUAGE.md §5), generated: generated/magic.ts. */
export const FIELDS: ReadonlyMap<string, FieldInfo> = new Map(scalarFields(MAGIC_FIELDS).map((f) => [f.name, f]));

/**
 * Phases whose field table is complete: only there is an unknown field reported. Elsewhere
 * the known fields are still type-checked, but a field we have no entry for may well exist.
 */
const PHASES_WITH_COMPLETE_FIELD_TABLE: ReadonlySet<string> = new Set(['magic_transit']);

export function hasCompleteFieldTable(phase: string | undefined): boolean {
  return phase !== undefined && PHASES_WITH_COMPLETE_FIELD_TABLE.has(phase);
}

export function describeType(type: ScalarType): string {
  switch (type) {
    case 'Integer':
      return 'Integer';
    case 'Ip':
      return 'IP address';
    case 'Bytes':
      return 'String';
    case 'Boolean':
      return 'Boolean';
  }
}
