// `did_you_mean`: on an answer whose `q` found nothing, the rewrite of `q` that finds something (the list's
// meta.did_you_mean, suggest's did_you_mean), with what it finds and the same request with it. Absent otherwise, so
// an answer with results is the body it always was.
import { record, Type, type Static } from '../wire/bodySchema.js';

export const DidYouMeanSchema = (found: string) =>
  Type.Optional(
    record(
      {
        q: Type.String({
          minLength: 1,
          description:
            '`q` rewritten: the nearest words the index holds, a word it does not hold left out, words joined or ' +
            'split; its operators and qualifiers as written.',
        }),
        total: Type.Integer({ minimum: 1, description: found }),
        url: Type.String({ format: 'uri', description: 'The same request with that q.' }),
      },
      'Only when q found nothing and a rewrite of it finds something: what the person most likely meant (the ' +
        'fewest words changed, then the most common words).',
    ),
  );

export type DidYouMeanBody = Static<ReturnType<typeof DidYouMeanSchema>>;
