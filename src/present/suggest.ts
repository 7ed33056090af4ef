// Suggest hits → { data: [{ slug, project_name, technology, country_code, url }] }.
import type { estypes } from '@elastic/elasticsearch';
import type { ListSource } from '../../indexContract/sourceFields.js';
import { record, Type, type Static } from '../wire/bodySchema.js';
import { ppaSummaryProperties, ppaUrl } from './ppa.js';
import { MAX_SUGGEST_LIMIT, type SuggestQuery } from '../params/suggest.js';
import { highlighter, type ServedWordForms } from '../matching/highlight/highlighter.js';
import { HighlightsSchema } from './highlights.js';
import { DidYouMeanSchema } from './didYouMean.js';
import { withParameters } from './links.js';
import { API_PATHS } from '../http/apiPath.js';
import type { DidYouMean } from '../queries/didYouMean.js';

export type SuggestSource = Pick<ListSource, 'slug' | 'project_name' | 'technology' | 'country_code'>;

/** The suggestions body (component Suggestions of the document). */
export const SuggestionsSchema = record({
  data: Type.Array(
    record({
      slug: ppaSummaryProperties.slug,
      project_name: ppaSummaryProperties.project_name,
      technology: ppaSummaryProperties.technology,
      country_code: ppaSummaryProperties.country_code,
      url: ppaSummaryProperties.url,
      highlights: Type.Optional(HighlightsSchema),
    }),
    { maxItems: MAX_SUGGEST_LIMIT, description: 'Best first.' },
  ),
  did_you_mean: DidYouMeanSchema('PPAs whose names it would suggest.'),
});
export type SuggestionsBody = Static<typeof SuggestionsSchema>;
export type Suggestion = SuggestionsBody['data'][number];

/**
 * The highlighter of a suggest query (undefined: none asked). Made before the search is sent, as the list's is
 * (highlighterFor in list.ts): reading `q` then uses code and data the search's own body just used.
 */
export const suggestHighlighterFor = (
  query: Pick<SuggestQuery, 'q' | 'highlight'> | undefined,
  wordForms?: ServedWordForms,
): ReturnType<typeof highlighter> | undefined =>
  query?.highlight ? highlighter(query.q, 'suggest', wordForms) : undefined;

/**
 * A rewrite of `q` to offer (null: none was looked for, under pressure), and the request it is offered on (the
 * suggestion URL keeps its other parameters).
 */
export interface SuggestionOffer {
  didYouMean: DidYouMean | null;
  request: { base: string; querystring: string };
}

export function presentSuggestions(
  response: estypes.SearchResponse<SuggestSource>,
  base: string,
  query?: Pick<SuggestQuery, 'q' | 'highlight'>,
  highlight = suggestHighlighterFor(query),
  offer?: SuggestionOffer,
): SuggestionsBody {
  const body: SuggestionsBody = {
    data: response.hits.hits.flatMap((hit) => {
      if (!hit._source) return [];
      const suggestion: Suggestion = {
        slug: hit._source.slug,
        project_name: hit._source.project_name,
        technology: hit._source.technology,
        country_code: hit._source.country_code ?? null,
        url: ppaUrl(base, hit._source.slug),
      };
      // Only when asked: without highlight=true nothing is computed.
      if (highlight) suggestion.highlights = highlight(suggestion);
      return [suggestion];
    }),
  };
  if (offer?.didYouMean === null) body.did_you_mean = null;
  else if (offer) {
    const url = withParameters(offer.request, { q: offer.didYouMean.q }, [], API_PATHS.suggest);
    body.did_you_mean = { ...offer.didYouMean, url };
  }
  return body;
}
