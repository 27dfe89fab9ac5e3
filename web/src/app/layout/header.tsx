// The header: product name with the 'v1.0' badge, and for a signed-in user the avatar (profile
// image or initials), the name and the account menu (Manage Subscription, Join Premium
// Community, Logout; the admin console when the server says the user is an administrator).
import { ADMIN_CONSOLE_PATH } from '@domain/account';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useCurrentAccount } from '@/lib/current-account';
import { communityUrl } from '@/lib/external-links';
import { useLogout } from '@/features/auth/api/logout';
import { dashboardTexts } from '../routes/dashboard/texts';
import { appTexts } from '../texts';

function initialsOf(first: string | null | undefined, last: string | null | undefined, email: string | undefined): string {
  const letters = [first, last].map((part) => part?.trim().charAt(0) ?? '').join('');
  return (letters || email?.charAt(0) || '?').toUpperCase();
}

export function Header() {
  const { data: account } = useCurrentAccount();
  const logout = useLogout();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const menuRoot = useRef<HTMLDivElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  const name = [account?.firstName, account?.lastName].filter(Boolean).join(' ') || account?.email;

  useEffect(() => {
    if (!menuOpen) return;
    // Escape closes the menu and puts focus back on its button, where the keyboard user was.
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    const onClick = (event: MouseEvent) => {
      if (!menuRoot.current?.contains(event.target as Node)) setMenuOpen(false);
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('mousedown', onClick);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('mousedown', onClick);
    };
  }, [menuOpen]);

  return (
    <header className="navbar border-b border-base-300 bg-base-100 px-4">
      <div className="flex flex-1 items-center gap-3">
        <Link to="/" className="text-xl font-bold">
          {appTexts.productName}
        </Link>
        <span className="badge badge-outline">{appTexts.version}</span>
      </div>
      {account && (
        <div ref={menuRoot} className="relative">
          <button
            ref={menuButton}
            type="button"
            className="btn btn-ghost gap-2"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            aria-label={`${dashboardTexts.menuLabel}: ${name ?? ''}`}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {account.profileImageUrl ? (
              <img src={account.profileImageUrl} alt="" className="h-8 w-8 rounded-full object-cover" />
            ) : (
              <span className="flex h-8 w-8 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-content" aria-hidden="true">
                {initialsOf(account.firstName, account.lastName, account.email)}
              </span>
            )}
            {/* The name shows on phones too (spec: avatar and name), cut short there; the label has it whole. */}
            <span className="max-w-[7rem] truncate text-sm sm:max-w-xs">{name}</span>
          </button>
          {menuOpen && (
            <ul id={menuId} className="menu absolute right-0 z-20 mt-2 w-60 rounded-box border border-base-300 bg-base-100 p-2 shadow">
              <li>
                <button
                  type="button"
                  onClick={() => {
                    setMenuOpen(false);
                    navigate('/subscribe');
                  }}
                >
                  {dashboardTexts.manageSubscription}
                </button>
              </li>
              <li>
                <a href={communityUrl} target="_blank" rel="noopener noreferrer" onClick={() => setMenuOpen(false)}>
                  {dashboardTexts.joinCommunity}
                </a>
              </li>
              {account.isAdmin && (
                <li>
                  <Link to={ADMIN_CONSOLE_PATH} onClick={() => setMenuOpen(false)}>
                    {appTexts.adminConsole}
                  </Link>
                </li>
              )}
              <li>
                <button type="button" onClick={() => logout.mutate()}>
                  {appTexts.logout}
                </button>
              </li>
            </ul>
          )}
        </div>
      )}
    </header>
  );
}
