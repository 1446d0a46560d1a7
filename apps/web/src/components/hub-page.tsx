import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Link from '@mui/material/Link';
import ArrowBack from '@mui/icons-material/ArrowBack';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useOrganizationContext } from '../lib/organization-context';

export interface HubPageProps {
  /** The document title's first part ("<pageTitle> | <organisation>"); the heading when no title is given. */
  pageTitle: string;
  /** The page's one h1; null when the page draws its own. */
  title?: ReactNode;
  /** A line under the heading. */
  intro?: ReactNode;
  maxWidth?: number;
  /** A way back up (the page this one belongs to), shown above the heading. */
  back?: { to: string; label: string };
  children: ReactNode;
}

/** A page of the signed-in hub: centred column, the document title, a way back, the heading and its intro. */
export function HubPage({ pageTitle, title = pageTitle, intro, maxWidth = 960, back, children }: HubPageProps) {
  const { org } = useOrganizationContext();
  return (
    <Box sx={{ width: '100%', maxWidth, mx: 'auto', px: { xs: 2, sm: 4 }, py: { xs: 3, md: 5 } }}>
      <title>{`${pageTitle} | ${org.org_name}`}</title>
      {back && (
        <Link component={RouterLink} to={back.to} sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, mb: 1.5 }}>
          <ArrowBack fontSize="small" aria-hidden />
          {back.label}
        </Link>
      )}
      {title !== null && (
        <Typography variant="h1" sx={{ mb: intro ? 1 : 3 }}>
          {title}
        </Typography>
      )}
      {intro && (
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {intro}
        </Typography>
      )}
      {children}
    </Box>
  );
}
