// What --help prints after the options of the program and of each command: the exit codes (from their table,
// exitCodes.ts), what every failure ends with, and the environment (from the declarations: environment.ts).
import { indexerVariables } from './environment.js';
import { exitCodeHelp } from '../exitCodes.js';

/** The "Environment:" section of --help, a line a variable, each with its default where it has one. */
export function environmentHelp(): string {
  const variables = indexerVariables();
  const width = Math.max(...variables.map(({ name }) => name.length)) + 2;
  const lines = variables.map(
    (variable) =>
      `  ${variable.name.padEnd(width)}${variable.meaning}` +
      (variable.default === undefined ? '' : ` (default ${variable.default})`),
  );
  return ['Environment:', ...lines].join('\n');
}

export const AFTER_OPTIONS_HELP = `
${exitCodeHelp()}

Every failure ends with one sentence on stderr: what failed, what it means for the live alias, what to do next.

${environmentHelp()}`;
