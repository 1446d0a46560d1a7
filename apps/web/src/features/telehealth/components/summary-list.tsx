import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** An appointment's facts as a description list: label and value side by side, stacked on a phone. */
export function SummaryList({ rows }: { rows: ReadonlyArray<readonly [label: string, value: string]> }) {
  return (
    <Box component="dl" sx={{ m: 0, mb: 3, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'auto 1fr' }, columnGap: 3, rowGap: { xs: 0.25, sm: 1 } }}>
      {rows.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" color="text.secondary">
            {label}
          </Typography>
          <Typography component="dd" sx={{ m: 0, mb: { xs: 1, sm: 0 }, fontWeight: 600, overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
