// A reconciliation query's candidates, scored and matched from what they are, the same way for every service (PPAs,
// parties): the score is the name's similarity, halved for each given property the candidate does not agree with,
// so a user can recompute it from the features it carries; `match` is the contract's rule and nothing else (a
// match said to the wrong entity is what users of other services complain of most: reconciliation-api/specs#58).
import { groupKey } from '../../indexContract/counterparties.js';
import { nameSimilarity } from '../matching/reconcileNames.js';
import type { PropertyValue, ReconcileQuery } from '../params/reconcile.js';

/** The one type each service's entities have. */
export interface ReconcileType {
  id: string;
  name: string;
}

/** What a service knows of one candidate, for the scoring and the match rule. */
export interface CandidateFacts {
  id: string;
  name: string;
  description: string;
  /**
   * The texts that name the entity, its `name` first: a party's aliases, a PPA's reference code. The query equal to
   * one of them (as a group key) may be a match.
   */
  names: readonly string[];
  /** Whether the entity has one of the values given for a property (the service's own property ids only). */
  agrees(pid: string, values: readonly PropertyValue[]): boolean;
}

export interface Feature {
  id: string;
  value: number | boolean;
}

export interface Candidate {
  id: string;
  name: string;
  score: number;
  match: boolean;
  type: ReconcileType[];
  description: string;
  features: Feature[];
}

/** Each property the candidate does not agree with halves its score. */
export const DISAGREEMENT_FACTOR = 0.5;

/** The feature that says whether a candidate agrees with a property: `country_match`, `role_match`… */
export const propertyFeature = (pid: string): string => `${pid}_match`;

/** The name's similarity to the query: the best of the entity's names (its aliases, a PPA's code). */
function similarityOf(query: string, facts: CandidateFacts): number {
  return Math.max(0, ...facts.names.map((name) => nameSimilarity(query, name)));
}

/** 100 × name_similarity × ½ per property not agreed with, to one decimal. */
export function scoreOf(features: readonly Feature[]): number {
  let score = 100;
  for (const { id, value } of features) {
    if (id === 'name_similarity') score *= Number(value);
    else if (value === false) score *= DISAGREEMENT_FACTOR;
  }
  return Math.round(score * 10) / 10;
}

/** The query is one of the entity's names, as a group key (case, accents and runs of spaces aside). */
const namedBy = (key: string, facts: CandidateFacts): boolean =>
  facts.names.some((name) => groupKey(name) === key);

/**
 * The candidates of one query, best first (score, then a match, then the order they were gathered in), at most
 * `query.limit`. `gathered` is every candidate the search found, in its order: the match rule looks at all of them.
 * A query for another type than the service's has none.
 */
export function rankCandidates(
  query: ReconcileQuery,
  gathered: readonly CandidateFacts[],
  type: ReconcileType,
): Candidate[] {
  if (query.types && !query.types.includes(type.id)) return [];
  const key = groupKey(query.query);
  const named = gathered.filter((facts) => namedBy(key, facts));
  const candidates = gathered.map((facts, order) => {
    const features: Feature[] = [
      { id: 'name_similarity', value: similarityOf(query.query, facts) },
      ...query.properties.map(({ pid, values }) => ({
        id: propertyFeature(pid),
        value: facts.agrees(pid, values),
      })),
    ];
    const agreed = features.every(({ value }) => value !== false);
    const match = named.length === 1 && named[0] === facts && agreed;
    const candidate: Candidate = {
      id: facts.id,
      name: facts.name,
      score: scoreOf(features),
      match,
      type: [type],
      description: facts.description,
      features,
    };
    return { candidate, order };
  });
  candidates.sort(
    (a, b) =>
      b.candidate.score - a.candidate.score ||
      Number(b.candidate.match) - Number(a.candidate.match) ||
      a.order - b.order,
  );
  return candidates.slice(0, query.limit).map(({ candidate }) => candidate);
}
