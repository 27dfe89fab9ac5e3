// A screen's main query as the screen renders it (issue 28 item 5). React Query's updates are
// synchronous: the answer's arrival would render everything it reveals (a form, a list) in one
// task that blocks the main thread. Through this hook that update renders the screen as it was
// (its spinner), and the screen with its answer follows in a deferred render, which yields to the
// browser between components. A state already there when the screen mounts renders at once.
import { useDeferredValue } from 'react';

export function useDeferredAnswer<T>(result: T): T {
  return useDeferredValue(result);
}
