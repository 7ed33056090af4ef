// Validates source records against mappings/record.schema.json (the one file that holds the record contract).
import { Ajv, type ErrorObject } from 'ajv';
import { readFileSync } from 'node:fs';
import { projectFile } from '../../indexContract/projectFile.js';
import { RECORD_FORMATS } from './recordFormats.js';
import type { PpaRecord } from '../../indexContract/record.js';

export const RECORD_SCHEMA_URL = projectFile('mappings/record.schema.json');

/** One problem with one field of one record. `field` is a dotted path ("contract.currency", "versions.0.date"). */
export interface FieldProblem {
  field: string;
  message: string;
}

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
for (const [name, check] of Object.entries(RECORD_FORMATS)) ajv.addFormat(name, check);
const validate = ajv.compile<PpaRecord>(JSON.parse(readFileSync(RECORD_SCHEMA_URL, 'utf8')));

function fieldOf(error: ErrorObject): string {
  const path = error.instancePath.split('/').slice(1).join('.');
  const child =
    error.keyword === 'required'
      ? (error.params as { missingProperty: string }).missingProperty
      : error.keyword === 'additionalProperties'
        ? (error.params as { additionalProperty: string }).additionalProperty
        : '';
  return [path, child].filter(Boolean).join('.') || '(record)';
}

function messageOf(error: ErrorObject): string {
  if (error.keyword === 'additionalProperties') return 'is not a field of the record contract';
  if (error.keyword === 'required') return 'is required';
  return error.message ?? error.keyword;
}

/**
 * Problems named per record: one record with 10,000 bad list items must not make a 10,000-part message (or log
 * entry); the rest are counted.
 */
export const MAX_PROBLEMS_PER_RECORD = 20;

/** The record's schema problems, one per field (the first message for each field), or [] when it is valid. */
export function checkRecord(value: unknown): FieldProblem[] {
  if (validate(value)) return [];
  const byField = new Map<string, string>();
  for (const error of validate.errors ?? []) {
    // if/then and oneOf wrap the real error that ajv also reports; keep the specific one.
    if (error.keyword === 'if' || error.keyword === 'oneOf') continue;
    const field = fieldOf(error);
    if (!byField.has(field)) byField.set(field, messageOf(error));
  }
  if (byField.size === 0) byField.set('(record)', 'does not match the record schema');
  const problems = [...byField].map(([field, message]) => ({ field, message }));
  if (problems.length <= MAX_PROBLEMS_PER_RECORD) return problems;
  const more = problems.length - (MAX_PROBLEMS_PER_RECORD - 1);
  return [
    ...problems.slice(0, MAX_PROBLEMS_PER_RECORD - 1),
    { field: '(record)', message: `has ${more} more problem(s)` },
  ];
}

export function isPpaRecord(value: unknown): value is PpaRecord {
  return validate(value);
}
