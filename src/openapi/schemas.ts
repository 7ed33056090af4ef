// Response bodies of the API as JSON Schema 2020-12 (OpenAPI 3.1), written once from api.md and record.md; the
// compiler checks each object's keys against the presenter's type (PropertiesOf).
// Closed objects with every key required: the OpenAPI test validates real answers against them, so a field
// added or dropped by a presenter shows up as a failing test rather than as drifted documentation.
import { MAX_FACET_BUCKETS, type FacetName } from '../params/facets.js';
import { SORT_ORDERS } from '../params/sortOrder.js';
import type { ListLinks, ListMeta } from '../present/list.js';
import type { ChangeEvent } from '../present/changeEvent.js';
import type { ChangesBody } from '../present/changes.js';
import { CHANGE_REASONS } from '../../indexContract/changeLog.js';
import type { PpaDetail, PpaListItem } from '../present/ppa.js';
import type { StatisticsBody } from '../present/statistics.js';
import type { Suggestion } from '../present/suggest.js';

type Schema = Record<string, unknown>;

/**
 * One property schema per key of the response type T (src/present/) and no other: `satisfies PropertiesOf<T>`
 * makes the compiler keep a presenter's type and its documented schema together.
 */
type PropertiesOf<T> = { [K in keyof T]-?: Schema };

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const nullable = (schema: Schema): Schema => ({ ...schema, type: [schema.type as string, 'null'] });

/** A closed object whose every property is required (the API always sends every key). */
function record(properties: Record<string, Schema>, description?: string): Schema {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    additionalProperties: false,
    required: Object.keys(properties),
    properties,
  };
}

const text = (description?: string): Schema => ({ type: 'string', ...(description ? { description } : {}) });
const token = (description: string): Schema => ({ type: 'string', pattern: '^[a-z0-9_]+$', description });
const count = (description: string): Schema => ({ type: 'integer', minimum: 0, description });
const megawatts = (description: string): Schema => ({ type: 'number', minimum: 0, description });
const fraction = (description: string): Schema => ({ type: 'number', minimum: 0, maximum: 1, description });
const timestamp = (description: string): Schema => ({ type: 'string', format: 'date-time', description });
const date = (description: string): Schema => ({ type: ['string', 'null'], format: 'date', description });
const optionalText = (description: string): Schema => ({ type: ['string', 'null'], description });
const optionalAmount = (description: string): Schema => ({
  type: ['number', 'null'],
  minimum: 0,
  description,
});

