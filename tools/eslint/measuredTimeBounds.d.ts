// Types of measuredTimeBounds.js (a plain ES module: eslint.config.js imports it without a TypeScript loader).
import type { Rule } from 'eslint';

export const DURATION_WORDS: Set<string>;
export function wordsOf(name: string): string[];
export const noMeasuredTimeBounds: Rule.RuleModule;
declare const plugin: { rules: Record<string, Rule.RuleModule> };
export default plugin;
