// Highlights: the matching model (typoRules.ts, textFields.ts, queryText.ts) evaluated against the served values, so
// that a word is marked where the search let it match.
//
// Recomputed here rather than asked of Elasticsearch's highlighter: the index holds folded and expanded forms of the
// names (name_folded, name_canonical, name_compact, name_joined, the dropped-letter spellings…), so the offsets
// Elasticsearch would give point into those forms, not into the served text ("photovoltaic" in name_canonical for
// "PV" in the name, "kafuegorge" in name_joined for two words). Recomputing with the same canonical forms
// (indexContract/text/) on the served values is exact, pure, and costs Elasticsearch nothing; it runs only when
// highlight=true is asked. Its cost is the API's (its budget and figures: docs/performance.md; `npm run bench --
// highlights`).
import { TEXT_FIELD_RULES } from '../textFields.js';
import type { MatchMode } from '../typoRules.js';
import { countryVocabulary, descriptorWords, technologyVocabulary } from './descriptors.js';
import type { Highlights, HighlightSource, HighlightTextField } from './itemHighlights.js';
import type { SearchText } from '../queryText.js';
import { allowedIn, namePlanOf, writtenPlanOf, type QueryPlan } from './queryPlan.js';
import { newValueScratch, valueSpans, type ValueScratch } from './valueSpans.js';

import type { ServedWordForms } from './servedWordForms.js';

export { ServedWordForms } from './servedWordForms.js';

/** One answer's highlighting: `q` read once, a plan per field (each by its rules), the working space. */
interface Answer {
  /** Each text field's plan: the project name's by the mode's rules, the others' by theirs (textFields.ts). */
  plans: Record<HighlightTextField, QueryPlan>;
  scratch: ValueScratch;
}

/**
 * The plans of the text fields. The developer and the location share one unless a qualifier tells them apart: a
 * served word's bits are remembered per plan, and both fields hold many of the same words.
 */
function plansOf(name: QueryPlan): Record<HighlightTextField, QueryPlan> {
  const made = new Map<string, QueryPlan>();
  const planOf = (field: HighlightTextField): QueryPlan => {
    const rules = TEXT_FIELD_RULES[field];
    if (rules === 'name') return name;
    const allowed = allowedIn(name.words, field);
    const key = `${rules} ${allowed}`;
    let plan = made.get(key);
    if (plan === undefined) {
      plan = writtenPlanOf(name, allowed, rules);
      made.set(key, plan);
    }
    return plan;
  };
  return {
    project_name: planOf('project_name'),
    developer: planOf('developer'),
    location: planOf('location'),
    reference_code: planOf('reference_code'),
  };
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
 * answer (its items share developers, places and words); the served words' forms in `wordForms`, the app's (kept
 * across answers), or when none is given, kept for this answer alone.
 */
export function highlighter(
  q: string | SearchText,
  mode: MatchMode = 'list',
  wordForms?: ServedWordForms,
): (source: HighlightSource) => Highlights {
  const answer: Answer = { plans: plansOf(namePlanOf(q, mode)), scratch: newValueScratch(wordForms) };
  return (source) => highlightsOf(answer, source);
}

/** The spans of one field's value into `highlights` (none when absent, null or empty); the words of `q` it named. */
function fieldSpans(
  answer: Answer,
  highlights: Highlights,
  field: HighlightTextField,
  value: string | null | undefined,
): number {
  if (typeof value !== 'string' || value === '') return 0;
  const spans = valueSpans(answer.plans[field], answer.scratch, value, field);
  if (spans !== undefined) highlights[field] = spans;
  return answer.scratch.matched;
}

function highlightsOf(answer: Answer, source: HighlightSource): Highlights {
  const highlights: Highlights = {};
  const plan = answer.plans.project_name;
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
