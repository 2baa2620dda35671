import { Component, type ReactNode } from 'react';

interface Props {
  /** A new value (the next page's address) clears a caught error. */
  resetKey: string;
  fallback: (retry: () => void) => ReactNode;
  children: ReactNode;
}

interface State {
  failed: boolean;
  resetKey: string;
}

/**
 * Keeps the header and menu on screen when a page fails to render, for instance when a page's
 * script could not be downloaded on a weak connection.
 */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { failed: false, resetKey: props.resetKey };
  }

  override componentDidCatch(error: unknown): void {
    console.error(error);
  }

  override render(): ReactNode {
    return this.state.failed
      ? this.props.fallback(() => window.location.reload())
      : this.props.children;
  }
}
