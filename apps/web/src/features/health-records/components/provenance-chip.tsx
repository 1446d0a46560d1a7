import { Trans, useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import type { SxProps, Theme } from '@mui/material/styles';
import CloudDone from '@mui/icons-material/CloudDone';
import CloudOff from '@mui/icons-material/CloudOff';
import type { RecordProvenance } from '@healthbook/shared/contracts/records';

/** The provider's name, or "a provider" once the organisation removed it. */
function useSourceName(provenance: RecordProvenance) {
  const { t } = useTranslation('healthRecords');
  return provenance.source_name ?? t('provenance.unknownSource');
}

/** The provider's name inside a sentence: a name, not words to translate. */
const NAME = { name: <span translate="no" /> };

/** "From <provider>" on a record a connected source brought; "No longer at <provider>" once the source deleted it. */
export function ProvenanceChip({ provenance }: { provenance: RecordProvenance }) {
  const { t } = useTranslation('healthRecords');
  const source = useSourceName(provenance);
  const gone = provenance.deleted_at !== null;
  return (
    <Chip
      size="small"
      variant="outlined"
      // The words in the text colour (an info or warning outline's text falls short of 4.5:1); the icon says which.
      icon={gone ? <CloudOff color="warning" /> : <CloudDone color="primary" />}
      label={<Trans t={t} i18nKey={gone ? 'provenance.gone' : 'provenance.from'} values={{ source }} components={NAME} />}
      sx={{ maxWidth: '100%', height: 'auto', minHeight: 24, '& .MuiChip-label': { whiteSpace: 'normal', overflowWrap: 'anywhere', py: 0.25 } }}
    />
  );
}

/** Why a synced record's form leaves most fields alone (and, once the source deleted it, that it may be deleted). */
export function ProvenanceNotice({ provenance, sx }: { provenance: RecordProvenance; sx?: SxProps<Theme> }) {
  const { t } = useTranslation('healthRecords');
  const source = useSourceName(provenance);
  return (
    <Alert severity="info" sx={sx}>
      <Trans t={t} i18nKey="provenance.formLocked" values={{ source }} components={NAME} />
    </Alert>
  );
}

/** Why a synced record cannot be deleted (while its source still has it). */
export function ProvenanceDeleteNote({ provenance }: { provenance: RecordProvenance }) {
  const { t } = useTranslation('healthRecords');
  const source = useSourceName(provenance);
  return <Trans t={t} i18nKey="provenance.deleteBlocked" values={{ source }} components={NAME} />;
}
