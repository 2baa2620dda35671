// Where Preact (through preact/compat, see vite.config.ts) behaves unlike React in a way the app
// relies on. Imported once by the browser entry; the server render needs none of it.
import { options, type VNode } from 'preact';

type Ref = ((el: Element | null) => unknown) | { current: Element | null } | null | undefined;

const focused = new WeakSet<Element>();
const previousVnode = options.vnode;

/**
 * React focuses an element rendered with `autoFocus` when it mounts (a reply box, a dialog's
 * button); Preact only writes the attribute, which browsers honour once per page load. The
 * element's ref is wrapped so it takes the focus the first time it is attached.
 */
options.vnode = (vnode: VNode) => {
  const props = vnode.props as { autoFocus?: boolean; autofocus?: boolean } | null;
  if (typeof vnode.type === 'string' && (props?.autoFocus || props?.autofocus)) {
    const holder = vnode as unknown as { ref: Ref };
    const ref = holder.ref;
    holder.ref = (el: Element | null) => {
      if (el instanceof HTMLElement && !focused.has(el)) {
        focused.add(el);
        el.focus();
      }
      if (typeof ref === 'function') return ref(el);
      if (ref) ref.current = el;
    };
  }
  previousVnode?.(vnode);
};
