import { useCallback, useEffect, useState } from 'react';
import { useRoutes } from 'react-router';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ClientConfig, UiLang } from '@kathamala/domain';
import { ScrollManager } from './components/ScrollManager.tsx';
import { ConfigContext, InitialStatusContext } from './config.tsx';
import { AuthEffects } from './features/auth/AuthEffects.tsx';
import { I18nProvider, loadCatalogue } from './i18n/index.tsx';
import { rememberedUiLang, saveUiLang } from './i18n/persist.ts';
import { routes } from './routes.tsx';
import './styles/global.css';

export interface AppProps {
  queryClient: QueryClient;
  config: ClientConfig;
  uiLang: UiLang;
  /** The status the server answered the first page with. */
  status?: number;
}

/** The whole app inside a router (BrowserRouter in the browser, StaticRouter on the server). */
export function App(props: AppProps) {
  const [lang, setLangState] = useState<UiLang>(props.uiLang);
  const setLang = useCallback((next: UiLang) => {
    // The other language's strings load on the first switch; the page changes once they are here.
    void loadCatalogue(next).then(
      () => {
        setLangState(next);
        saveUiLang(next);
      },
      (error: unknown) => console.error('[i18n]', error),
    );
  }, []);

  // The cookie may be gone while this browser still remembers a choice: restore it.
  useEffect(() => {
    const remembered = rememberedUiLang();
    if (remembered) setLang(remembered);
  }, [setLang]);

  return (
    <ConfigContext.Provider value={props.config}>
      <InitialStatusContext.Provider value={props.status}>
        <QueryClientProvider client={props.queryClient}>
          <I18nProvider lang={lang} setLang={setLang}>
            <AuthEffects />
            <ScrollManager />
            <Routes />
          </I18nProvider>
        </QueryClientProvider>
      </InitialStatusContext.Provider>
    </ConfigContext.Provider>
  );
}

function Routes() {
  return useRoutes(routes);
}
