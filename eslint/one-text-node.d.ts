import type { Rule } from 'eslint';

/** jsx/one-text-node: text beside an expression in JSX (see one-text-node.js). */
declare const rule: Rule.RuleModule;
export default rule;
