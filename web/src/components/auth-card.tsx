// The centred card the sign-in screens share.
import type { ReactNode } from 'react';

export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <main className="flex min-h-[calc(100vh-4rem)] items-center justify-center px-4 py-10">
      <section className="card w-full max-w-md bg-base-100 shadow-xl" aria-labelledby="auth-card-title">
        <div className="card-body gap-4">
          <h1 id="auth-card-title" className="card-title text-2xl">
            {title}
          </h1>
          {subtitle && <p className="text-base-content/70">{subtitle}</p>}
          {children}
        </div>
      </section>
    </main>
  );
}
