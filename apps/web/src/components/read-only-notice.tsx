import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import type { SxProps, Theme } from '@mui/material/styles';
import LockOutlined from '@mui/icons-material/LockOutlined';

/**
 * Where a page's main action is missing because the viewed record is open read-only (care
 * network): says why. `chat`: the Terms' sentence about providers.
 */
export function ReadOnlyNotice({ chat = false, sx }: { chat?: boolean; sx?: SxProps<Theme> }) {
  const { t } = useTranslation('common');
  return (
    <Alert severity="info" icon={<LockOutlined fontSize="inherit" />} sx={{ mb: 3, ...sx }}>
      {chat ? t('recordAccess.readOnlyChat') : t('recordAccess.readOnly')}
    </Alert>
  );
}
