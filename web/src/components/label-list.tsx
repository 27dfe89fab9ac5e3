// Labelled values read as a list (a description list): on phones each label sits above its value,
// wider screens put them side by side; a long value (an e-mail, a post's text) wraps anywhere
// rather than widening the page, and keeps its own line breaks.
import type { ReactNode } from 'react';

export type LabelledValue = readonly [label: string, value: ReactNode];

export function LabelList({ rows, className = '' }: { rows: readonly LabelledValue[]; className?: string }) {
  return (
    <dl className={className}>
      {rows.map(([label, value]) => (
        <div key={label} className="grid grid-cols-1 gap-x-2 py-1 sm:grid-cols-[10rem_minmax(0,1fr)]">
          <dt className="font-medium">{label}</dt>
          <dd className="min-w-0 whitespace-pre-line [overflow-wrap:anywhere]">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
