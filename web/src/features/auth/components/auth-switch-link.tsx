// The line under an auth form that leads to the neighbouring screen ('Already have an account? Sign in').
import { Link } from 'react-router-dom';

export function AuthSwitchLink({ prompt, to, label }: { prompt: string; to: string; label: string }) {
  return (
    <p className="text-center text-sm">
      {prompt}{' '}
      <Link className="link link-primary" to={to}>
        {label}
      </Link>
    </p>
  );
}
