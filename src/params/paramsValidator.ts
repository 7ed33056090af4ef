// The one place where query parameters meet ajv: structural rules of the contract (repeated keys, merged
// aliases, comma lists, strict numbers), then the exported JSON Schema, then reasons a person can read.
import { Ajv, type ErrorObject } from 'ajv';
import type { TObject } from 'typebox';
import type { InvalidParam } from '../http/problem.js';
import type { RawParams } from './querystring.js';

/** How a parameter's text becomes the value its schema checks: read off the schema, so the two cannot drift. */
type ParamKind =
  | 'text' // a string (free text or one of an enum), as sent
  | 'integer' // strict decimal integer
  | 'number' // strict decimal number
  | 'integerOrText' // one of two forms (anyOf): a strict decimal integer, else the text as sent
  | 'tokenList' // an array: one value, tokens joined by ","
  | 'repeatedTokens'; // an array under a repeatable key (and its aliases), each value may also join tokens by ","

interface ParamSpec {
  name: string;
  kind: ParamKind;
  /** Other names accepted as the same parameter (merged with it). */
  aliases?: readonly string[];
}

function kindOf(property: Record<string, unknown>): ParamKind {
  const forms = property.anyOf as Record<string, unknown>[] | undefined;
  if (forms?.some((form) => form.type === 'integer')) return 'integerOrText';
  switch (property.type) {
    case 'integer':
      return 'integer';
    case 'number':
      return 'number';
    case 'array':
      return 'tokenList';
    default:
      return 'text';
  }
}

/** A JSON Schema object for a set of query parameters (src/params/declare.ts makes it). */
export type ParamsSchema = TObject;

/** One query parameter as the OpenAPI document describes it. */
export interface ParameterDoc {
  name: string;
  in: 'query';
  description: string;
  required: boolean;
  schema: Record<string, unknown>;
  /** OpenAPI serialisation: comma lists are form/explode:false, repeatable keys form/explode:true. */
  style: 'form';
  explode: boolean;
}

export type ParsedParams = Record<string, string | number | string[]>;

const ajv = new Ajv({ allErrors: true, strict: true, strictNumbers: true, coerceTypes: false });

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

export interface ParamsValidator {
  /** `unknownReasons`: why a name this schema does not take is refused, by name; else "unknown parameter". */
  validate(
    raw: RawParams,
    unknownReasons?: Readonly<Record<string, string>>,
  ): { params: ParsedParams; problems: InvalidParam[] };
}

export interface ParamsValidatorOptions {
  /** Array parameters whose key may repeat, with the other names merged into them (`risk_features[]`). */
  repeatable?: Readonly<Record<string, readonly string[]>>;
}

export function paramsValidator(schema: ParamsSchema, options: ParamsValidatorOptions = {}): ParamsValidator {
  const { repeatable = {} } = options;
  const specs: ParamSpec[] = Object.entries(schema.properties as Record<string, object>).map(
    ([name, property]) => {
      const aliases = repeatable[name];
      return aliases
        ? { name, kind: 'repeatedTokens', aliases }
        : { name, kind: kindOf(property as Record<string, unknown>) };
    },
  );
  const check = ajv.compile(schema);
  const specByName = new Map<string, ParamSpec>();
  for (const spec of specs) {
    specByName.set(spec.name, spec);
    for (const alias of spec.aliases ?? []) specByName.set(alias, spec);
  }

  return {
    validate(raw, unknownReasons = {}) {
      const problems: InvalidParam[] = [];
      // No prototype: a parameter named "__proto__" must be an unknown parameter, not a prototype.
      const input: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      // For merged repeatable parameters: the name each token arrived under, to name it in an error.
      const tokenOrigins = new Map<string, string[]>();

      for (const name of raw.names) {
        if (specByName.has(name)) continue;
        // Unknown names go to ajv (additionalProperties: false) whether blank or not.
        input[name] = raw.values.get(name)?.[0] ?? '';
      }

      for (const spec of specs) {
        const keys = [spec.name, ...(spec.aliases ?? [])];
        if (spec.kind === 'repeatedTokens') {
          const tokens: string[] = [];
          const origins: string[] = [];
          for (const key of keys) {
            for (const value of raw.values.get(key) ?? []) {
              for (const token of splitTokens(value)) {
                tokens.push(token);
                origins.push(key);
              }
            }
          }
          if (tokens.length > 0) {
            input[spec.name] = tokens;
            tokenOrigins.set(spec.name, origins);
          }
          continue;
        }
        const values = raw.values.get(spec.name) ?? [];
        if (values.length > 1) {
          problems.push({ name: spec.name, reason: 'must be given at most once' });
          continue;
        }
        const value = values[0];
        if (value === undefined) continue;
        input[spec.name] = convert(spec.kind, value);
      }

      if (!check(input)) {
        for (const error of check.errors ?? []) {
          problems.push(describe(error, input, schema, tokenOrigins, unknownReasons));
        }
      }
      return { params: input as ParsedParams, problems: dedupe(problems) };
    },
  };
}

