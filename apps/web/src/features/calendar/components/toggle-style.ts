import type { Theme } from '@mui/material/styles';

/**
 * A chosen toggle button filled with the organisation's colour, its text in the colour's own
 * contrast text: MUI's tinted look puts the primary colour on a pale tint (below 4.5:1).
 */
export const selectedToggle = {
  '& .MuiToggleButton-root.Mui-selected, & .MuiToggleButton-root.Mui-selected:hover': {
    bgcolor: 'primary.main',
    color: 'primary.contrastText',
    borderColor: 'primary.main',
  },
  '& .MuiToggleButton-root.Mui-selected:hover': { bgcolor: (theme: Theme) => theme.palette.primary.dark },
} as const;