const ppaSummaryProperties = {
  slug: {
    type: 'string',
    pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$',
    maxLength: 120,
    description: 'Stable identifier.',
  },
  project_name: text('Project name.'),
  developer: text('Developer (sponsor) name.'),
  reference_code: text('Reference code of the agreement.'),
  location: text('Free-text location.'),
  country_code: nullable({ type: 'string', pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2.' }),
  technology: token('Technology token (open set: solar_pv, wind, hydro, …).'),
  tariff: token('Tariff structure token (open set: energy_only, capacity_and_energy, …).'),
  capacity_mw: megawatts('Installed capacity in MW.'),
  financial_close_year: {
    type: ['integer', 'null'],
    minimum: 1900,
    maximum: 2100,
    description: 'Financial close.',
  },
  risk_features: {
    type: 'array',
    items: token('Risk feature token.'),
    uniqueItems: true,
    description: 'Risk features of the agreement (open set).',
  },
  published_at: nullable(timestamp('When the record entered the public catalogue (UTC).')),
  updated_at: timestamp('Last change of the record (UTC).'),
  url: { type: 'string', format: 'uri', description: 'Absolute URL of this PPA in the API.' },
} satisfies PropertiesOf<PpaListItem>;

const capacityShare = record({
  ppas: count('PPAs with the feature.'),
  capacity_mw: megawatts('Their capacity, MW rounded to 0.1.'),
  share_of_capacity: fraction('Their share of the total capacity, rounded to 0.0001.'),
});

const capacityBucket = (key: string, keySchema: Schema, extra: Record<string, Schema> = {}): Schema =>
  record({
    [key]: keySchema,
    ppas: { type: 'integer', minimum: 1, description: 'PPAs in the bucket (never 0).' },
    capacity_mw: megawatts('Their capacity, MW rounded to 0.1.'),
    ...extra,
  });

const facetBuckets = (value: Schema, order: string): Schema => ({
  type: 'array',
  maxItems: MAX_FACET_BUCKETS,
  description: order,
  items: record({ value, count: { type: 'integer', minimum: 1, description: 'PPAs with this value.' } }),
});

const FACET_SCHEMAS: Record<FacetName, Schema> = {
  technology: facetBuckets(
    token('Technology.'),
    'Count descending, then value ascending; under every filter but technology.',
  ),
  tariff: facetBuckets(
    token('Tariff.'),
    'Count descending, then value ascending; under every filter but tariff.',
  ),
  country: facetBuckets(
    { type: 'string', pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2.' },
    'Count descending, then value ascending; under every filter but country. PPAs without a country are no bucket.',
  ),
  year: facetBuckets(
    { type: 'integer', minimum: 1900, maximum: 2100, description: 'Financial close year.' },
    'Year descending; under every filter but year. PPAs without a year are no bucket.',
  ),
  risk_features: facetBuckets(
    token('Risk feature.'),
    'Count descending, then value ascending; under all filters.',
  ),
};

export const responseSchemas: Record<string, Schema> = {
  PpaListItem: {
    ...record(ppaSummaryProperties),
    required: ['slug', 'url'],
    description:
      'A published, active PPA as the list shows it: every field, or only those `fields` names (slug and url always).',
  },

  PpaDetail: record(
    {
      ...ppaSummaryProperties,
      active: {
        type: 'boolean',
        description: 'Whether the PPA is active (the list shows only active ones).',
      },
      offtaker: record({ name: optionalText('Offtaker name.'), type: optionalText('Offtaker type token.') }),
      contract: record({
        signed_date: date('Date signed.'),
        term_years: { type: ['integer', 'null'], minimum: 0, description: 'Term in years.' },
        cod_date: date('Commercial operation date.'),
        currency: { type: ['string', 'null'], pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency.' },
        energy_rate_per_kwh: optionalAmount('Energy rate per kWh, in the contract currency.'),
        capacity_rate_per_kw_month: optionalAmount(
          'Capacity rate per kW and month, in the contract currency.',
        ),
      }),
      fiscal: record({
        annual_payment_obligation_usd: optionalAmount('Annual payment obligation, USD.'),
        guaranteed_amount_usd: optionalAmount('Amount guaranteed by the government, USD.'),
        termination_payment_usd: optionalAmount('Termination payment, USD.'),
      }),
      procurement: record({
        method: optionalText('Procurement method token (competitive_tender, direct_negotiation, …).'),
        method_details: optionalText('Programme or details of the method.'),
        number_of_bidders: { type: ['integer', 'null'], minimum: 0, description: 'Number of bidders.' },
        tender_start: date('Tender start.'),
        tender_end: date('Tender end.'),
        award_date: date('Award date.'),
        procuring_entity: optionalText('Procuring entity.'),
      }),
      versions: {
        type: 'array',
        description: 'Versions of the record, newest first (by date, then version number).',
        items: record({
          version: { type: 'integer', minimum: 0 },
          date: date('Date of the version.'),
          summary: optionalText('What changed.'),
        }),
      },
      documents: {
        type: 'array',
        description: 'Documents, in the order the source lists them.',
        items: record({
          title: text('Document title.'),
          document_type: optionalText('OCDS document type code (contractSigned, …).'),
          url: { type: ['string', 'null'], format: 'uri', description: 'Where the document is published.' },
          published_on: date('Publication date.'),
          format: optionalText('Media type, e.g. application/pdf.'),
          language: optionalText('Language code.'),
        }),
      },
    } satisfies PropertiesOf<PpaDetail>,
    'A published PPA (active or not) with procurement, versions and documents. Unknown values are null.',
  ),

  PpaList: record({
    data: { type: 'array', items: ref('PpaListItem'), maxItems: 100 },
    meta: {
      ...record({
        total: count('Matching PPAs.'),
        page: { type: ['integer', 'null'], minimum: 1, description: 'null in cursor mode.' },
        per_page: { type: 'integer', minimum: 1, maximum: 100 },
        total_pages: {
          type: ['integer', 'null'],
          minimum: 0,
          description: 'ceil(total / per_page); 0 when nothing matches; null in cursor mode.',
        },
        sort: { type: 'string', enum: [...SORT_ORDERS], description: 'The ordering applied.' },
        next_cursor: {
          type: ['string', 'null'],
          description: 'Cursor mode only: the cursor of the next page; null after the last.',
        },
        facets: {
          type: 'object',
          additionalProperties: false,
          description: 'Only with the `facets` parameter: one key per facet asked for.',
          properties: FACET_SCHEMAS,
        },
        changes_since: {
          type: ['string', 'null'],
          maxLength: 40,
          description:
            'Where to follow GET /api/v1/ppas/changes from (its `since`) to keep what this answer shows current; ' +
            "in a cursor walk, the first page's. null while the index has no change log.",
        },
      } satisfies PropertiesOf<ListMeta>),
      required: ['total', 'page', 'per_page', 'total_pages', 'sort', 'changes_since'],
    },
    links: record(
      {
        self: { type: 'string', format: 'uri' },
        first: { type: 'string', format: 'uri' },
        prev: { type: ['string', 'null'], format: 'uri', description: 'null on the first page.' },
        next: {
          type: ['string', 'null'],
          format: 'uri',
          description: 'null on the last page; past 10,000 results it goes on in cursor mode.',
        },
        last: {
          type: ['string', 'null'],
          format: 'uri',
          description: 'Page max(total_pages, 1); null in cursor mode.',
        },
      } satisfies PropertiesOf<ListLinks>,
      'Absolute links keeping every other parameter; the same links are in the Link header.',
    ),
  }),

  PpaDetailResponse: record({ data: ref('PpaDetail') }),

  Suggestions: record({
    data: {
      type: 'array',
      maxItems: 20,
      description: 'Best first.',
      items: record({
        slug: ppaSummaryProperties.slug,
        project_name: ppaSummaryProperties.project_name,
        technology: ppaSummaryProperties.technology,
        country_code: ppaSummaryProperties.country_code,
        url: ppaSummaryProperties.url,
      } satisfies PropertiesOf<Suggestion>),
    },
  }),

  Statistics: record({
    data: record({
      totals: record({
        ppas: count('Matching PPAs.'),
        capacity_mw: megawatts('Their capacity, MW (0.1).'),
      } satisfies PropertiesOf<StatisticsBody['data']['totals']>),
      capacity_by_technology: {
        type: 'array',
        description: 'Largest capacity first.',
        items: capacityBucket('technology', token('Technology.'), {
          share: fraction('Share of the total capacity (0.0001).'),
        }),
      },
      capacity_by_year: {
        type: 'array',
        description: 'By financial close year, ascending; PPAs without a year last, under year null.',
        items: capacityBucket('year', { type: ['integer', 'null'], minimum: 1900, maximum: 2100 }),
      },
      fiscal_exposure: record({
        government_guarantee: capacityShare,
        take_or_pay: capacityShare,
        annual_payment_obligation_usd: count('Sum of the disclosed annual payment obligations, whole USD.'),
        guaranteed_amount_usd: count('Sum of the disclosed guaranteed amounts, whole USD.'),
        ppas_with_disclosed_amounts: count('PPAs with an annual payment obligation or a guaranteed amount.'),
        by_risk_feature: {
          type: 'array',
          description: 'Largest capacity first.',
          items: capacityBucket('risk_feature', token('Risk feature.')),
        },
      } satisfies PropertiesOf<StatisticsBody['data']['fiscal_exposure']>),
      tariff_mix: {
        type: 'array',
        description: 'Most common first.',
        items: capacityBucket('tariff', token('Tariff structure.'), {
          share: fraction('Share of the PPAs (0.0001).'),
        }),
      },
    } satisfies PropertiesOf<StatisticsBody['data']>),
    meta: record({
      generated_at: nullable(
        timestamp(
          'When the live index was built (null only while it is empty): the body changes only on reindex.',
        ),
      ),
    } satisfies PropertiesOf<StatisticsBody['meta']>),
  }),

  Problem: {
    type: 'object',
    description:
      'RFC 9457 problem details. Extension members may be added (the readiness check adds its checks).',
    required: ['type', 'title', 'status', 'detail'],
    properties: {
      type: {
        type: 'string',
        format: 'uri-reference',
        description: '"about:blank": the status says it all.',
      },
      title: text('Short summary of the problem type.'),
      status: { type: 'integer', minimum: 400, maximum: 599 },
      detail: text('What went wrong, for a person to read.'),
      instance: { type: 'string', description: 'The request path and query that had the problem.' },
      invalid_params: {
        type: 'array',
        description: 'For 400: every bad parameter at once.',
        minItems: 1,
        items: record({ name: text('Parameter name as sent.'), reason: text('Why it was refused.') }),
      },
    },
  },

  Liveness: record({ status: { const: 'ok' } }),

  ElasticsearchCheck: record({
    status: {
      type: 'string',
      enum: ['ok', 'down'],
      description: 'down: unreachable, timing out or alias missing.',
    },
    cluster: { type: 'boolean', description: 'The cluster answered.' },
    alias: { type: 'boolean', description: 'The alias (ES_INDEX) exists.' },
    detail: { type: ['string', 'null'] },
  }),

  RateLimitCheck: record({
    status: {
      type: 'string',
      enum: ['ok', 'degraded'],
      description: 'degraded: Redis is away, limits are per instance.',
    },
    store: { type: 'string', enum: ['redis', 'memory'] },
    detail: { type: ['string', 'null'] },
  }),

  SyncCheck: {
    type: 'object',
    required: ['status', 'detail'],
    description:
      'What sync is doing to the live index. "held": a run would remove more than --max-removed of the live PPAs, ' +
      'so nothing of it is applied (the index is still served whole; not a reason to be unready). "unknown": not ' +
      'readable now.',
    properties: {
      status: { type: 'string', enum: ['ok', 'held', 'unknown'] },
      detail: { type: ['string', 'null'] },
      high_water_mark: {
        type: ['string', 'null'],
        description: "Where sync's last complete run read up to.",
      },
      changes_head: {
        type: ['integer', 'null'],
        description: "The change log's last sequence (null: no log).",
      },
      held_since: { type: 'string', format: 'date-time' },
      removals: { type: 'integer', minimum: 0 },
      live: { type: 'integer', minimum: 0 },
      max_removed: { type: 'string' },
    },
  },

  LoadCheck: {
    type: 'object',
    required: ['status', 'detail'],
    description:
      'Admission control in front of Elasticsearch. "shedding": searches beyond what Elasticsearch can take now ' +
      'were refused in the last 10 s (503 overloaded); cached answers are served as usual. Never a reason to be ' +
      'unready: a busy instance is not broken. "unknown": no admission control in this instance.',
    properties: {
      status: { type: 'string', enum: ['ok', 'shedding', 'unknown'] },
      detail: { type: ['string', 'null'] },
      limit: { type: 'integer', minimum: 1, description: 'Searches this instance lets run at once now.' },
      in_flight: { type: 'integer', minimum: 0 },
      queued: { type: 'integer', minimum: 0 },
      refused_total: {
        type: 'integer',
        minimum: 0,
        description: 'Searches refused for overload since start.',
      },
    },
  },

  Readiness: record({
    status: { const: 'ready' },
    elasticsearch: ref('ElasticsearchCheck'),
    rate_limit: ref('RateLimitCheck'),
    sync: ref('SyncCheck'),
    load: ref('LoadCheck'),
  }),

  NotReady: {
    allOf: [ref('Problem')],
    type: 'object',
    required: ['elasticsearch', 'rate_limit', 'sync', 'load'],
    properties: {
      status: { const: 503 },
      elasticsearch: ref('ElasticsearchCheck'),
      rate_limit: ref('RateLimitCheck'),
      sync: ref('SyncCheck'),
      load: ref('LoadCheck'),
    },
  },

  ChangeEvent: record(
    {
      token: {
        type: 'string',
        maxLength: 40,
        description: 'Opaque; since=<token> returns the events after this one.',
      },
      type: {
        type: 'string',
        enum: ['upsert', 'remove'],
        description: 'upsert: the detail now answers this item; remove: the detail now answers 404.',
      },
      reason: { type: 'string', enum: [...CHANGE_REASONS] },
      slug: ppaSummaryProperties.slug,
      at: timestamp('When the change reached the index (UTC).'),
      item: record(
        { ...ppaSummaryProperties, active: { type: 'boolean' } },
        'The list item (plus active) as served after an upsert, or as last served before a removal.',
      ),
    } satisfies PropertiesOf<ChangeEvent>,
    'One change to what the API serves. Apply every event in order to an export taken at its Changes-Since ' +
      'and the result is the live set: an upsert replaces the PPA (one with active false leaves the list), a ' +
      'remove deletes it.',
  ),

  Changes: record({
    data: { type: 'array', items: ref('ChangeEvent'), maxItems: 1000 },
    meta: record({
      next: {
        type: 'string',
        maxLength: 40,
        description:
          'The since of the next request: after the last event here, or, when fewer than limit matched, as far as ' +
          'the log had been read (a filtered follower never scans the same events twice).',
      },
      retained_since: timestamp('The log holds every event since then (CHANGES_RETENTION_DAYS).'),
    } satisfies PropertiesOf<ChangesBody['meta']>),
    links: record({
      self: { type: 'string', format: 'uri' },
      next: { type: 'string', format: 'uri', description: 'This request with since=meta.next.' },
    } satisfies PropertiesOf<ChangesBody['links']>),
  } satisfies PropertiesOf<ChangesBody>),

  OpenApiDocument: {
    type: 'object',
    required: ['openapi', 'info', 'paths'],
    properties: {
      openapi: { type: 'string', pattern: '^3\\.1\\.' },
      info: { type: 'object' },
      paths: { type: 'object' },
    },
  },
};
