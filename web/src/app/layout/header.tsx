import { ADMIN_CONSOLE_PATH } from '@domain/account';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { useCurrentAccount } from '@/lib/current-account';
import { logout } from '@/lib/logout';
import { appTexts } from '../texts';

export function Header() {
  const { data: account } = useCurrentAccount();
  const queryClient = useQueryClient();
  const name = [account?.firstName, account?.lastName].filter(Boolean).join(' ') || account?.email;
  return (
    <header className="navbar border-b border-base-300 bg-base-100 px-4">
      <div className="flex-1 items-center gap-2">
        <Link to="/" className="text-xl font-bold">
          {appTexts.productName}
        </Link>
        <span className="badge badge-outline">{appTexts.version}</span>
      </div>
      {account && (
        <div className="flex items-center gap-3">
          {account.isAdmin && <Link to={ADMIN_CONSOLE_PATH} className="btn btn-ghost btn-sm">{appTexts.adminConsole}</Link>}
          <span className="hidden text-sm sm:inline">{name}</span>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => void logout(queryClient)}>
            {appTexts.logout}
          </button>
        </div>
      )}
    </header>
  );
}
