// GET /api/v1/parties and /api/v1/parties/{id}: the parameters, declared once, and what the parties' search reads.
import Type from 'typebox';
import { PARTY_ROLE_NAMES, type PartyRole } from '../../indexContract/parties.js';
import { foldText } from '../../indexContract/text/fold.js';
import { NotFoundError } from '../http/problem.js';
import { CURSOR_START, decodeBoundCursor, type Cursor } from './cursor.js';
import { declareQuery, withDefault } from './declare.js';
import {
  MAX_FOLDED_Q_LENGTH,
  MAX_LIST_TOKENS,
  MAX_PARTY_ID_LENGTH,
  MAX_Q_LENGTH,
  MAX_Q_WORDS,
  readSelection,
  type Selection,
} from './filters.js';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, MAX_RESULT_WINDOW } from './list.js';

export const PARTY_SORTS = [
  'ppas_desc',
  'relevance',
  'capacity_desc',
  'guaranteed_desc',
  'name_asc',
] as const;
export type PartySort = (typeof PARTY_SORTS)[number];

export interface PartiesQuery {
  /** `q`'s folded words (at least one), the last one a prefix. */
  words?: string[];
  q?: string;
  roles?: PartyRole[];
  country?: Selection;
  sort: PartySort;
  page: number;
  perPage: number;
  cursor?: Cursor;
}

const PARTY_ID_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
const PARTY_ID = new RegExp(PARTY_ID_PATTERN);

/** The words of a party's name or of `q`: folded, cut at anything but a letter or a digit. */
export const nameWords = (text: string): string[] =>
  foldText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');

/** What a walk of the parties is bound to (paging aside), in one canonical form. */
export const partiesWalkBinding = (query: PartiesQuery): string =>
  JSON.stringify([
    'parties',
    query.words ?? null,
    query.roles ? [...query.roles].sort() : null,
    query.country ? [[...query.country.chosen].sort(), [...query.country.left].sort()] : null,
    query.sort,
  ]);

export const partiesQuery = declareQuery(
  {
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_Q_LENGTH,
        description:
          "Search over the parties' names and aliases: every word must match one, case- and accent-insensitive, " +
          'tolerant of one typo in words of five letters or more, the last word a prefix. Trimmed; blank = absent. ' +
          `At most ${MAX_Q_WORDS} words.`,
      }),
    ),
    role: Type.Optional(
      Type.Array(Type.Unsafe<PartyRole>({ type: 'string', enum: [...PARTY_ROLE_NAMES] }), {
        minItems: 1,
        maxItems: PARTY_ROLE_NAMES.length,
        description: `Parties with one of these roles (OR) in at least one PPA, joined by ",": ${PARTY_ROLE_NAMES.join(', ')}.`,
      }),
    ),
    country: Type.Optional(
      Type.Array(
        Type.String({
          pattern: '^!?[a-z]{2}$',
          description: 'a two-letter country code (ISO 3166-1 alpha-2), or ! and one (left out)',
        }),
        {
          minItems: 1,
          maxItems: MAX_LIST_TOKENS,
          description:
            'Parties with a PPA in one of these countries (OR), joined by ",", case-insensitive; !code leaves out ' +
            'the parties with a PPA there.',
        },
      ),
    ),
    sort: Type.Optional(
      Type.Unsafe<PartySort>({
        type: 'string',
        enum: [...PARTY_SORTS],
        description:
          'Order: ppas_desc (most PPAs; the default without q), relevance (the default with q; requires q), ' +
          'capacity_desc, guaranteed_desc, name_asc (without case and accents); ties by id.',
      }),
    ),
    page: withDefault(
      Type.Integer({
        minimum: 1,
        description: `1-based page number. page × per_page may not exceed ${MAX_RESULT_WINDOW} (400, named by page).`,
      }),
      1,
    ),
    per_page: withDefault(
      Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE, description: `Page size, 1 to ${MAX_PER_PAGE}.` }),
      DEFAULT_PER_PAGE,
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1100,
        description: `Cursor paging: "${CURSOR_START}" starts a walk; each answer's meta.next_cursor continues it (null at the end). Not with page.`,
      }),
    ),
  },
  (params, problems, sent): PartiesQuery => {
    const query: PartiesQuery = { sort: 'ppas_desc', page: params.page, perPage: params.per_page };
    if (params.q !== undefined) {
      const words = nameWords(params.q);
      if (foldText(params.q).length > MAX_FOLDED_Q_LENGTH)
        problems.push({ name: 'q', reason: `is longer than ${MAX_FOLDED_Q_LENGTH} characters once folded` });
      else if (words.length > MAX_Q_WORDS)
        problems.push({ name: 'q', reason: `has ${words.length} words; at most ${MAX_Q_WORDS}` });
      else if (words.length > 0) {
        query.q = params.q;
        query.words = words;
      }
    }
    if (params.role) query.roles = [...new Set(params.role)];
    if (params.country) query.country = readSelection(params.country.map((code) => code.toUpperCase()));
    if (params.sort === 'relevance' && !query.words)
      problems.push({ name: 'sort', reason: 'relevance requires a q with a letter or a digit' });
    query.sort = params.sort ?? (query.words ? 'relevance' : 'ppas_desc');
    const perPageInvalid = problems.some((problem) => problem.name === 'per_page');
    if (params.cursor === undefined && !perPageInvalid && params.page * params.per_page > MAX_RESULT_WINDOW)
      problems.push({ name: 'page', reason: `page × per_page must not exceed ${MAX_RESULT_WINDOW}` });
    if (params.cursor !== undefined) {
      if (sent.has('page'))
        problems.push({ name: 'cursor', reason: 'cursor and page cannot be used together' });
      else if (!problems.some((problem) => ['q', 'sort'].includes(problem.name))) {
        const cursor = decodeBoundCursor(partiesWalkBinding(query), params.cursor);
        if ('problem' in cursor) problems.push({ name: 'cursor', reason: cursor.problem });
        else query.cursor = cursor;
      }
    }
    return query;
  },
);

/** The OpenAPI schema of the path parameter `id`. */
export const partyIdSchema = {
  type: 'string',
  pattern: PARTY_ID_PATTERN,
  maxLength: MAX_PARTY_ID_LENGTH,
  description: 'The party id (lowercase ASCII letters and digits joined by "-"). Unknown or malformed: 404.',
} as const;

/** The id of a party's page, or the 404 an unknown id gets when it is not even well-formed. */
export function partyIdParam(id: string): string {
  if (id.length > MAX_PARTY_ID_LENGTH || !PARTY_ID.test(id)) throw new NotFoundError();
  return id;
}
