// OCDS packages of PPAs: the record package of one (its release as served now and its compiled release) and the
// release package of a page of the list (compiled releases, with `links.next` while more remain). Pure. What every
// package says of itself (version, uri, publisher, license, publication policy, published date, extensions) is
// built once here; the releases come from the one mapping (./ocdsRelease.ts).
import type { estypes } from '@elastic/elasticsearch';
import type { DetailSource } from '../../indexContract/sourceFields.js';
import { API_PATHS } from '../http/apiPath.js';
import { encodeCursor, positionAfter } from '../params/cursor.js';
import type { OcdsReleasesQuery } from '../params/ocdsReleases.js';
import { record, ref, Type, type Static } from '../wire/bodySchema.js';
import { withParameters } from './links.js';
import { extensionUrl } from './ocdsExtension.js';
import { OcdsReleaseSchema, ppaCompiledRelease, ppaRelease, type OcdsRelease } from './ocdsRelease.js';
import { presentPpa, trimSlash, type PresentedPpa } from './ppa.js';

/** Who publishes the OCDS answers and under which terms (src/config.ts: the OCDS_* variables). */
export interface OcdsPublication {
  ocidPrefix: string;
  publisherName: string;
  /** The URL of the data's license; absent: none is stated. */
  license?: string;
  /** The URL of the publication policy; absent: none is stated. */
  publicationPolicy?: string;
}

/** One answer's package facts: where it was asked, and when the live index was built. */
export interface PackageRequest {
  publication: OcdsPublication;
  /** PUBLIC_BASE_URL or the request's origin. */
  base: string;
  /** The request's absolute URL (its canonical query string): the package's `uri`. */
  uri: string;
  /** When the live index was built (ISO 8601): the body and its ETag hold until the next reindex. */
  publishedDate: string;
}

const uri = (description: string) => Type.String({ format: 'uri', description });

const packageProperties = {
  uri: uri('The request’s absolute URL.'),
  version: Type.Literal('1.1', { description: 'The OCDS version: 1.1 (schema 1.1.5).' }),
  extensions: Type.Array(uri('The project’s extension.json.'), { minItems: 1 }),
  publisher: record({ name: Type.String({ description: 'OCDS_PUBLISHER_NAME.' }) }),
  license: Type.Optional(uri('OCDS_LICENSE, when set.')),
  publicationPolicy: Type.Optional(uri('OCDS_PUBLICATION_POLICY, when set.')),
  publishedDate: Type.String({
    format: 'date-time',
    description: 'When the live index was built: the body changes only with the data.',
  }),
};

/** GET /api/v1/ppas/{slug}/ocds's body (component OcdsRecordPackage). */
export const OcdsRecordPackageSchema = record(
  {
    ...packageProperties,
    records: Type.Array(
      record({
        ocid: Type.String(),
        releases: Type.Array(ref('OcdsRelease', OcdsReleaseSchema), { minItems: 1, maxItems: 1 }),
        compiledRelease: ref('OcdsRelease', OcdsReleaseSchema),
      }),
      { minItems: 1, maxItems: 1 },
    ),
  },
  'An OCDS 1.1 record package holding the PPA’s one record: its release as served now and its compiled release.',
);
export type OcdsRecordPackage = Static<typeof OcdsRecordPackageSchema>;

/** GET /api/v1/ppas/ocds's body (component OcdsReleasePackage). */
export const OcdsReleasePackageSchema = record(
  {
    ...packageProperties,
    releases: Type.Array(ref('OcdsRelease', OcdsReleaseSchema), {
      description:
        'The compiled releases of the page’s PPAs, in the list’s order; empty only when nothing matches.',
    }),
    links: Type.Optional(
      record({ next: uri('The next page of the same request (absolute); absent with links on the last.') }),
    ),
  },
  'An OCDS 1.1 release package of compiled releases, one per PPA the same list request selects.',
);
export type OcdsReleasePackage = Static<typeof OcdsReleasePackageSchema>;

function packageHead(request: PackageRequest) {
  const { publication, base } = request;
  return {
    uri: request.uri,
    version: '1.1' as const,
    extensions: [extensionUrl(base)],
    publisher: { name: publication.publisherName },
    ...(publication.license ? { license: publication.license } : {}),
    ...(publication.publicationPolicy ? { publicationPolicy: publication.publicationPolicy } : {}),
    publishedDate: request.publishedDate,
  };
}

/** The record package of one PPA. */
export function ocdsRecordPackage(ppa: PresentedPpa, request: PackageRequest): OcdsRecordPackage {
  const { ocidPrefix } = request.publication;
  const release = ppaRelease(ppa, ocidPrefix);
  return {
    ...packageHead(request),
    records: [
      { ocid: release.ocid, releases: [release], compiledRelease: ppaCompiledRelease(ppa, ocidPrefix) },
    ],
  };
}

/** The release package of a page: its PPAs' compiled releases, and the next page's URL while more remain. */
export function ocdsReleasePackage(
  releases: OcdsRelease[],
  request: PackageRequest,
  next: string | null,
): OcdsReleasePackage {
  return { ...packageHead(request), releases, ...(next ? { links: { next } } : {}) };
}

/** A page of the release package: the request as the list's, and the package facts. */
export interface ReleasePageRequest extends Omit<PackageRequest, 'uri'> {
  query: OcdsReleasesQuery;
  /** The canonical query string: the uri and links.next keep every parameter as it stands there. */
  querystring: string;
}

/**
 * The release package of a page from the search's hits (the page and one more, when more remain): the page's
 * compiled releases, links.next from the cursor after its last record, and the Link header with the same URLs.
 */
export function ocdsReleasePage(
  hits: readonly estypes.SearchHit<DetailSource>[],
  request: ReleasePageRequest,
): { body: OcdsReleasePackage; link: string } {
  const { query, base, publication } = request;
  const page = hits.slice(0, query.perPage);
  const releases = page.flatMap((hit) =>
    hit._source ? [ppaCompiledRelease(presentPpa(hit._source, base), publication.ocidPrefix)] : [],
  );
  const lastSort = hits.length > query.perPage ? page[page.length - 1]?.sort : undefined;
  const at = (replace: Record<string, string>) =>
    withParameters(request, replace, [], API_PATHS.ocdsReleases);
  const next = lastSort ? at({ cursor: encodeCursor(query, positionAfter(lastSort)) }) : null;
  const uri = request.querystring ? at({}) : `${trimSlash(base)}${API_PATHS.ocdsReleases}`;
  const body = ocdsReleasePackage(releases, { ...request, uri }, next);
  return { body, link: [`<${uri}>; rel="self"`, ...(next ? [`<${next}>; rel="next"`] : [])].join(', ') };
}
