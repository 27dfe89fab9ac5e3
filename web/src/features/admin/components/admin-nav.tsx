// The links between the admin console's pages.
import { ADMIN_CONSOLE_PATH } from '@domain/account';
import { ADMIN_HOSTING_PATH } from '@domain/admin-hosting';
import { NavLink } from 'react-router-dom';
import { hostingTexts as t } from '../texts';

const links = [
  { to: ADMIN_CONSOLE_PATH, label: t.resubmitLink },
  { to: ADMIN_HOSTING_PATH, label: t.hostingLink },
];

export function AdminNav() {
  return (
    <nav aria-label={t.nav}>
      <ul className="flex flex-wrap gap-2">
        {links.map((link) => (
          <li key={link.to}>
            <NavLink to={link.to} end className={({ isActive }) => `btn btn-sm ${isActive ? 'btn-primary' : 'btn-ghost'}`}>
              {link.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
