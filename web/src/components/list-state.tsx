// What a list shows instead of its items: a spinner while it loads, an alert when loading
// failed, a line when it has nothing; otherwise the list itself. Paging adds a Load more button.
import type { ReactNode } from 'react';

export type ListStatus = 'loading' | 'failed' | 'empty' | 'ready';

interface ListStateProps {
  status: ListStatus;
  /** The text of each state the list can be in. */
  texts: Partial<Record<Exclude<ListStatus, 'ready'>, string>>;
  children: ReactNode;
}

/** The status of a query-backed list (pending, error, no items, items). */
export function listStatus(query: { isPending: boolean; isError: boolean }, isEmpty = false): ListStatus {
  if (query.isPending) return 'loading';
  if (query.isError) return 'failed';
  return isEmpty ? 'empty' : 'ready';
}

export function ListState({ status, texts, children }: ListStateProps) {
  switch (status) {
    case 'loading':
      return (
        <p className="flex items-center gap-2" role="status">
          <span className="loading loading-spinner loading-sm" aria-hidden="true" /> {texts.loading}
        </p>
      );
    case 'failed':
      return <p role="alert">{texts.failed}</p>;
    case 'empty':
      return <p>{texts.empty}</p>;
    case 'ready':
      return <>{children}</>;
  }
}

/** A list's next page: whether there is one, whether it is loading, and how to load it. */
export interface Paging {
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
}

export function LoadMoreButton({ hasMore, loadingMore, onLoadMore, label }: Paging & { label: string }) {
  if (!hasMore) return null;
  return (
    <button type="button" className="btn btn-outline btn-sm self-start" disabled={loadingMore} onClick={onLoadMore}>
      {label}
    </button>
  );
}
