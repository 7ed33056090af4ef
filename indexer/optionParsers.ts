// Argument parsers for commander options: every option of the indexer's CLI that takes a number is read by one of
// these (and the benchmark's options too). A shared module: it imports nothing of the indexer.
import { InvalidArgumentError } from 'commander';

export function positiveInteger(value: string): number {
  if (!/^[1-9]\d*$/.test(value)) throw new InvalidArgumentError('expected an integer >= 1');
  return Number(value);
}

export function nonNegativeInteger(value: string): number {
  if (!/^(?:0|[1-9]\d*)$/.test(value)) throw new InvalidArgumentError('expected an integer >= 0');
  return Number(value);
}

export function nonNegativeNumber(value: string): number {
  if (!/^\d+(\.\d+)?$/.test(value)) throw new InvalidArgumentError('expected a number >= 0');
  return Number(value);
}

export function positiveNumber(value: string): number {
  const number = nonNegativeNumber(value);
  if (number <= 0) throw new InvalidArgumentError('expected a number > 0');
  return number;
}
