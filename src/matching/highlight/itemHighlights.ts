// What the highlighter gives: why a result matched `q`, as [start, end) spans of the served values in UTF-16 code
// units (what String.prototype.slice takes), or `technology: true` / `country_code: true` when a word of `q`
// named the PPA's technology or country rather than a word of its text.

/** A span of a served value: [start, end) in UTF-16 code units. */
export type Span = [number, number];

/** The text fields marked, in the order a highlights object holds them. */
export const HIGHLIGHT_TEXT_FIELDS = ['project_name', 'developer', 'location', 'reference_code'] as const;
export type HighlightTextField = (typeof HIGHLIGHT_TEXT_FIELDS)[number];

export type Highlights = Partial<Record<HighlightTextField, Span[]>> & {
  technology?: true;
  country_code?: true;
};

/** The values highlights are computed on (the served ones). */
export type HighlightSource = Partial<
  Record<HighlightTextField | 'technology' | 'country_code', string | null>
>;
