// The statistics' rounding (indexContract/rounding.ts): the parties' sort keys are rounded by the same functions.
export { roundMw, roundShare, roundTo, roundUsd } from '../../indexContract/rounding.js';
