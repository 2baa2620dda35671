import { PassThrough } from 'node:stream';
import { StrictMode, type ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import type { BootData } from '@kathamala/domain';
import { App } from './App.tsx';
import './i18n/all.ts';
import { createQueryClient } from './queryClient.ts';
import { isNotFound } from './routes.tsx';
import { headHtml, metaForUrl } from './seo.ts';

const RENDER_TIMEOUT_MS = 10_000;

/**
 * Renders a page for `url` with the data the server prefetched: no fetch happens here, queries
 * without boot data render their loading state. Waits for everything (lazy pages included) so
 * the HTML carries the page's text.
 */
export async function render(
  url: string,
  boot: BootData,
): Promise<{ status: number; head: string; html: string }> {
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
  const pathname = new URL(url, 'http://localhost').pathname;
  const status = boot.status ?? (isNotFound(pathname) ? 404 : 200);
  const head = headHtml(metaForUrl(url, boot), boot.config.publicUrl, boot.uiLang);
  return { status, head, html };
}

function renderToString(element: ReactNode): Promise<string> {
  return new Promise((resolve, reject) => {
    const stream = renderToPipeableStream(element, {
      // The whole page goes out at once (onAllReady), so nothing is gained by sending large
      // Suspense boundaries out of line, and doing so costs inline <script>s ($RC) that the
      // Content-Security-Policy refuses: keep every boundary in place.
      progressiveChunkSize: Number.MAX_SAFE_INTEGER,
      onAllReady() {
        clearTimeout(timer);
        const sink = new PassThrough();
        const chunks: Buffer[] = [];
        sink.on('data', (chunk: Buffer) => chunks.push(chunk));
        sink.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        stream.pipe(sink);
      },
      onShellError(error) {
        clearTimeout(timer);
        reject(error);
      },
      onError(error) {
        // A part that fails here is rendered by the browser instead; the page still goes out.
        console.error('[ssr]', error);
      },
    });
    const timer = setTimeout(() => stream.abort(new Error('render timed out')), RENDER_TIMEOUT_MS);
  });
}
