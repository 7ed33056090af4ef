// `fields`: which fields each list item carries (slug and url always). Shared by the list and the export.
import Type from 'typebox';
import { LIST_SOURCE_FIELDS } from '../../indexContract/sourceFields.js';

/** The item fields a client may choose: every list field; `url` is derived from `slug` and always present. */
export const ITEM_FIELDS = LIST_SOURCE_FIELDS;
export type ItemField = (typeof ITEM_FIELDS)[number];

/**
 * The red flags' evidence: a list item carries it only when `fields` names it (it is derived per item, from the
 * detail's fields: never paid for by default). The list takes it; the export's columns do not.
 */
export const EVIDENCE_FIELD = 'flag_evidence';

/** Names a client may send: the item fields, and url (always there anyway, so naming it is harmless). */
const FIELD_NAMES = [...ITEM_FIELDS, 'url'];

/**
 * `fields`, with what the operation adds to its description (the export: its default) and the names it takes
 * beyond the item fields (the list: the evidence).
 */
export const fieldsParameter = (more = '', extra: readonly string[] = []) =>
  Type.Optional(
    Type.Array(Type.Unsafe<string>({ type: 'string', enum: [...FIELD_NAMES, ...extra] }), {
      minItems: 1,
      maxItems: (ITEM_FIELDS.length + extra.length) * 2,
      description:
        'Only these fields in each item, joined by "," (slug and url are always there). An unknown name is 400. ' +
        `Names: ${[...FIELD_NAMES, ...extra].join(', ')}.${more}`,
    }),
  );

/** The chosen fields, each once, in the order of ITEM_FIELDS, with slug always among them. */
export function toItemFields(values: readonly string[]): ItemField[] {
  const chosen = new Set<string>([...values, 'slug']);
  return ITEM_FIELDS.filter((field) => chosen.has(field));
}
