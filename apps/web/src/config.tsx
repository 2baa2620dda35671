import { createContext, useContext } from 'react';
import { useLocation } from 'react-router';
import type { ClientConfig } from '@kathamala/domain';

/** Where covers live and the site's public address, as the server told the page. */
export const ConfigContext = createContext<ClientConfig>({ imagesHost: '/images', publicUrl: '' });

export const useConfig = (): ClientConfig => useContext(ConfigContext);

/** The HTTP status the server gave the page the browser first loaded (404 for a missing story). */
export const InitialStatusContext = createContext<number | undefined>(undefined);

/** The server's status, while the reader is still on the page it applied to. */
export function useServerStatus(): number | undefined {
  const status = useContext(InitialStatusContext);
  // The router's first location has the key 'default'; any navigation gets a new key.
  return useLocation().key === 'default' ? status : undefined;
}
