// The JSON of one change-log event (docs/api.md, "Changes and feeds"): shared by the changes list and the feed.
import { CHANGE_REASONS, type ChangeType } from '../../indexContract/changeLog.js';
import { oneOf, record, timestamp, Type, type Static } from '../wire/bodySchema.js';
import { ppaSummaryProperties } from './ppa.js';

const CHANGE_TYPES = ['upsert', 'remove'] as const satisfies readonly ChangeType[];

/** One event (component ChangeEvent of the document). */
export const ChangeEventSchema = record(
  {
    token: Type.String({
      maxLength: 40,
      description: 'Opaque; since=<token> returns the events after this one.',
    }),
    type: oneOf(CHANGE_TYPES, {
      description: 'upsert: the detail now answers this item; remove: the detail now answers 404.',
    }),
    reason: oneOf(CHANGE_REASONS),
    slug: ppaSummaryProperties.slug,
    at: timestamp('When the change reached the index (UTC).'),
    item: record(
      { ...ppaSummaryProperties, active: Type.Boolean() },
      'The list item (plus active) as served after an upsert, or as last served before a removal.',
    ),
  },
  'One change to what the API serves. Apply every event in order to an export taken at its Changes-Since ' +
    'and the result is the live set: an upsert replaces the PPA (one with active false leaves the list), a ' +
    'remove deletes it.',
);
export type ChangeEvent = Static<typeof ChangeEventSchema>;

/** The list item as served after an upsert, or as last served before a removal, plus `active`. */
export type ChangeItem = ChangeEvent['item'];
