import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import type { ShareStatus } from '@healthbook/shared/sharing';
import { STATUS_COLORS } from '../share-text';

/** A share's status: active, expired, revoked or locked. */
export function StatusChip({ status }: { status: ShareStatus }) {
  const { t } = useTranslation('sharing');
  return <Chip size="small" color={STATUS_COLORS[status]} label={t(`status.${status}`)} sx={{ fontWeight: 600 }} />;
}
