import { useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogContentText from '@mui/material/DialogContentText';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AttachFile from '@mui/icons-material/AttachFile';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Download from '@mui/icons-material/Download';
import Image from '@mui/icons-material/Image';
import PictureAsPdf from '@mui/icons-material/PictureAsPdf';
import Visibility from '@mui/icons-material/Visibility';
import type { Attachment, HealthRecord } from '@healthbook/shared/contracts/records';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog';
import { FilePreviewDialog } from '../../../components/file-preview-dialog';
import { applyServerErrors } from '../../../lib/form-errors';
import { downloadFile, formatBytes } from '../../../lib/files';
import { useDeleteAttachment, useUploadAttachment } from '../api/attachments';
import { useRecordText } from '../../../lib/record-text';

import { useRecordAccess } from '../../../lib/record-access';

/** What the file picker offers (the server decides by the file's content). */
export const ACCEPTED_FILES = 'application/pdf,image/png,image/jpeg,image/gif,image/webp,image/heic,.heic,.pdf';

/** A record's attachments: each previewed in the page, downloaded or removed; new ones uploaded with a progress bar. */
export function AttachmentsPanel({ category, record }: { category: string; record: HealthRecord }) {
  const { t, locale } = useRecordText();
  const upload = useUploadAttachment();
  const remove = useDeleteAttachment();
  const { canWrite } = useRecordAccess();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<{ name: string; fraction: number } | null>(null);
  const [message, setMessage] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);
  const [previewing, setPreviewing] = useState<Attachment | null>(null);
  const [removing, setRemoving] = useState<Attachment | null>(null);

  const send = async (file: File) => {
    setMessage(null);
    setProgress({ name: file.name, fraction: 0 });
    try {
      await upload.mutateAsync({ category, recordId: record.id, file, onProgress: (fraction) => setProgress({ name: file.name, fraction }) });
      setMessage({ severity: 'success', text: t('healthRecords:attachments.uploaded', { name: file.name }) });
    } catch (error) {
      const why = applyServerErrors(error, { fallback: '' });
      setMessage({ severity: 'error', text: `${t('healthRecords:attachments.uploadFailed', { name: file.name })} ${why ?? ''}`.trim() });
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  };

  const confirmRemove = async () => {
    const attachment = removing!;
    setRemoving(null);
    try {
      await remove.mutateAsync(attachment.id);
    } catch (error) {
      setMessage({ severity: 'error', text: applyServerErrors(error, { fallback: t('healthRecords:loadFailed') }) ?? '' });
    }
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby="record-attachments" sx={{ borderRadius: 3, p: { xs: 2, sm: 3 }, mb: 3 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 1 }}>
        <Typography id="record-attachments" variant="h2" sx={{ flex: 1 }}>
          {t('healthRecords:attachments.title')}
        </Typography>
        {canWrite && (
          <Button variant="outlined" startIcon={<AttachFile />} onClick={() => input.current?.click()} disabled={progress !== null}>
            {t('healthRecords:attachments.add')}
          </Button>
        )}
        <input
          ref={input}
          type="file"
          accept={ACCEPTED_FILES}
          hidden
          aria-label={t('healthRecords:attachments.add')}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void send(file);
          }}
        />
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('healthRecords:attachments.types')}
      </Typography>
      {progress && (
        <Box sx={{ my: 1 }}>
          <Typography variant="body2" id="attachment-progress">
            {t('healthRecords:attachments.uploading', { name: progress.name })}
          </Typography>
          <LinearProgress variant="determinate" value={Math.round(progress.fraction * 100)} aria-labelledby="attachment-progress" />
        </Box>
      )}
      {message && (
        <Alert severity={message.severity} role={message.severity === 'error' ? 'alert' : 'status'} onClose={() => setMessage(null)} sx={{ my: 1 }}>
          {message.text}
        </Alert>
      )}
      {record.attachments.length === 0 ? (
        <Typography color="text.secondary">{t('healthRecords:attachments.none')}</Typography>
      ) : (
        <List disablePadding>
          {record.attachments.map((a) => (
            <ListItem
              key={a.id}
              disableGutters
              secondaryAction={
                <Box sx={{ display: 'flex' }}>
                  <Tooltip title={t('healthRecords:attachments.preview', { name: a.file_name })}>
                    <IconButton aria-label={t('healthRecords:attachments.preview', { name: a.file_name })} onClick={() => setPreviewing(a)}>
                      <Visibility />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('healthRecords:attachments.download', { name: a.file_name })}>
                    <IconButton aria-label={t('healthRecords:attachments.download', { name: a.file_name })} onClick={() => void downloadFile(a.url, a.file_name)}>
                      <Download />
                    </IconButton>
                  </Tooltip>
                  {canWrite && (
                    <Tooltip title={t('healthRecords:attachments.remove', { name: a.file_name })}>
                      <IconButton aria-label={t('healthRecords:attachments.remove', { name: a.file_name })} onClick={() => setRemoving(a)}>
                        <DeleteOutline />
                      </IconButton>
                    </Tooltip>
                  )}
                </Box>
              }
              sx={{ pr: 18 }}
            >
              <ListItemIcon sx={{ minWidth: 36 }}>{a.content_type === 'application/pdf' ? <PictureAsPdf aria-hidden /> : <Image aria-hidden />}</ListItemIcon>
              <ListItemText primary={a.file_name} secondary={formatBytes(a.size, locale)} slotProps={{ primary: { sx: { overflowWrap: 'anywhere' } } }} />
            </ListItem>
          ))}
        </List>
      )}
      <FilePreviewDialog file={previewing} onClose={() => setPreviewing(null)} />
      <ConfirmDialog
        open={removing !== null}
        title={t('healthRecords:attachments.removeTitle')}
        confirmLabel={t('healthRecords:attachments.removeConfirm')}
        destructive
        onConfirm={() => void confirmRemove()}
        onCancel={() => setRemoving(null)}
      >
        <DialogContentText>{t('healthRecords:attachments.removeText', { name: removing?.file_name ?? '' })}</DialogContentText>
      </ConfirmDialog>
    </Paper>
  );
}
