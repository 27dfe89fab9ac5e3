// A titled card section: the heading names the section for assistive technology.
import type { ReactNode } from 'react';

interface PanelProps {
  /** The heading's id (the section's accessible name points at it). */
  titleId: string;
  title: string;
  children: ReactNode;
  /** The card's look; a bordered card unless given. */
  className?: string;
}

export function Panel({ titleId, title, children, className = 'border border-base-300 bg-base-100' }: PanelProps) {
  return (
    <section aria-labelledby={titleId} className={`card ${className}`}>
      <div className="card-body gap-3">
        <h2 id={titleId} className="card-title">
          {title}
        </h2>
        {children}
      </div>
    </section>
  );
}
