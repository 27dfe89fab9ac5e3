// A screen in its own chunk that can be fetched ahead of rendering.
import { lazy, useState, type ComponentType } from 'react';

export type LazyPage = ComponentType & {
  /** Fetches the screen's chunk (once; a failed fetch is tried again on the next call). */
  load: () => Promise<unknown>;
};

export function lazyPage(importPage: () => Promise<{ default: ComponentType }>): LazyPage {
  let loaded: ComponentType | undefined;
  let loading: Promise<{ default: ComponentType }> | undefined;
  const load = () =>
    (loading ??= importPage().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  const LazyScreen = lazy(load);
  // A chunk already fetched renders at once: through React.lazy it would still suspend for a
  // moment, and React holds back the content that replaces a fallback for up to 300 ms.
  // Chosen once per mount, so the screen never remounts when its chunk arrives.
  function Page() {
    const [Screen] = useState<ComponentType>(() => loaded ?? LazyScreen);
    return <Screen />;
  }
  return Object.assign(Page, { load });
}
