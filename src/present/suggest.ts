// Suggest hits → { data: [{ slug, project_name, technology, country_code, url }] }.
import type { estypes } from '@elastic/elasticsearch';
import type { ListSource } from '../../indexContract/sourceFields.js';
import { ppaUrl } from './ppa.js';

export type SuggestSource = Pick<ListSource, 'slug' | 'project_name' | 'technology' | 'country_code'>;

export interface Suggestion {
  slug: string;
  project_name: string;
  technology: string;
  country_code: string | null;
  url: string;
}

export function presentSuggestions(
  response: estypes.SearchResponse<SuggestSource>,
  base: string,
): { data: Suggestion[] } {
  return {
    data: response.hits.hits.flatMap((hit) =>
      hit._source
        ? [
            {
              slug: hit._source.slug,
              project_name: hit._source.project_name,
              technology: hit._source.technology,
              country_code: hit._source.country_code ?? null,
              url: ppaUrl(base, hit._source.slug),
            },
          ]
        : [],
    ),
  };
}
