import { useCallback, useEffect, useState } from 'react';
import { disablePush, enablePush, readPushState, type PushState } from './push.ts';

/** Web Push on this device as a toggle: the state is unknown (null) until the browser says. */
export function usePush() {
  const [state, setState] = useState<PushState | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    void readPushState().then((s) => live && setState(s));
    return () => {
      live = false;
    };
  }, []);

  const run = useCallback(async (action: () => Promise<PushState>) => {
    setBusy(true);
    setFailed(false);
    try {
      setState(await action());
    } catch {
      setFailed(true);
      setState(await readPushState());
    } finally {
      setBusy(false);
    }
  }, []);

  const turnOn = useCallback(() => run(enablePush), [run]);
  const turnOff = useCallback(() => run(disablePush), [run]);
  return { state, busy, failed, turnOn, turnOff };
}
