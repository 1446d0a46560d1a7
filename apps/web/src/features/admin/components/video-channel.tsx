import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { OrganizationDetail } from '@healthbook/shared/contracts/organizations';
import { applyServerErrors } from '../../../lib/form-errors';
import { useUpdateOrganizationSettings } from '../api/update-organization-settings';

/** The organisation's external video channel (the menu's Videos item): an https address, or none. */
export function VideoChannel({ organization }: { organization: OrganizationDetail }) {
  const { t } = useTranslation('admin');
  const update = useUpdateOrganizationSettings();
  // The page's organisation details are read once per page load: what was saved here is kept here.
  const [current, setCurrent] = useState(organization.video_channel_url);
  const [value, setValue] = useState(current ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const headingId = useId();

  const save = async (next: string | null) => {
    setError(null);
    setSaved(null);
    try {
      const updated = await update.mutateAsync({ organizationId: organization.org, settings: { video_channel_url: next } });
      setCurrent(updated.video_channel_url);
      setValue(updated.video_channel_url ?? '');
      setSaved(next ? t('videos.saved') : t('videos.removed'));
    } catch (failure) {
      const messages: string[] = [];
      const general = applyServerErrors<{ video_channel_url: string }>(failure, {
        setError: (_field, e) => messages.push(e.message ?? ''),
        fields: ['video_channel_url'],
        fallback: t('videos.saveFailed'),
      });
      setError(messages.join(' ') || general || t('videos.saveFailed'));
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(value.trim() || null);
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ borderRadius: 3, p: { xs: 2, sm: 3 } }}>
      <Typography id={headingId} variant="h2" sx={{ mb: 0.5 }}>
        {t('videos.title')}
      </Typography>
      <Typography color="text.secondary" variant="body2" sx={{ mb: 2 }}>
        {t('videos.intro')}
      </Typography>
      <Box component="form" noValidate onSubmit={submit}>
        <TextField
          fullWidth
          type="url"
          label={t('videos.label')}
          placeholder="https://"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          error={error !== null}
          helperText={error ?? t('videos.help')}
          sx={{ mb: 2 }}
        />
        <Stack direction="row" spacing={1.5} sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
          <Button type="submit" variant="contained" disabled={update.isPending}>
            {t('videos.save')}
          </Button>
          {current && (
            <Button variant="outlined" color="inherit" disabled={update.isPending} onClick={() => void save(null)}>
              {t('videos.remove')}
            </Button>
          )}
          {saved && (
            <Typography role="status" color="success.main">
              {saved}
            </Typography>
          )}
        </Stack>
      </Box>
    </Paper>
  );
}
