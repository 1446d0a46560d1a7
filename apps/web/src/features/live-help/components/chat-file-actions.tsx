import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import SaveAlt from '@mui/icons-material/SaveAlt';
import type { ChatFile } from '@healthbook/shared/chat-protocol';
import { formatBytes } from '../../../lib/files';
import { downloadChatFile, useSaveChatFile } from '../api/chat-files';

/**
 * A chat file: its name as a download link (fetched with the session, never a token in a URL)
 * and its size; "Save to Document Center" when that feature is active for the patient.
 */
export function ChatFileLink({ file }: { file: ChatFile }) {
  const { t, i18n } = useTranslation('liveHelp');
  const [failed, setFailed] = useState(false);
  const download = () => {
    setFailed(false);
    downloadChatFile(file.id, file.name).catch(() => setFailed(true));
  };
  return (
    <>
      <Link
        component="button"
        type="button"
        onClick={download}
        aria-label={t('file.download', { name: file.name })}
        color="inherit"
        underline="always"
        sx={{ fontWeight: 600, textAlign: 'start', overflowWrap: 'anywhere', font: 'inherit' }}
      >
        {file.name}
      </Link>
      <Typography component="span" variant="caption" sx={{ display: 'block' }}>
        {formatBytes(file.size, i18n.resolvedLanguage ?? 'en')}
      </Typography>
      {failed && (
        <Typography role="alert" variant="caption" sx={{ display: 'block', fontWeight: 600 }}>
          {t('file.downloadFailed', { name: file.name })}
        </Typography>
      )}
    </>
  );
}

export function SaveChatFileButton({ file }: { file: ChatFile }) {
  const { t } = useTranslation('liveHelp');
  const save = useSaveChatFile();
  return (
    <Box sx={{ mt: 0.5 }}>
      {save.isSuccess ? (
        <Typography role="status" variant="caption" color="success.main" sx={{ fontWeight: 600 }}>
          {t('file.saved')}
        </Typography>
      ) : (
        <Button
          size="small"
          startIcon={<SaveAlt />}
          onClick={() => save.mutate(file.id)}
          disabled={save.isPending}
          aria-label={t('file.saveNamed', { name: file.name })}
          sx={{ py: 0 }}
        >
          {save.isPending ? t('file.saving') : t('file.save')}
        </Button>
      )}
      {save.isError && (
        <Typography role="alert" variant="caption" color="error" sx={{ display: 'block' }}>
          {t('file.saveFailed', { name: file.name })}
        </Typography>
      )}
    </Box>
  );
}
