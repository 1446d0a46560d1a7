import type { MouseEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import Link from '@mui/material/Link';
import SvgIcon from '@mui/material/SvgIcon';

export interface BackLinkProps {
  /** Where the link goes (and where "back" goes when there is no earlier page of the app). */
  to: string;
  label: string;
  /** Go back one step in the history instead of to `to`, when there is a step to go back to. */
  historyBack?: boolean;
}

/** "← Back": a real link (so it opens in a new tab, and works without history), optionally history-back. */
export function BackLink({ to, label, historyBack = false }: BackLinkProps) {
  const navigate = useNavigate();
  const location = useLocation();
  // The first page of the app's session has the key "default": there is nothing of ours to go back to.
  const canGoBack = historyBack && location.key !== 'default';
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!canGoBack || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    void navigate(-1);
  };
  return (
    <Link component={RouterLink} to={to} onClick={onClick} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mb: 2 }}>
      <SvgIcon fontSize="small" aria-hidden>
        <path d="M20 11H7.83l5.59-5.59L12 4l-8 8 8 8 1.41-1.41L7.83 13H20z" />
      </SvgIcon>
      {label}
    </Link>
  );
}
