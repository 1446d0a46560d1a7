import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ChatIcon from '@mui/icons-material/ChatBubbleOutlined';
import type { CrisisLine } from '@healthbook/shared/contracts/organizations';

import { CallButton, crisisLineName, telHref } from '../../../components/call-button';

export interface CrisisHelpProps {
  /** The organisation's emergency number. */
  emergencyNumber: string;
  /** The organisation's crisis lines (their names in en and el). */
  crisisLines: readonly CrisisLine[];
  /** Where a chat starts (the live-help page), or null when the organisation's live help is not active. */
  chatTo: string | null;
  /** Shown while the person is still answering: they may go on, the result follows. */
  whileAnswering?: boolean;
}

/**
 * Crisis help, shown first whenever someone may be at risk (PHQ-9 item 9 answered above 0):
 * the organisation's crisis lines and its emergency number as tel: links, and a way to start a
 * chat when live help is active. Calm and direct; it never hides what follows it.
 */
export function CrisisHelp({ emergencyNumber, crisisLines, chatTo, whileAnswering = false }: CrisisHelpProps) {
  const { t, i18n } = useTranslation('surveys');
  const headingId = useId();
  const language = i18n.resolvedLanguage === 'el' ? 'el' : 'en';
  return (
    <Paper
      component="section"
      aria-labelledby={headingId}
      data-testid="crisis-help"
      variant="outlined"
      sx={{ p: { xs: 2.5, sm: 3 }, mb: 3, borderRadius: 3, borderWidth: 2, borderColor: 'error.main' }}
    >
      <Typography variant="h2" id={headingId} sx={{ mb: 1 }}>
        {t('crisis.title')}
      </Typography>
      <Typography sx={{ mb: 1 }}>{t('crisis.text')}</Typography>
      <Typography sx={{ mb: 2 }}>{t('crisis.reachOut')}</Typography>
      {crisisLines.length > 0 && (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mb: 2, display: 'grid', gap: 1.5 }}>
          {crisisLines.map((line) => (
            <li key={line.number}>
              <CallButton number={line.number} variant="contained" color="error">
                {t('crisis.call', { name: crisisLineName(line, language), number: line.number })}
              </CallButton>
            </li>
          ))}
        </Box>
      )}
      <Typography sx={{ mb: chatTo ? 2 : 0 }}>
        {t('crisis.emergencyBefore')}{' '}
        <Link href={telHref(emergencyNumber)} sx={{ fontWeight: 700 }}>
          {t('crisis.emergencyLink', { number: emergencyNumber })}
        </Link>{' '}
        {t('crisis.emergencyAfter')}
      </Typography>
      {chatTo && (
        <Stack direction="row">
          <Button component={RouterLink} to={chatTo} variant="outlined" startIcon={<ChatIcon aria-hidden />} sx={{ width: { xs: '100%', sm: 'auto' } }}>
            {t('crisis.chat')}
          </Button>
        </Stack>
      )}
      {whileAnswering && (
        <Typography color="text.secondary" sx={{ mt: 2 }}>
          {t('crisis.keepGoing')}
        </Typography>
      )}
    </Paper>
  );
}
