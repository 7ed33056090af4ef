// An ESLint rule for test/: no assertion bounds a measured duration by a number written in the test. How long
// something took on the machine at hand belongs in the benches (bench/); a test asserts what happened (how many
// requests waited, which timed out, in which order) or bounds a wait by the project's own deadline plus the one
// named slack, test/support/timing.ts's SHARED_MACHINE_SLACK_MS (docs/development.md, "Tests").
//
// It reports an upper bound (chai's below, lessThan, lt, most, lte, within's upper end, closeTo's delta; or a
// `<`, `<=`, `>`, `>=` inside expect() or assert()) whose measured side reads as a duration, and whose bound is a
// numeric literal or adds one (`normalMs + 300`). A duration is a Date.now(), performance.now() or hrtime() call,
// or a name with one of DURATION_WORDS among its words (camelCase and snake_case split: `elapsedMs`, `answer.ms`,
// `age_seconds`). A deterministic clock (a fake `now`) may say so with an eslint-disable comment and its reason.

/** Words of a name that make it a measured duration. */
export const DURATION_WORDS = new Set([
  'elapsed',
  'took',
  'duration',
  'durations',
  'latency',
  'ms',
  'millis',
  'seconds',
  'p50',
  'p95',
  'p99',
  'age',
]);

/** chai methods that set an upper bound, and which argument holds it. */
const UPPER_BOUNDS = {
  below: 0,
  lessThan: 0,
  lt: 0,
  most: 0,
  lte: 0,
  within: 1,
  closeTo: 1,
  approximately: 1,
};

const CLOCKS = new Set(['now', 'hrtime']);

/** `elapsedMs` → elapsed, ms; `age_seconds` → age, seconds. */
export function wordsOf(name) {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_$]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

/** Whether an expression is, or contains, a clock reading or a name that reads as a duration. */
function readsAsDuration(node) {
  if (!node || typeof node !== 'object') return false;
  switch (node.type) {
    case 'Identifier':
      return wordsOf(node.name).some((word) => DURATION_WORDS.has(word));
    case 'MemberExpression':
      return readsAsDuration(node.object) || (!node.computed && readsAsDuration(node.property));
    case 'CallExpression': {
      const callee = node.callee;
      const name = callee.type === 'MemberExpression' ? callee.property.name : callee.name;
      if (CLOCKS.has(name)) return true;
      return readsAsDuration(callee) || node.arguments.some(readsAsDuration);
    }
    case 'BinaryExpression':
      return readsAsDuration(node.left) || readsAsDuration(node.right);
    case 'SpreadElement':
      return readsAsDuration(node.argument);
    case 'ArrowFunctionExpression':
      return readsAsDuration(node.body);
    case 'ChainExpression':
    case 'TSNonNullExpression':
    case 'AwaitExpression':
    case 'UnaryExpression':
      return readsAsDuration(node.expression ?? node.argument);
    default:
      return false;
  }
}

/** A bound that adds a literal to a measured figure (`normalMs + 300`): a clock reading there is a timestamp. */
function namesDuration(node) {
  if (node?.type === 'BinaryExpression') return namesDuration(node.left) || namesDuration(node.right);
  return node?.type === 'Identifier' || node?.type === 'MemberExpression' ? readsAsDuration(node) : false;
}

/** Whether a bound is a numeric literal, or one added to or taken from something (`normalMs + 300`). */
function hasLiteral(node) {
  if (!node) return false;
  if (node.type === 'Literal') return typeof node.value === 'number';
  if (node.type === 'UnaryExpression') return hasLiteral(node.argument);
  if (node.type === 'BinaryExpression' && (node.operator === '+' || node.operator === '-'))
    return hasLiteral(node.left) || hasLiteral(node.right);
  return false;
}

/** The first argument of the expect() call a chai chain starts from, or undefined. */
function subjectOf(node) {
  let current = node;
  while (current) {
    if (current.type === 'CallExpression') {
      if (current.callee.type === 'Identifier' && current.callee.name === 'expect')
        return current.arguments[0];
      current = current.callee;
    } else if (current.type === 'MemberExpression') current = current.object;
    else return undefined;
  }
  return undefined;
}

const MESSAGE =
  'A measured duration bounded by a number written here: assert what happened (counts, order), or bound it by ' +
  "the project's deadline plus SHARED_MACHINE_SLACK_MS (test/support/timing.ts); timings belong in bench/.";

export const noMeasuredTimeBounds = {
  meta: {
    type: 'problem',
    docs: { description: 'no measured duration bounded by a literal in a test' },
    messages: { literalBound: MESSAGE },
    schema: [],
  },
  create(context) {
    const report = (node) => context.report({ node, messageId: 'literalBound' });
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type === 'MemberExpression' && !callee.computed && callee.property.name in UPPER_BOUNDS) {
          const bound = node.arguments[UPPER_BOUNDS[callee.property.name]];
          const measured = readsAsDuration(subjectOf(callee.object)) || namesDuration(bound);
          if (hasLiteral(bound) && measured) report(node);
          return;
        }
        const name = callee.type === 'Identifier' ? callee.name : undefined;
        if (name !== 'expect' && name !== 'assert') return;
        const test = node.arguments[0];
        if (test?.type !== 'BinaryExpression') return;
        const [measured, bound] = ['<', '<='].includes(test.operator)
          ? [test.left, test.right]
          : ['>', '>='].includes(test.operator)
            ? [test.right, test.left]
            : [];
        if (measured && hasLiteral(bound) && readsAsDuration(measured)) report(test);
      },
    };
  },
};

export default { rules: { 'no-measured-time-bounds': noMeasuredTimeBounds } };
