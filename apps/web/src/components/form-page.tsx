import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useOrganizationContext } from '../lib/organization-context';

export interface FormPageProps {
  /** The document title, before " | {org_name}". */
  pageTitle: string;
  /** The page's one h1. */
  heading: string;
  /** Shown above the heading (a Back link). */
  top?: ReactNode;
  maxWidth?: number;
  children: ReactNode;
}

/** A logged-out page: one centred card with its h1, the way the sign-in page looks. */
export function FormPage({ pageTitle, heading, top, maxWidth = 480, children }: FormPageProps) {
  const { org } = useOrganizationContext();
  return (
    <Box sx={{ flex: 1, display: 'grid', placeItems: 'center', px: 2, py: { xs: 4, md: 8 } }}>
      <title>{`${pageTitle} | ${org.org_name}`}</title>
      <Paper variant="outlined" sx={{ width: '100%', maxWidth, p: { xs: 3, sm: 5 }, borderRadius: 3 }}>
        {top}
        <Typography variant="h1" gutterBottom>
          {heading}
        </Typography>
        {children}
      </Paper>
    </Box>
  );
}
