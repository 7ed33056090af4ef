// A set of query parameters declared once, as one TypeBox schema: ajv checks requests against it, the OpenAPI
// document lists its properties, the parsed parameters' type is derived from it, and the operation that takes
// it reads what `read` makes of them. Adding a parameter is a property in its declaration (plus what reads it).
import Type, { type Static, type TObject, type TProperties, type TSchema } from 'typebox';
import { BadRequestError, type InvalidParam } from '../http/problem.js';
import { readQueryString } from './querystring.js';
import { paramsValidator, validOnly, type ParameterDoc } from './paramsValidator.js';

/** A parameter with a value when it is not sent: the document shows the default, the parsed type always has it. */
export function withDefault<T extends TSchema>(schema: T, value: Static<T>) {
  return Object.assign(Type.Optional(schema), { default: value }) as ReturnType<typeof Type.Optional<T>> & {
    default: Static<T>;
  };
}

type DefaultedKeys<P extends TProperties> = {
  [K in keyof P]: P[K] extends { default: unknown } ? K : never;
}[keyof P];

/** Parsed parameters: as sent and valid, the defaulted ones always there, the others when sent. */
export type ParamsOf<P extends TProperties> = Static<TObject<P>> & {
  [K in DefaultedKeys<P> & keyof Static<TObject<P>>]-?: Exclude<Static<TObject<P>>[K], undefined>;
};

export interface QueryDeclaration<Q> {
  /** The JSON Schema ajv checks: its properties are the parameters' OpenAPI schemas. */
  schema: TObject;
  /** Each parameter as the OpenAPI document lists it, in declaration order. */
  parameters: ParameterDoc[];
  /** Every name it takes, aliases included. */
  names: readonly string[];
  /**
   * Parses a raw query string; throws BadRequestError naming every problem at once. `unknownReasons`: why a
   * name it does not take is refused, by name (another operation's parameter), else "unknown parameter".
   */
  parse(querystring: string, unknownReasons?: Readonly<Record<string, string>>): Q;
}

export interface DeclareOptions {
  /** Array parameters whose key may repeat, with the other names merged into them (`risk_features[]`). */
  repeatable?: Readonly<Record<string, readonly string[]>>;
}

/**
 * Declares a query. `read` turns the valid parameters into what the operation takes, adding the problems that
 * involve several parameters (a rule is judged only on values valid on their own); `sent` holds every name sent.
 */
export function declareQuery<P extends TProperties, Q>(
  properties: P,
  read: (params: ParamsOf<P>, problems: InvalidParam[], sent: ReadonlySet<string>) => Q,
  options: DeclareOptions = {},
): QueryDeclaration<Q> {
  const schema = Type.Object(properties, { additionalProperties: false });
  const repeatable = options.repeatable ?? {};
  const validator = paramsValidator(schema, { repeatable });
  const required = new Set((schema as { required?: string[] }).required ?? []);
  const defaults = Object.entries(schema.properties).flatMap(([name, property]) =>
    'default' in property ? [[name, (property as { default: unknown }).default] as const] : [],
  );
  return {
    schema,
    parameters: Object.entries(schema.properties).map(([name, property]) => {
      const { description, ...rest } = property as Record<string, unknown>;
      return {
        name,
        in: 'query',
        description: String(description),
        required: required.has(name),
        schema: rest,
        style: 'form',
        explode: name in repeatable,
      };
    }),
    names: Object.keys(schema.properties).flatMap((name) => [name, ...(repeatable[name] ?? [])]),
    parse(querystring, unknownReasons = {}) {
      const raw = readQueryString(querystring);
      const { params, problems } = validator.validate(raw, unknownReasons);
      const valid: Record<string, unknown> = validOnly(params, problems);
      for (const [name, value] of defaults) if (valid[name] === undefined) valid[name] = value;
      const query = read(valid as ParamsOf<P>, problems, raw.names);
      if (problems.length > 0) throw new BadRequestError(problems);
      return query;
    },
  };
}

/** No query parameters (the detail, the OpenAPI document): any name sent, even blank, is refused (400). */
export const NO_QUERY: QueryDeclaration<Record<string, never>> = declareQuery({}, () => ({}));
