import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import {
  BOOT_DATA_ID,
  graphemes,
  UI_LANG_COOKIE,
  unpackBootData,
  type BootData,
} from '@kathamala/domain';
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

const boot = readBoot() ?? fallbackBoot();
const queryClient = createQueryClient(boot.data);
const root = document.getElementById('root')!;

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

// The page's language first (preloaded by the server, so usually at hand): hydration must render
// the same text the server did. A lazy page's code too: Preact keeps the server's markup of a
// part that suspends while hydrating and never brings it to life.
void Promise.all([
  loadCatalogue(boot.uiLang).catch((error: unknown) => console.error('[i18n]', error)),
  preloadPage(window.location.pathname).catch((error: unknown) => console.error('[page]', error)),
]).then(() => {
  if (!root.firstElementChild) {
    createRoot(root).render(app);
    document.documentElement.setAttribute('data-hydrated', '');
    return;
  }
  // The page first, then the parts wrapped in <HydrateLater>, one task each. Before them, in a
  // task of its own, the grapheme splitter that cards and lists cut descriptions with: making one
  // costs a phone tens of milliseconds, which would otherwise land in the first list's task.
  startHydration(() => graphemes(''));
  hydrateRoot(root, app);
  // From here every control on the page answers (journeys wait for this).
  void finishHydration().then(() => document.documentElement.setAttribute('data-hydrated', ''));
});
