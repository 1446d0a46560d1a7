import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import EmailIcon from '@mui/icons-material/EmailOutlined';
import PhoneIcon from '@mui/icons-material/PhonelinkLock';
import type { UserDto } from '@healthbook/shared/contracts/users';
import { ConfirmIdentityDialog } from '../../../components/confirm-identity-dialog';
import { failureText } from '../../../lib/form-errors';
import { paths } from '../../../lib/paths';
import { canProveWithCode, isProofError, type IdentityProof } from '../../../lib/reauth';
import { useRemoveMfaDevice } from '../api/remove-mfa-device';

type Device = UserDto['mfa_devices'][number];

/** Security: the second factors with Remove (after "Confirm it's you"), or 'Add a second factor' when there is none. */
export function SecurityTab({ user, clientId, mfaJustEnabled }: { user: UserDto; clientId: string; mfaJustEnabled: boolean }) {
  const { t } = useTranslation('account');
  const removeDevice = useRemoveMfaDevice();
  const [confirming, setConfirming] = useState<Device | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(mfaJustEnabled && user.has_mfa_enabled ? t('security.enabled') : null);
  const devices = user.mfa_devices;

  const remove = async (device: Device, proof: IdentityProof) => {
    setFailure(null);
    setStatus(null);
    try {
      await removeDevice.mutateAsync({ uuid: device.uuid, proof });
      setStatus(t('security.removed', { type: t(`mfa.types.${device.device_type}`) }));
    } catch (error) {
      // A refused password stays in the dialog; any other failure is the removal's.
      if (isProofError(error)) throw error;
      setFailure(failureText(t('security.removeError'), error));
    }
    setConfirming(null);
  };

  return (
    <Box sx={{ display: 'grid', gap: 2.5 }}>
      <Typography variant="h2">{t('profile.tabs.security')}</Typography>
      <Typography>{user.has_mfa_enabled ? t('security.on') : t('security.off')}</Typography>
      <Typography role="status" color="success.main" sx={{ display: status ? 'block' : 'none' }}>
        {status ?? ''}
      </Typography>
      {failure && (
        <Typography role="alert" color="error">
          {failure}
        </Typography>
      )}
      {devices.length > 0 && (
        <Stack component="ul" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label={t('security.devicesLabel')}>
          {devices.map((device) => (
            <Paper component="li" key={device.uuid} variant="outlined" sx={{ p: 2, borderRadius: 2, display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
              {device.device_type === 'email' ? <EmailIcon color="primary" aria-hidden /> : <PhoneIcon color="primary" aria-hidden />}
              <Box sx={{ flex: '1 1 180px', minWidth: 0 }}>
                <Typography sx={{ fontWeight: 600 }}>{t(`mfa.types.${device.device_type}`)}</Typography>
                <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                  {device.device_type === 'email' ? t('security.emailDevice', { email: user.email }) : t('security.googleDevice')}
                </Typography>
              </Box>
              <Button
                color="error"
                variant="outlined"
                size="small"
                disabled={removeDevice.isPending}
                onClick={() => setConfirming(device)}
                aria-label={t('security.removeLabel', { type: t(`mfa.types.${device.device_type}`) })}
              >
                {t('security.remove')}
              </Button>
            </Paper>
          ))}
        </Stack>
      )}
      {!user.has_mfa_enabled && (
        <Box>
          <Button component={RouterLink} to={paths.mfaRegister(clientId)} variant="contained">
            {t('security.add')}
          </Button>
        </Box>
      )}
      <ConfirmIdentityDialog
        open={confirming !== null}
        title={t('security.confirmTitle')}
        description={`${devices.length <= 1 ? t('security.confirmLast') : t('security.confirmText')} ${t('reauth.removeFactor')}`}
        submitLabel={t('security.remove')}
        submitColor="error"
        allowCode={canProveWithCode(user)}
        onConfirm={(_values, proof) => remove(confirming!, proof)}
        onClose={() => setConfirming(null)}
      />
    </Box>
  );
}
