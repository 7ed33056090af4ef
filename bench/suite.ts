// A benchmark suite as it declares itself: its name, a one-line summary, its own options, its quick form and
// what it runs. The options every suite shares (`--count`, `--seed`, `--no-write`, `--quick`) are declared here
// once; a suite gives only its defaults. bench/main.ts lists the declared suites (bench/suites.ts), prints them
// for `--help`, runs one, or runs every quick form (`--quick-all`; the smoke test of `npm test`, test/bench/, runs them too).
//
//   export default defineSuite<{ rounds: number }>({
//     name: 'floor',
//     module: import.meta.url,
//     summary: 'the API against the floor under it',
//     count: 100_000,
//     seed: 20261122,
//     writes: true,
//     options: (command) => command.option('--rounds <n>', 'measured rounds', positiveInteger, 4),
//     quick: { count: 300, args: ['--rounds', '1'] },
//     run: async (options) => { … options.count, options.rounds … },
//   });
import { Command, InvalidArgumentError, Option } from 'commander';
import { nonNegativeInteger, positiveInteger } from '../indexer/optionParsers.js';
import type { ApiMode } from './perf/apiProcess.js';

/** The shared options as a suite reads them. */
export interface SharedOptions {
  /** Records generated (the first of `counts`). */
  count: number;
  /** Every count asked (`--count 10000,100000`), for a suite that takes several. */
  counts: number[];
  seed: number;
  /** False with --no-write or --quick: print only. */
  write: boolean;
  /** The quick form was asked: a smoke run that only proves the suite runs end to end. */
  quick: boolean;
}

export interface QuickForm {
  count?: number;
  args?: readonly string[];
}

export interface SuiteDeclaration<O extends object> {
  /** `npm run bench -- <name>`. */
  name: string;
  /** The declaring module's import.meta.url: a quick run imports that module alone (bench/quickAll.ts). */
  module: string;
  /** One line for `npm run bench -- --help`. */
  summary: string;
  /** The default of --count (records generated); without it the suite has no --count. */
  count?: number;
  /** Whether --count takes a comma-separated list of counts. */
  severalCounts?: boolean;
  /** The default of --seed; without it the suite has no --seed. */
  seed?: number;
  /** Whether the suite writes a results file (and so has --no-write). */
  writes?: boolean;
  /** The suite's own options. */
  options?: (command: Command) => Command;
  /**
   * The quick form: its --count and its other arguments, put before the ones given (which still win): a few
   * hundred records and rounds of a second or two, enough to show the suite runs end to end and prints sane
   * output, never a figure.
   */
  quick: QuickForm;
  run(options: O & SharedOptions): Promise<unknown>;
}

export interface Suite {
  name: string;
  module: string;
  summary: string;
  /** The quick form's arguments. */
  quick: readonly string[];
  /** The quick form's record count (0: none declared). */
  quickCount: number;
  writes: boolean;
  /** Parses `args` (what follows the suite's name) and runs the suite. */
  main(args: readonly string[]): Promise<void>;
}

const counts = (value: string): number[] => value.split(',').map((part) => positiveInteger(part.trim()));

export function defineSuite<O extends object>(declaration: SuiteDeclaration<O>): Suite {
  const { name, module, summary } = declaration;
  const { count: quickCount, args: quickArgs = [] } = declaration.quick;
  const quick = [...(quickCount === undefined ? [] : [`--count=${quickCount}`]), ...quickArgs];
  const command = (): Command => {
    const command = new Command(name).description(summary).allowExcessArguments(false);
    if (declaration.count !== undefined) {
      const several = declaration.severalCounts === true;
      command.addOption(
        new Option(several ? '--count <n[,n…]>' : '--count <n>', 'records generated')
          .argParser(counts)
          .default([declaration.count], String(declaration.count)),
      );
    }
    if (declaration.seed !== undefined) {
      command.option(
        '--seed <n>',
        'seed of the records and the requests',
        nonNegativeInteger,
        declaration.seed,
      );
    }
    if (declaration.writes) command.option('--no-write', 'print only: no results file');
    command.option('--quick', `the quick form (${quick.join(' ')}): a smoke run, nothing written`);
    return declaration.options ? declaration.options(command) : command;
  };
  return {
    name,
    module,
    summary,
    quick,
    quickCount: quickCount ?? 0,
    writes: declaration.writes === true,
    async main(args) {
      const program = command();
      const asked = args.includes('--quick');
      program.parse([...(asked ? quick : []), ...args], { from: 'user' });
      const parsed = program.opts<O & { count?: number[]; seed?: number; write?: boolean }>();
      const countsAsked = parsed.count ?? [];
      if (countsAsked.length > 1 && !declaration.severalCounts) {
        program.error(`--count: one count (${name} takes no list)`);
      }
      await declaration.run({
        ...parsed,
        count: countsAsked[0] ?? 0,
        counts: countsAsked,
        seed: parsed.seed ?? 0,
        write: parsed.write !== false && !asked,
        quick: asked,
      });
    },
  };
}

/**
 * How a suite runs the API: compiled, as deployed; its quick form from the sources, since compiling the API takes
 * longer than a whole quick run.
 */
/** A parser of a comma-separated list of names, each one of `allowed` (a suite's sections, kinds…). */
export function namesOf<T extends string>(allowed: readonly T[], what: string): (value: string) => T[] {
  return (value) => {
    const named = value.split(',').map((name) => name.trim());
    const unknown = named.find((name) => !(allowed as readonly string[]).includes(name));
    if (unknown) throw new InvalidArgumentError(`unknown ${what} ${unknown} (${allowed.join(', ')})`);
    return named as T[];
  };
}

export const apiModeOf = (options: SharedOptions): ApiMode => (options.quick ? 'tsx' : 'dist');

/** Runs a suite with its arguments; a failure is logged with its stack and sets the exit code. */
export async function runSuite(suite: Suite, args: readonly string[]): Promise<void> {
  try {
    await suite.main(args);
  } catch (error) {
    process.stderr.write(
      `${suite.name}: failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  }
}
