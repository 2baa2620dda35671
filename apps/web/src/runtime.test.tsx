import * as React from 'react';
import * as ReactDom from 'react-dom';
import { renderToStaticMarkup } from 'react-dom/server';
import * as compat from 'preact/compat';
import { isValidElement } from 'preact';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { Link, MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';

/** A component on both libraries' hooks, as the app's pages are. */
function Linked() {
  const { data } = useQuery({ queryKey: ['x'], queryFn: () => 'x', initialData: 'x' });
  return <Link to={`/details/${data}/`}>{data}</Link>;
}

describe('the runtime the web tests run on', () => {
  it('is Preact through preact/compat, as the build ships it', () => {
    expect(React.createElement).toBe(compat.createElement);
    expect(ReactDom.createPortal).toBe(compat.createPortal);
    // JSX compiles to Preact's vnodes (a React element is not one).
    expect(isValidElement(<p />)).toBe(true);
  });

  it('renders the libraries that import `react` on it too, hooks and context', () => {
    const html = renderToStaticMarkup(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <Linked />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(html).toBe('<a href="/details/x/" data-discover="true">x</a>');
  });
});
