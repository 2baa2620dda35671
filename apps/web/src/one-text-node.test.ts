import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import oneTextNode from '../../../eslint/one-text-node.js';

// Preact makes `</span> {label}` two text nodes where the server's HTML has one, so hydration
// rewrites the first and inserts the second on every first load. The lint rule catches it; this
// holds the rule to its cases and the web app's source to the rule.

RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
});

tester.run('jsx/one-text-node', oneTextNode, {
  valid: [
    'const a = <p>{`${count} reads`}</p>;',
    'const a = <p><strong>{count}</strong>{` ${label}`}</p>;',
    'const a = <a><span aria-hidden="true">‹</span>{` ${t("pager.prev")}`}</a>;',
    // Whitespace with a line break is dropped by JSX: no text node at all.
    'const a = (\n  <p>\n    {label}\n    <b>x</b>\n  </p>\n);',
    'const a = <p>{ready && <b>x</b>} waiting</p>;',
    'const a = <ul>{items.map((i) => <li key={i}>{i}</li>)} </ul>;',
    'const a = <p>{/* a comment */}text</p>;',
  ],
  invalid: [
    {
      code: 'const a = <a><span aria-hidden="true">‹</span> {t("pager.prev")}</a>;',
      errors: [{ messageId: 'split' }],
    },
    { code: 'const a = <p>{count} reads</p>;', errors: [{ messageId: 'split' }] },
    { code: 'const a = <li>@{username}</li>;', errors: [{ messageId: 'split' }] },
    { code: 'const a = <span>★ {rating.toFixed(2)}</span>;', errors: [{ messageId: 'split' }] },
    {
      code: 'const a = <>{n}.{" "}<b>x</b></>;',
      errors: [{ messageId: 'split' }, { messageId: 'split' }],
    },
  ],
});

describe('the web app', () => {
  it('has no text beside an expression in its JSX', { timeout: 60_000 }, async () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
    const eslint = new ESLint({
      cwd: root,
      overrideConfigFile: true,
      overrideConfig: [
        {
          files: ['**/*.tsx'],
          languageOptions: { parser: tseslint.parser },
          plugins: { jsx: { rules: { 'one-text-node': oneTextNode } } },
          rules: { 'jsx/one-text-node': 'error' },
        },
      ],
    });
    const results = await eslint.lintFiles(['apps/web/src/**/*.tsx']);
    expect(results.length).toBeGreaterThan(50);
    const found = results.flatMap((r) =>
      r.messages.map((m) => `${path.relative(root, r.filePath)}:${m.line}: ${m.message}`),
    );
    expect(found).toEqual([]);
  });
});
