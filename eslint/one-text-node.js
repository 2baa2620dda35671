/**
 * jsx/one-text-node: text beside an expression in JSX (`{count} reads`, `</span> {label}`) is
 * two text nodes to Preact, but one in the server's HTML, so hydration rewrites the first and
 * inserts the second: a change to the page, and a re-layout, on every first load. Write the
 * text as one expression (`{`${count} reads`}`) or wrap one side in an element.
 */

/** JSX drops whitespace-only text that holds a line break; any other text is a node. */
const isDropped = (child) =>
  (child.type === 'JSXText' && /^\s*$/.test(child.value) && child.value.includes('\n')) ||
  (child.type === 'JSXExpressionContainer' && child.expression.type === 'JSXEmptyExpression');

/** An expression that renders as an element (or nothing), not as text. */
const rendersElement = (e) =>
  e.type === 'JSXElement' ||
  e.type === 'JSXFragment' ||
  (e.type === 'Literal' && (e.value === null || typeof e.value === 'boolean')) ||
  (e.type === 'LogicalExpression' && rendersElement(e.right)) ||
  (e.type === 'ConditionalExpression' &&
    rendersElement(e.consequent) &&
    rendersElement(e.alternate)) ||
  (e.type === 'Identifier' && e.name === 'undefined') ||
  (e.type === 'CallExpression' &&
    e.callee.type === 'MemberExpression' &&
    e.callee.property.name === 'map');

const isText = (child) =>
  child.type === 'JSXText' ||
  (child.type === 'JSXExpressionContainer' && !rendersElement(child.expression));

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Text beside an expression in JSX makes hydration rewrite the page' },
    messages: {
      split:
        'Text beside an expression is two text nodes to Preact but one in the server HTML, so hydration rewrites it. Make it one expression, e.g. {`${a} text`}, or wrap one side in an element.',
    },
    schema: [],
  },
  create(context) {
    const check = (node) => {
      const kept = node.children.filter((c) => !isDropped(c));
      for (let i = 1; i < kept.length; i++) {
        const [a, b] = [kept[i - 1], kept[i]];
        // Two expressions side by side are left alone: whether both render text is a type's
        // question; text beside an expression is the common slip.
        if (isText(a) && isText(b) && (a.type === 'JSXText') !== (b.type === 'JSXText'))
          context.report({ node: b, messageId: 'split' });
      }
    };
    return { JSXElement: check, JSXFragment: check };
  },
};
