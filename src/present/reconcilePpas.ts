// The PPA reconciliation service's own parts: its description (type, properties, extension columns, paths), what a
// PPA is to the scoring (its names: project name and reference code; which property values it agrees with), its
// extension values, its preview card and its entity suggestions.
import type { estypes } from '@elastic/elasticsearch';
import { consortiumMembers, groupKey } from '../../indexContract/counterparties.js';
import { countryNames, countryNameWords } from '../../indexContract/text/countryNames.js';
import { TECHNOLOGY_WORDS } from '../../indexContract/text/canonical.js';
import { foldedWords } from '../../indexContract/text/tokenizer.js';
import { API_PATHS, RECONCILE_PATHS } from '../http/apiPath.js';
import { comparableName } from '../matching/reconcileNames.js';
import type { PropertyValue } from '../params/reconcile.js';
import type { ReconcilePpaSource } from '../queries/reconcilePpasSearch.js';
import type { CandidateFacts, ReconcileType } from './reconcileCandidates.js';
import { previewCard, type ExtendValue, type ServiceDescription } from './reconcileService.js';

export const PPA_TYPE: ReconcileType = { id: 'ppa', name: 'Power Purchase Agreement' };

export const PPA_SERVICE: ServiceDescription = {
  name: 'PPA search: Power Purchase Agreements',
  paths: RECONCILE_PATHS.ppas,
  type: PPA_TYPE,
  viewPath: `${API_PATHS.ppas}/{{id}}`,
  identifierPath: `${API_PATHS.ppas}/`,
  queryProperties: [
    {
      id: 'reference_code',
      name: 'Reference code',
      description: 'The PPA’s reference code ("SN-SOL-2018-001"), case aside.',
    },
    {
      id: 'country',
      name: 'Country',
      description: 'ISO 3166-1 alpha-2 code ("SN") or English name ("Senegal").',
    },
    {
      id: 'technology',
      name: 'Technology',
      description: 'The technology’s code ("solar_pv") or a word for it ("solar", "PV", "hydro").',
    },
    {
      id: 'developer',
      name: 'Developer',
      description: 'The developer or a member of its consortium; legal-form words and punctuation aside.',
    },
    { id: 'year', name: 'Financial close year', description: 'The year of financial close ("2018").' },
  ],
  extendProperties: [
    { id: 'capacity_mw', name: 'Capacity (MW)', description: 'Installed capacity in megawatts.' },
    { id: 'technology', name: 'Technology', description: 'The technology’s code ("solar_pv").' },
    { id: 'country', name: 'Country', description: 'ISO 3166-1 alpha-2 code.' },
    { id: 'developer', name: 'Developer', description: 'The developer as published.' },
    { id: 'year', name: 'Financial close year', description: 'The year of financial close.' },
    { id: 'tariff', name: 'Tariff', description: 'The tariff structure’s code.' },
    {
      id: 'guaranteed_amount_usd',
      name: 'Guaranteed amount (USD)',
      description: 'The amount guaranteed by the state, in US dollars, when disclosed.',
    },
    { id: 'url', name: 'API URL', description: 'The PPA in this API.' },
  ],
};

/** The PPA is in the country: its code (case aside) or one of the country's English names. */
export function inCountry(code: string | null, value: string): boolean {
  if (code === null) return false;
  if (value.trim().toUpperCase() === code.toUpperCase()) return true;
  const words = foldedWords(value).join(' ');
  return countryNameWords(code).includes(words);
}

/** The technology is the value: its code, or one of its words ("solar" for solar_pv). */
export function ofTechnology(technology: string, value: string): boolean {
  const words = foldedWords(value).join(' ');
  if (words.replace(/ /gu, '_') === technology) return true;
  return (TECHNOLOGY_WORDS[technology] ?? []).some((word) => foldedWords(word).join(' ') === words);
}

/** The developer, or a member of its consortium, is the value, legal-form words and punctuation aside. */
export function developedBy(developer: string, value: string): boolean {
  const wanted = comparableName(value);
  return [developer, ...consortiumMembers(developer)].some((name) => comparableName(name) === wanted);
}

/** Whether a PPA has one of the values given for a property. */
function agreesWith(source: ReconcilePpaSource, pid: string, values: readonly PropertyValue[]): boolean {
  return values.some(({ text }) => {
    switch (pid) {
      case 'reference_code':
        return groupKey(text) === groupKey(source.reference_code);
      case 'country':
        return inCountry(source.country_code, text);
      case 'technology':
        return ofTechnology(source.technology, text);
      case 'developer':
        return developedBy(source.developer, text);
      case 'year':
        return source.financial_close_year !== null && text.trim() === String(source.financial_close_year);
      default:
        return false;
    }
  });
}

/** "solar_pv" → "Solar pv": a code as words. */
const asWords = (code: string): string => {
  const words = code.replace(/_/gu, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** One line about a PPA: technology, capacity, country, year and reference code. */
export function describePpa(source: ReconcilePpaSource): string {
  const country = source.country_code ? (countryNames(source.country_code)[0] ?? source.country_code) : null;
  return [
    asWords(source.technology),
    `${source.capacity_mw} MW`,
    country,
    source.financial_close_year === null ? null : String(source.financial_close_year),
    source.reference_code,
  ]
    .filter((part): part is string => part !== null && part !== '')
    .join(' · ');
}

/** What the scoring knows of a PPA: its names are its project name and its reference code. */
export function ppaFacts(source: ReconcilePpaSource): CandidateFacts {
  return {
    id: source.slug,
    name: source.project_name,
    description: describePpa(source),
    names: [source.project_name, source.reference_code],
    agrees: (pid, values) => agreesWith(source, pid, values),
  };
}

/** The sources of a search's hits, in its order. */
export const sourcesOf = (response: estypes.SearchResponse<ReconcilePpaSource>): ReconcilePpaSource[] =>
  response.hits.hits.flatMap((hit) => (hit._source ? [hit._source] : []));

/** One extension column's values for a PPA (none when it has none). */
export function ppaExtendValues(source: ReconcilePpaSource, property: string, base: string): ExtendValue[] {
  const values: Record<string, ExtendValue | null> = {
    capacity_mw: { float: source.capacity_mw },
    technology: { str: source.technology },
    country: source.country_code === null ? null : { str: source.country_code },
    developer: { str: source.developer },
    year: source.financial_close_year === null ? null : { int: source.financial_close_year },
    tariff: { str: source.tariff },
    guaranteed_amount_usd:
      source.fiscal.guaranteed_amount_usd === null ? null : { float: source.fiscal.guaranteed_amount_usd },
    url: { str: `${base}${API_PATHS.ppas}/${source.slug}` },
  };
  const value = values[property];
  return value ? [value] : [];
}

/** The preview card of a PPA. */
export function ppaPreview(source: ReconcilePpaSource, base: string): string {
  return previewCard(source.project_name, `${base}${API_PATHS.ppas}/${source.slug}`, [
    ['Reference code', source.reference_code],
    ['Developer', source.developer],
    ['', describePpa(source)],
  ]);
}

/** Entity suggestions: the suggest search's PPAs, each with its type. */
export function presentSuggestedPpas(
  sources: readonly { slug: string; project_name: string; technology: string; country_code: string | null }[],
) {
  return {
    result: sources.map((source) => ({
      id: source.slug,
      name: source.project_name,
      description: [asWords(source.technology), source.country_code].filter(Boolean).join(' · '),
      notable: [PPA_TYPE],
    })),
  };
}
