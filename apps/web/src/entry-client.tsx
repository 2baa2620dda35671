import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { BOOT_GLOBAL, UI_LANG_COOKIE, type BootData } from '@kathamala/domain';
import './styles/fonts.css';
import { App } from './App.tsx';
import { createQueryClient } from './queryClient.ts';

declare global {
  interface Window {
    [BOOT_GLOBAL]?: BootData;
  }
}

/** Without a server (vite dev) there is no boot data: fall back to what the page can tell. */
const fallbackBoot = (): BootData => ({
  config: { imagesHost: '/images', publicUrl: window.location.origin },
  data: {},
  uiLang: new RegExp(`(?:^|;\\s*)${UI_LANG_COOKIE}=si(?:;|$)`).test(document.cookie) ? 'si' : 'en',
});

const boot = window[BOOT_GLOBAL] ?? fallbackBoot();
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

if (root.firstElementChild) hydrateRoot(root, app);
else createRoot(root).render(app);
