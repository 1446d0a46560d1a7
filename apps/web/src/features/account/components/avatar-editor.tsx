import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { AVATAR_MAX_BYTES } from '@healthbook/shared/constants';
import type { UserDto } from '@healthbook/shared/contracts/users';
import { UserAvatar } from '../../../components/user-avatar';
import { applyServerErrors } from '../../../lib/form-errors';
import { useDeleteAvatar } from '../api/delete-avatar';
import { useUploadAvatar } from '../api/upload-avatar';

const ACCEPTED = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** The profile picture with Change and Remove; the initials stand in when there is none. */
export function AvatarEditor({ user }: { user: UserDto }) {
  const { t } = useTranslation(['account', 'validation']);
  const input = useRef<HTMLInputElement>(null);
  const uploadAvatar = useUploadAvatar();
  const deleteAvatar = useDeleteAvatar();
  const busy = uploadAvatar.isPending || deleteAvatar.isPending;
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  const run = async (action: () => Promise<unknown>, done: string) => {
    setError(null);
    setStatus(null);
    try {
      await action();
      setStatus(done);
    } catch (err) {
      setError(applyServerErrors(err, { fallback: t('avatar.error') }));
    }
  };

  const onFile = (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    if (!ACCEPTED.includes(file.type)) return setError(t('validation:imageRequired'));
    if (file.size > AVATAR_MAX_BYTES) return setError(t('validation:imageTooLarge'));
    void run(() => uploadAvatar.mutateAsync(file), t('avatar.uploaded'));
  };

  const name = `${user.first_name} ${user.last_name}`.trim();
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2.5} sx={{ alignItems: { xs: 'flex-start', sm: 'center' } }}>
      <UserAvatar user={user} size={88} alt={user.profile_picture ? t('avatar.alt', { name }) : t('avatar.initialsAlt', { name })} />
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="h2" sx={{ overflowWrap: 'anywhere' }}>
          {name}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 1.5, overflowWrap: 'anywhere' }}>
          {user.email}
        </Typography>
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <Button variant="outlined" size="small" disabled={busy} onClick={() => input.current?.click()} sx={{ bgcolor: 'background.paper' }}>
            {user.profile_picture ? t('avatar.change') : t('avatar.add')}
          </Button>
          {user.profile_picture && (
            <Button size="small" color="inherit" disabled={busy} onClick={() => void run(() => deleteAvatar.mutateAsync(), t('avatar.removed'))}>
              {t('avatar.remove')}
            </Button>
          )}
        </Stack>
        <input ref={input} type="file" accept={ACCEPTED.join(',')} hidden aria-hidden tabIndex={-1} onChange={(e) => onFile(e.target.files?.[0])} />
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t('avatar.hint')}
        </Typography>
        {error && (
          <Typography role="alert" variant="body2" color="error" sx={{ mt: 1 }}>
            {error}
          </Typography>
        )}
        <Typography role="status" variant="body2" color="success.main" sx={{ mt: status ? 1 : 0 }}>
          {status ?? ''}
        </Typography>
      </Box>
    </Stack>
  );
}
