// Catches what a part of the tree throws while rendering (a screen whose chunk failed to load, a
// bug) and shows `fallback` in its place, so the rest of the page stays. A new `resetKey` (the
// address, when the person goes elsewhere) renders the part again. React logs what it caught.
import { Component, type ReactNode } from 'react';

interface ErrorBoundaryProps {
  fallback: (error: unknown) => ReactNode;
  resetKey?: unknown;
  children: ReactNode;
}

type ErrorBoundaryState = { failed: false } | { failed: true; error: unknown };

export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  state: ErrorBoundaryState = { failed: false };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { failed: true, error };
  }

  componentDidUpdate(previous: ErrorBoundaryProps): void {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }

  render(): ReactNode {
    return this.state.failed ? this.props.fallback(this.state.error) : this.props.children;
  }
}
