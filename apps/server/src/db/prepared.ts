import pg from 'pg';

/**
 * Statement texts that get a name, at most: the app has a few hundred (a list of n values is a
 * text of its own per n), so the bound only stops a runaway; past it statements run unnamed.
 */
const NAMED_MAX = 2000;
const names = new Map<string, string>();

/** The name one statement text is prepared under, the same on every connection of the process. */
function nameOf(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < NAMED_MAX) {
    name = `kathamala_${names.size}`;
    names.set(text, name);
  }
  return name;
}

const hasValues = (values: unknown): boolean => Array.isArray(values) && values.length > 0;

type QueryArgs = Parameters<pg.Client['query']>;

/** Names a parameterized statement's config (see PreparingClient); any other call as it came. */
function named(args: QueryArgs): QueryArgs {
  const [config, values] = args as unknown as [unknown, unknown];
  if (
    typeof config === 'object' &&
    config !== null &&
    !('submit' in config) &&
    'text' in config &&
    typeof config.text === 'string' &&
    !('name' in config && config.name) &&
    hasValues(Array.isArray(values) ? values : 'values' in config ? config.values : undefined)
  ) {
    const name = nameOf(config.text);
    if (name !== undefined) return [{ ...config, name }, ...args.slice(1)] as unknown as QueryArgs;
  }
  return args;
}

/**
 * A node-postgres client that prepares each parameterized statement once per connection (a
 * named statement, node-postgres's documented query config `name`), so PostgreSQL parses it
 * once and, where its generic plan is as good, plans it once (decision record 56). Without a
 * name every execution is parsed and planned again: under a write-heavy load that was 40% of
 * PostgreSQL's statement time. Statements without parameters (migrations, several commands in
 * one text, `begin`) keep the simple protocol.
 */
export class PreparingClient extends pg.Client {}

const plainQuery = pg.Client.prototype.query as (...args: QueryArgs) => unknown;
PreparingClient.prototype.query = function (this: pg.Client, ...args: QueryArgs) {
  return plainQuery.apply(this, named(args));
} as pg.Client['query'];
