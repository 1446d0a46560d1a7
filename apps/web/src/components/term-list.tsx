import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';

export interface Term {
  /** Unique within the list (its React key). */
  key: string;
  label: ReactNode;
  value: ReactNode;
}

/**
 * A card's label–value pairs as a description list (dt/dd) in two columns: how a table's row
 * reads on a phone, where each column's heading goes beside its value. Empty values are left out.
 */
export function TermList({ terms, sx }: { terms: readonly Term[]; sx?: SxProps<Theme> }) {
  return (
    <Box component="dl" sx={[{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 1.5, rowGap: 0.25 }, ...(Array.isArray(sx) ? sx : [sx])]}>
      {terms
        .filter((term) => term.value !== null && term.value !== undefined && term.value !== '')
        .map((term) => (
          <Box key={term.key} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {term.label}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
              {term.value}
            </Typography>
          </Box>
        ))}
    </Box>
  );
}
