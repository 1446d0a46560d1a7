import type { ReactNode } from 'react';
import Button, { type ButtonProps } from '@mui/material/Button';
import PhoneIcon from '@mui/icons-material/Phone';
import type { CrisisLine } from '@healthbook/shared/contracts/organizations';

/** A tel: address of a number as people write it ("+30 210-1234" → tel:+302101234). */
export const telHref = (number: string) => `tel:${number.replace(/[^0-9+]/g, '')}`;

/** A crisis line's name in the reader's language, else in English (the administrators may give only that). */
export const crisisLineName = (line: CrisisLine, language: string | undefined) => (language === 'el' && line.name.el) || line.name.en;

/** A tap to call a number: a button that is a tel: link, the whole width on a phone. */
export function CallButton({ number, children, sx, ...props }: { number: string; children: ReactNode } & Pick<ButtonProps, 'variant' | 'color' | 'size' | 'sx'>) {
  return (
    <Button
      component="a"
      href={telHref(number)}
      startIcon={<PhoneIcon aria-hidden />}
      sx={[{ justifyContent: 'flex-start', textAlign: 'left', width: { xs: '100%', sm: 'auto' } }, ...(Array.isArray(sx) ? sx : [sx])]}
      {...props}
    >
      {children}
    </Button>
  );
}
