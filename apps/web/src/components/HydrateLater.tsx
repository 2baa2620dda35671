import { Suspense, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/**
 * Hydration in slices. Preact hydrates a page in one synchronous pass: on a phone the home page
 * took one task of several hundred milliseconds, during which a tap waits (Lighthouse's total
 * blocking time). A part wrapped in <HydrateLater> suspends during that first pass: Preact keeps
 * its server markup on screen as it is, finishes the rest of the page, and hydrates the part
 * when its turn comes, one part per task, in page order, so the browser can answer input in
 * between. Until then the part is the server's HTML: its links are plain links, its forms post.
 *
 * A part may render anything (nothing, several elements) and may hold parts of its own, which
 * hydrate after it. Outside hydration (client-side navigation) it renders its children at once.
 */
export function HydrateLater(props: { children: ReactNode }) {
  const [, setVersion] = useState(0);
  // Decided once, when the part first renders: during the slicing it waits for its turn (this
  // component sits above the suspending one, so it keeps the decision while that one waits);
  // a part that first appears later (client-side navigation) renders at once.
  const ref = useRef<Turn | null>(null);
  const turn = (ref.current ??= onServer
    ? serverTurn(props.children)
    : {
        done: !slicing,
        first: slicing ? { children: props.children } : undefined,
        latest: props.children,
        refresh: () => setVersion((v) => v + 1),
      });
  turn.latest = props.children;
  return (
    <Suspense fallback={null}>
      {/* Until it has hydrated, the part renders what it rendered first, which is what the
          server rendered: hydration adopts the server's elements as they are and would not
          apply an attribute that changed meanwhile (the session becoming known, say). */}
      <WaitTurn turn={turn}>{turn.first ? turn.first.children : props.children}</WaitTurn>
    </Suspense>
  );
}

interface Turn {
  done: boolean;
  promise?: Promise<void>;
  /** What the part rendered first, until it has hydrated. */
  first?: { children: ReactNode };
  latest: ReactNode;
  refresh: () => void;
}

const onServer = typeof window === 'undefined';

/**
 * On the server a part suspends once, for a microtask: preact-render-to-string then wraps its
 * markup in `<!--$s-->` and `<!--/$s-->`, and Preact, hydrating, keeps exactly that range for the
 * suspended part, however many elements it holds (none, when a list is empty).
 */
const serverTurn = (children: ReactNode): Turn => {
  const turn: Turn = { done: false, latest: children, refresh: () => {} };
  turn.promise = Promise.resolve().then(() => {
    turn.done = true;
  });
  return turn;
};

/** True from the start of hydration until the last part has hydrated. */
let slicing = false;
const waiting: (() => void)[] = [];

function WaitTurn(props: { turn: Turn; children: ReactNode }) {
  const { turn } = props;
  // Hydrated: from now on the part shows its latest children (an ordinary update).
  useLayoutEffect(() => {
    if (!turn.first) return;
    const stale = turn.first.children !== turn.latest;
    turn.first = undefined;
    if (stale) turn.refresh();
  }, [turn]);
  // A thrown promise suspends this part; the Suspense above resumes it once resolved. A part
  // resumed while hydrating hydrates its own <HydrateLater> parts later still, in turn.
  if (!turn.done) {
    throw (turn.promise ??= new Promise<void>((resolve) =>
      waiting.push(() => {
        turn.done = true;
        resolve();
      }),
    ));
  }
  return props.children;
}

/** Call right before hydrating: parts wrapped in <HydrateLater> wait their turn. */
export function startHydration(): void {
  slicing = true;
}

/**
 * Call right after the first pass: hydrates the waiting parts one task each (a part's own parts
 * join the end of the line), and resolves once all are done: the page answers everywhere.
 */
export function finishHydration(): Promise<void> {
  return new Promise((done) => {
    // A message is a task of its own without setTimeout's 4 ms clamp after a few rounds.
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      const next = waiting.shift();
      if (!next) {
        slicing = false;
        channel.port1.close();
        done();
        return;
      }
      // The part renders in this task's microtasks (Preact's render queue), the next one after.
      next();
      channel.port2.postMessage(null);
    };
    channel.port2.postMessage(null);
  });
}
