import { StrictMode, type ReactNode } from 'react';
import { options, type VNode } from 'preact';
import { renderToStringAsync } from 'preact-render-to-string';
import { StaticRouter } from 'react-router';
import type { BootData } from '@kathamala/domain';
import { App } from './App.tsx';
import './i18n/all.ts';
import { createQueryClient } from './queryClient.ts';
import { isNotFound, preloadPage } from './routes.tsx';
import { headHtml, metaForUrl } from './seo.ts';

const RENDER_TIMEOUT_MS = 10_000;

// A page part that throws while rendering here shows the app's error boundary (which logs it)
// instead of failing the whole page; the browser renders it again when it hydrates.
(options as { errorBoundaries?: boolean }).errorBoundaries = true;

/**
 * Renders a page for `url` with the data the server prefetched: no fetch happens here, queries
 * without boot data render their loading state. Waits for everything (lazy pages included) so
 * the HTML carries the page's text. Rendered by Preact (the build aliases react to preact/compat),
 * as the browser hydrates it. `modules`: the lazy page's module as the client build's manifest
 * names it, for the server to preload its chunk.
 */
export async function render(
  url: string,
  boot: BootData,
): Promise<{ status: number; head: string; html: string; modules: string[] }> {
  const pathname = new URL(url, 'http://localhost').pathname;
  // The page's code first, as the browser does before hydrating: the render then suspends
  // nowhere, and an error in the page meets the error boundary instead of failing the request.
  const modules = await preloadPage(pathname);
  const queryClient = createQueryClient(boot.data);
  const html = await renderToString(
    <StrictMode>
      <StaticRouter location={url}>
        <App
          queryClient={queryClient}
          config={boot.config}
          uiLang={boot.uiLang}
          status={boot.status}
        />
      </StaticRouter>
    </StrictMode>,
  );
  queryClient.clear();
  const status = boot.status ?? (isNotFound(pathname) ? 404 : 200);
  const head = headHtml(metaForUrl(url, boot), boot.config.publicUrl, boot.uiLang);
  return { status, head, html, modules };
}

/**
 * The whole page as one string once every lazy part has loaded. preact-render-to-string's
 * streams send suspended parts out of line with inline <script>s, which the
 * Content-Security-Policy refuses; the page goes out at once anyway.
 */
function renderToString(element: ReactNode): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('render timed out')), RENDER_TIMEOUT_MS);
  });
  // JSX is typed as React's; at run time it is Preact's vnode.
  return Promise.race([
    Promise.resolve(renderToStringAsync(element as unknown as VNode)),
    timeout,
  ]).finally(() => clearTimeout(timer));
}
