import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { BOOT_DATA_ID, UI_LANG_COOKIE, unpackBootData, type BootData } from '@kathamala/domain';
import './preact-fixes.ts';
import './styles/fonts.css';
import { App } from './App.tsx';
import { finishHydration, startHydration } from './components/HydrateLater.tsx';
import { loadCatalogue } from './i18n/index.tsx';
import { createQueryClient } from './queryClient.ts';
import { preloadPage } from './routes.tsx';

/** Without a server (vite dev) there is no boot data: fall back to what the page can tell. */
const fallbackBoot = (): BootData => ({
  config: { imagesHost: '/images', publicUrl: window.location.origin },
  data: {},
  uiLang: new RegExp(`(?:^|;\\s*)${UI_LANG_COOKIE}=si(?:;|$)`).test(document.cookie) ? 'si' : 'en',
});

/** The server's boot data: a JSON data block (CSP runs no inline script), absent under vite dev. */
const readBoot = (): BootData | null => {
  const text = document.getElementById(BOOT_DATA_ID)?.textContent;
  if (!text) return null;
  try {
    return unpackBootData(JSON.parse(text) as BootData);
  } catch {
    return null;
  }
};

/** Resolves in a task of its own, so the browser may paint and answer input before what follows. */
const nextTask = () =>
  new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });

/**
 * The start, one step per task. Run inside the module's evaluation, compiling the app, reading
 * the boot data, matching the route and hydrating made tasks of 60 to 110 ms at Lighthouse's
 * four-fold CPU slowdown, which a tap waits out (total blocking time); each step alone stays
 * under the 50 ms of a long task.
 */
async function start(): Promise<void> {
  // The module graph's evaluation (compiling the app's code) ends here.
  await nextTask();
  const boot = readBoot() ?? fallbackBoot();
  const queryClient = createQueryClient(boot.data);
  const root = document.getElementById('root')!;
  // The page's language first (preloaded by the server, so usually at hand): hydration must
  // render the same text the server did.
  const catalogue = loadCatalogue(boot.uiLang).catch((error: unknown) =>
    console.error('[i18n]', error),
  );
  await nextTask();
  // A lazy page's code too: Preact keeps the server's markup of a part that suspends while
  // hydrating and never brings it to life.
  await preloadPage(window.location.pathname).catch((error: unknown) =>
    console.error('[page]', error),
  );
  await catalogue;
  await nextTask();

  const app = (
    <StrictMode>
      <BrowserRouter>
        <App
          queryClient={queryClient}
          config={boot.config}
          uiLang={boot.uiLang}
          status={boot.status}
        />
      </BrowserRouter>
    </StrictMode>
  );
  if (!root.firstElementChild) {
    createRoot(root).render(app);
    document.documentElement.setAttribute('data-hydrated', '');
    return;
  }
  // The page first, then the parts wrapped in <HydrateLater>, one task each.
  startHydration();
  hydrateRoot(root, app);
  // From here every control on the page answers (journeys wait for this).
  await finishHydration();
  document.documentElement.setAttribute('data-hydrated', '');
}

void start();
