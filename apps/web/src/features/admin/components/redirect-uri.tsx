import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import ContentCopy from '@mui/icons-material/ContentCopy';

/** The address to register with a provider as the client's redirect URI, with a copy button. */
export function RedirectUri({ value }: { value: string }) {
  const { t } = useTranslation('admin');
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <Box sx={{ p: 1.5, bgcolor: 'action.hover', borderRadius: 2 }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {t('sources.redirect.label')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('sources.redirect.hint')}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Box component="code" translate="no" sx={{ flex: '1 1 240px', fontSize: 14, wordBreak: 'break-all', p: 1, bgcolor: 'background.paper', borderRadius: 1 }}>
          {value}
        </Box>
        <Button size="small" variant="outlined" startIcon={<ContentCopy />} onClick={() => void copy()}>
          {t('sources.redirect.copy')}
        </Button>
      </Box>
      <Typography role="status" variant="body2" sx={{ mt: copied ? 0.5 : 0 }}>
        {copied === 'yes' ? t('sources.redirect.copied') : copied === 'failed' ? t('sources.redirect.copyFailed') : ''}
      </Typography>
    </Box>
  );
}
