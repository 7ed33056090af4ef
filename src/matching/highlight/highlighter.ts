// Highlights: the matching model (typoRules.ts, fields.ts, queryText.ts) evaluated against the served values, so
// that a word is marked where the search let it match.
//
// Recomputed here rather than asked of Elasticsearch's highlighter: the index holds folded and expanded forms of the
// names (name_folded, name_canonical, name_compact, name_joined, the dropped-letter spellings…), so the offsets
// Elasticsearch would give point into those forms, not into the served text ("photovoltaic" in name_canonical for
// "PV" in the name, "kafuegorge" in name_joined for two words). Recomputing with the same canonical forms
// (indexContract/text/) on the served values is exact, pure, and costs Elasticsearch nothing; it runs only when
// highlight=true is asked. Its cost is the API's (its budget and figures: docs/performance.md; `npm run bench --
// highlights`).
import { TEXT_FIELD_RULES } from '../fields.js';
import type { MatchMode } from '../typoRules.js';
import { countryVocabulary, descriptorWords, technologyVocabulary } from './descriptors.js';
import type { Highlights, HighlightSource, HighlightTextField } from './highlights.js';
import { namePlanOf, writtenPlanOf, type QueryPlan } from './queryPlan.js';
import { newValueScratch, valueSpans, type ValueScratch } from './valueSpans.js';

export { forgetHighlightCaches } from './servedWordForms.js';

/** One answer's highlighting: `q` read once, a plan per field (each by its rules), the working space. */
interface Answer {
  /** The project name's plan (the mode's rules). */
  name: QueryPlan;
  /** The other fields' plans (fields.ts: 'text' or 'exact'), each made when first needed. */
  others: Partial<Record<HighlightTextField, QueryPlan>>;
  scratch: ValueScratch;
}

/**
 * The highlights of one item for `q`: for each text field searched that a word of `q` names, the spans of the
 * words it names; technology/country_code true for a word of `q` that names none of them but names the PPA's
 * technology or country. Fields absent or null in `source` get no spans. Empty object when nothing is named.
 */
export function computeHighlights(q: string, source: HighlightSource, mode: MatchMode = 'list'): Highlights {
  return highlighter(q, mode)(source);
}

/**
 * computeHighlights for the items of one answer: `q` is read once, and what its words name is remembered for the
 * answer (its items share developers, places and words).
 */
export function highlighter(q: string, mode: MatchMode = 'list'): (source: HighlightSource) => Highlights {
  const answer: Answer = { name: namePlanOf(q, mode), others: {}, scratch: newValueScratch() };
  return (source) => highlightsOf(answer, source);
}

/** The plan a field's words are compared by (fields.ts). */
function planOf(answer: Answer, field: HighlightTextField): QueryPlan {
  const rules = TEXT_FIELD_RULES[field];
  return rules === 'name' ? answer.name : (answer.others[field] ??= writtenPlanOf(answer.name, field, rules));
}

/** The spans of one field's value into `highlights` (none when absent, null or empty); the words of `q` it named. */
function fieldSpans(
  answer: Answer,
  highlights: Highlights,
  field: HighlightTextField,
  value: string | null | undefined,
): number {
  if (typeof value !== 'string' || value === '') return 0;
  const spans = valueSpans(planOf(answer, field), answer.scratch, value, field === 'reference_code');
  if (spans !== undefined) highlights[field] = spans;
  return answer.scratch.matched;
}

function highlightsOf(answer: Answer, source: HighlightSource): Highlights {
  const highlights: Highlights = {};
  const plan = answer.name;
  if (plan.words.length === 0 && plan.phrases.length === 0) return highlights;
  // The fields read by name, each: items come in many shapes (fields=), and a read by a computed key cost more
  // than the rest of an unmatched value. Suggest searches the project name only.
  let matched = fieldSpans(answer, highlights, 'project_name', source.project_name);
  if (plan.mode === 'list') {
    matched |= fieldSpans(answer, highlights, 'developer', source.developer);
    matched |= fieldSpans(answer, highlights, 'location', source.location);
    matched |= fieldSpans(answer, highlights, 'reference_code', source.reference_code);
  }
  if (plan.mode === 'list' && matched !== plan.all) {
    const unmatched = plan.all & ~matched;
    const { technology, country_code: country } = source;
    if (
      technology &&
      (descriptorWords(plan, plan.byTechnology, technology, technologyVocabulary) & unmatched) !== 0
    )
      highlights.technology = true;
    if (country && (descriptorWords(plan, plan.byCountry, country, countryVocabulary) & unmatched) !== 0)
      highlights.country_code = true;
  }
  return highlights;
}
