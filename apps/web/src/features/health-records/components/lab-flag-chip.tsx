import Chip from '@mui/material/Chip';
import { labFlag, labWithinRange } from '@healthbook/shared/records/format';
import { useRecordText } from '../../../lib/record-text';

/**
 * A lab result's flag as a chip, in the words of lists, shares and the PDF (shared format.ts):
 * critical filled, low, high and abnormal outlined in the error colour, normal in the success
 * colour; nothing when nothing is known.
 */
export function LabFlagChip({ record }: { record: Record<string, unknown> }) {
  const { t } = useRecordText();
  const flag = labFlag(record);
  if (flag) return <Chip size="small" color="error" variant={flag === 'critical' ? 'filled' : 'outlined'} label={t(`records:choices.labFlag.${flag}`)} data-flag={flag} />;
  if (labWithinRange(record)) return <Chip size="small" color="success" variant="outlined" label={t('records:labNormal')} data-flag="normal" />;
  return null;
}