function splitTokens(value: string): string[] {
  return value.split(',').map((token) => token.trim().toLowerCase());
}

function convert(kind: ParamKind, value: string): unknown {
  switch (kind) {
    case 'tokenList':
      return splitTokens(value);
    // Non-decimal spellings ("0x10", "Infinity") stay strings, so the schema's type check rejects them.
    case 'integer':
    case 'integerOrText':
      return INTEGER.test(value) ? Number(value) : value;
    case 'number':
      return NUMBER.test(value) ? Number(value) : value;
    default:
      return value;
  }
}

function describe(
  error: ErrorObject,
  input: Record<string, unknown>,
  schema: ParamsSchema,
  tokenOrigins: Map<string, string[]>,
  unknownReasons: Readonly<Record<string, string>>,
): InvalidParam {
  if (error.keyword === 'additionalProperties') {
    const name = String((error.params as { additionalProperty: string }).additionalProperty);
    return {
      name,
      reason: (Object.hasOwn(unknownReasons, name) && unknownReasons[name]) || 'unknown parameter',
    };
  }
  if (error.keyword === 'required') {
    return {
      name: String((error.params as { missingProperty: string }).missingProperty),
      reason: 'is required',
    };
  }
  const [name = '', index] = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  const property = ((schema.properties as Record<string, object>)[name] ?? {}) as Record<string, unknown>;
  if (Array.isArray(property.anyOf)) return { name, reason: formsReason(input[name], property.anyOf) };
  if (index !== undefined) {
    const position = Number(index);
    const origin = tokenOrigins.get(name)?.[position] ?? name;
    const token = (input[name] as unknown[] | undefined)?.[position];
    return { name: origin, reason: itemReason(error, String(token), property) };
  }
  return { name, reason: reasonFor(error, property) };
}

/** Why one value of a list is refused; the item schema's description says what a value must be. */
function itemReason(error: ErrorObject, token: string, property: Record<string, unknown>): string {
  if (token === '') return 'contains an empty value (as in "a,,b" or a trailing ",")';
  const items = (property.items ?? {}) as { enum?: string[]; maxLength?: number; description?: string };
  const shown = `"${token.slice(0, 40)}${token.length > 40 ? '…' : ''}"`;
  if (error.keyword === 'enum') return `${shown} is not one of: ${(items.enum ?? []).join(', ')}`;
  if (error.keyword === 'maxLength') return `${shown} is longer than ${items.maxLength} characters`;
  return `${shown} is not ${items.description ?? 'a valid value'}`;
}

/**
 * Why a value of a parameter of several forms is refused: a number by the bounds of the form that takes numbers,
 * anything else by what each form is (their descriptions).
 */
function formsReason(value: unknown, forms: Record<string, unknown>[]): string {
  const numeric = forms.find((form) => form.type === 'integer' || form.type === 'number');
  if (typeof value === 'number' && numeric) return reasonFor({ keyword: 'maximum' } as ErrorObject, numeric);
  return `must be ${forms.map((form) => String(form.description)).join(', or ')}`;
}

function reasonFor(error: ErrorObject, property: Record<string, unknown>): string {
  const { minimum, maximum, minLength, maxLength, maxItems } = property as Record<string, number | undefined>;
  switch (error.keyword) {
    case 'type':
      return property.type === 'integer' ? 'must be an integer' : `must be a ${String(property.type)}`;
    case 'minimum':
    case 'maximum':
      return maximum === undefined
        ? `must be at least ${minimum}`
        : `must be between ${minimum} and ${maximum}`;
    case 'minLength':
    case 'maxLength':
      return `must be ${minLength} to ${maxLength} characters long`;
    case 'maxItems':
      return `at most ${maxItems} values are allowed`;
    case 'enum':
      return `must be one of: ${(property.enum as string[]).join(', ')}`;
    default:
      return error.message ?? 'is not valid';
  }
}

function dedupe(problems: InvalidParam[]): InvalidParam[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = `${problem.name}\u0000${problem.reason}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Parameters that no problem names (cross-field rules only look at values that are valid on their own). */
export function validOnly(params: ParsedParams, problems: InvalidParam[]): ParsedParams {
  const invalid = new Set(problems.map((problem) => problem.name));
  if (invalid.has('risk_features')) invalid.add('risk_features[]');
  return Object.fromEntries(Object.entries(params).filter(([name]) => !invalid.has(name)));
}
