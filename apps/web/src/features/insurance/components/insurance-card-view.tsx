import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import Delete from '@mui/icons-material/Delete';
import Edit from '@mui/icons-material/Edit';
import EventBusy from '@mui/icons-material/EventBusy';
import type { InsuranceCard } from '@healthbook/shared/contracts/insurance';
import { CardPhoto } from './card-photo';
import { useRecordAccess } from '../../../lib/record-access';

/** Today on this device, as YYYY-MM-DD. */
export function localToday(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** A card whose last valid day has passed. */
export const isExpired = (card: Pick<InsuranceCard, 'valid_to'>, today = localToday()) => card.valid_to !== null && card.valid_to < today;

function formatDate(date: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
}

export interface InsuranceCardViewProps {
  card: InsuranceCard;
  onEdit: () => void;
  onDelete: () => void;
}

/** One card: who insures, the numbers asked for at a desk, who holds it, until when, both sides' photos. */
export function InsuranceCardView({ card, onEdit, onDelete }: InsuranceCardViewProps) {
  const { writes } = useRecordAccess();
  const canWrite = writes.insurance;
  const { t, i18n } = useTranslation('insurance');
  const expired = isExpired(card);
  const date = (d: string) => formatDate(d, i18n.language);
  const validity =
    card.valid_from && card.valid_to
      ? t('validFromTo', { from: date(card.valid_from), to: date(card.valid_to) })
      : card.valid_from
        ? t('validFrom', { from: date(card.valid_from) })
        : card.valid_to
          ? t('validTo', { to: date(card.valid_to) })
          : null;
  const relationship = t(`relationship.${card.holder_relationship}`);
  const holder = card.holder_name ? t('holderWithRelationship', { name: card.holder_name, relationship }) : card.holder_relationship === 'self' ? null : relationship;
  const rows: Array<[string, string]> = [
    [t('memberNumber'), card.member_number],
    ...(card.group_number ? [[t('groupNumber'), card.group_number] as [string, string]] : []),
    ...(holder ? [[t('holder'), holder] as [string, string]] : []),
    ...(validity ? [[t('validity'), validity] as [string, string]] : []),
  ];
  return (
    <Paper component="article" variant="outlined" sx={{ p: { xs: 2, sm: 3 }, display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }} aria-label={card.insurer}>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, flexWrap: 'wrap' }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="h2" sx={{ fontSize: '1.25rem', overflowWrap: 'anywhere' }}>
            {card.insurer}
          </Typography>
          {card.plan && (
            <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {card.plan}
            </Typography>
          )}
        </Box>
        {expired && <Chip label={t('expired')} icon={<EventBusy aria-hidden />} size="small" variant="outlined" sx={{ borderColor: 'warning.dark', '& .MuiChip-icon': { color: 'warning.dark' } }} />}
      </Box>
      <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'minmax(0, auto) minmax(0, 1fr)' }, columnGap: 2, rowGap: { xs: 0, sm: 0.75 } }}>
        {rows.map(([label, value]) => (
          <Box key={label} sx={{ display: 'contents' }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {label}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, mb: { xs: 1, sm: 0 }, fontWeight: 500, overflowWrap: 'anywhere' }}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
      {card.notes && (
        <Box>
          <Typography variant="body2" color="text.secondary">
            {t('notes')}
          </Typography>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {card.notes}
          </Typography>
        </Box>
      )}
      <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1.5 }}>
        <CardPhoto url={card.front?.url ?? null} sideLabel={t('front')} insurer={card.insurer} />
        <CardPhoto url={card.back?.url ?? null} sideLabel={t('back')} insurer={card.insurer} />
      </Box>
      {canWrite && (
        <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', flexWrap: 'wrap' }}>
          <Button startIcon={<Edit aria-hidden />} onClick={onEdit} aria-label={t('editLabel', { insurer: card.insurer })}>
            {t('edit')}
          </Button>
          <Button startIcon={<Delete aria-hidden />} color="error" onClick={onDelete} aria-label={t('deleteLabel', { insurer: card.insurer })}>
            {t('delete')}
          </Button>
        </Box>
      )}
    </Paper>
  );
}
