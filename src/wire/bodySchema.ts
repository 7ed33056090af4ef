// Builders for the JSON Schemas of response bodies (TypeBox). A body's schema is declared once, beside the presenter
// that builds it; the presenter's type is derived from it (`Static`), and the OpenAPI document shows the same
// object. The dialect is OpenAPI 3.1's (JSON Schema 2020-12): a nullable value is a type array, an object is closed
// and every key is required (the API always sends every key), so a real answer checked against it in the tests
// shows any drift.
import Type, { type Static, type TSchema, type TProperties, type TUnsafe } from 'typebox';
import type { Dimension } from '../../indexContract/dimensions.js';

export { Type, type Static, type TProperties, type TSchema };

const described = (description: string | undefined) => (description ? { description } : {});

/** A closed object whose every property is required. */
export function record<P extends TProperties>(properties: P, description?: string) {
  return Type.Object(properties, { ...described(description), additionalProperties: false });
}

/** `schema` or null, written as a type array (`["string", "null"]`), as the document has always shown it. */
export function nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const plain = schema as unknown as { type: string };
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [plain.type, 'null'] });
}

/** A reference to a schema of the document's components, typed as that schema. */
export function ref<T extends TSchema>(name: string, _schema: T): TUnsafe<Static<T>> {
  return Type.Unsafe<Static<T>>({ $ref: `#/components/schemas/${name}` });
}

export const text = (description?: string) => Type.String(described(description));
export const token = (description: string) => Type.String({ pattern: '^[a-z0-9_]+$', description });
/** A value of a dimension (indexContract/dimensions.ts), described. */
export const dimensionValue = ({ schema, valueDescription }: Dimension) =>
  Type.Unsafe<string | number>({ ...schema, description: valueDescription });
export const count = (description: string) => Type.Integer({ minimum: 0, description });
export const megawatts = (description: string) => Type.Number({ minimum: 0, description });
export const fraction = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });
export const timestamp = (description: string) => Type.String({ format: 'date-time', description });
export const date = (description: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date', description });
export const optionalText = (description: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], description });
export const optionalAmount = (description: string) =>
  Type.Unsafe<number | null>({ type: ['number', 'null'], minimum: 0, description });
export const optionalInteger = (options: Record<string, unknown>) =>
  Type.Unsafe<number | null>({ type: ['integer', 'null'], ...options });
export const optionalString = (options: Record<string, unknown> = {}) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], ...options });
/** One of a fixed set of strings. */
export const oneOf = <const V extends readonly string[]>(values: V, options: Record<string, unknown> = {}) =>
  Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...options });
/** Exactly this value (`{ "const": … }`). */
export const constant = <const V extends string | number>(value: V) => Type.Unsafe<V>({ const: value });
