// The dimensions PPAs are counted by (facets, roll-ups, statistics) as one markdown table, generated from the
// dimension table (indexContract/dimensions.ts), in docs/api.md's roll-ups.
import { DIMENSIONS, type Dimension } from '../../indexContract/dimensions.js';
import { markdownTable, type GeneratedSection } from './section.js';

/** A value's type and bounds, from its schema. */
function valueText({ schema }: Dimension): string {
  if (schema.type === 'integer') return `integer ${schema.minimum}–${schema.maximum}`;
  if ('pattern' in schema) return `\`${schema.pattern}\``;
  return 'a name, as spelled (grouped case- and accent-insensitively)';
}

function facetText({ facet }: Dimension): string {
  if (!facet) return '—';
  const counted = facet.disjunctive ? 'under every other filter' : 'under all filters';
  const order = facet.order === 'value_desc' ? 'value descending' : 'count descending';
  return `\`${facet.name}\` (${counted}; ${order})`;
}

export const DIMENSIONS_SECTION: GeneratedSection = {
  name: 'dimensions',
  source: 'indexContract/dimensions.ts',
  documents: ['docs/api.md'],
  text: () =>
    markdownTable(
      ['Dimension', '`group_by`', 'Facet (`facets`)', 'Values', 'Index field'],
      Object.values(DIMENSIONS as Record<string, Dimension>).map((dimension) => [
        dimension.label,
        `\`${dimension.group}\``,
        facetText(dimension),
        `${valueText(dimension)}${dimension.several ? '; several per PPA' : ''}`,
        `\`${dimension.field}\``,
      ]),
    ),
};
