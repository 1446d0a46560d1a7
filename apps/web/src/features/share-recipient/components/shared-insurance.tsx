import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { SharedInsuranceCard } from '@healthbook/shared/contracts/sharing';
import { formatIsoDate } from '@healthbook/shared/records/format';

/** The insurance cards a share includes: each card's details (a share never holds the photos). */
export function SharedInsurance({ cards, language }: { cards: SharedInsuranceCard[]; language: string }) {
  const { t } = useTranslation('shareRecipient');
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} variant="h2" sx={{ mb: 0.5 }}>
        {t('insurance.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('insurance.count', { count: cards.length })}
      </Typography>
      <Stack spacing={2}>
        {cards.map((card) => {
          const relationship = t(`insurance.relationship.${card.holder_relationship}`);
          const validity = [
            card.valid_from ? t('insurance.validFrom', { date: formatIsoDate(card.valid_from, language) }) : null,
            card.valid_to ? t('insurance.validTo', { date: formatIsoDate(card.valid_to, language) }) : null,
          ].filter((part): part is string => part !== null);
          const rows: Array<[string, string]> = [
            ...(card.plan ? ([[t('insurance.plan'), card.plan]] as Array<[string, string]>) : []),
            [t('insurance.memberNumber'), card.member_number],
            ...(card.group_number ? ([[t('insurance.groupNumber'), card.group_number]] as Array<[string, string]>) : []),
            [t('insurance.holder'), card.holder_name ? `${card.holder_name} (${relationship})` : relationship],
            ...(validity.length > 0 ? ([[t('insurance.validity'), validity.join(' ')]] as Array<[string, string]>) : []),
          ];
          return (
            <Paper key={card.id} variant="outlined" component="article" sx={{ borderRadius: 2, p: { xs: 2, sm: 3 } }}>
              <Typography variant="h3" sx={{ fontSize: '1.1rem', fontWeight: 600, mb: 1.5, overflowWrap: 'anywhere' }}>
                {card.insurer}
              </Typography>
              <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' }, columnGap: 3, rowGap: { xs: 0.25, sm: 0.75 } }}>
                {rows.map(([label, value]) => (
                  <Box key={label} sx={{ display: 'contents' }}>
                    <Typography component="dt" variant="body2" color="text.secondary" sx={{ mt: { xs: 1, sm: 0 } }}>
                      {label}
                    </Typography>
                    <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                      {value}
                    </Typography>
                  </Box>
                ))}
              </Box>
            </Paper>
          );
        })}
      </Stack>
    </Box>
  );
}
