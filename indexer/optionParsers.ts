// Argument parsers for commander options, shared by the indexer's CLI and the benchmark's.
import { InvalidArgumentError } from 'commander';

export function positiveInteger(value: string): number {
  if (!/^[1-9]\d*$/.test(value)) throw new InvalidArgumentError('expected an integer >= 1');
  return Number(value);
}

export function nonNegativeInteger(value: string): number {
  if (!/^(?:0|[1-9]\d*)$/.test(value)) throw new InvalidArgumentError('expected an integer >= 0');
  return Number(value);
}
