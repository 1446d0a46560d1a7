import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AttachFile from '@mui/icons-material/AttachFile';
import type { SharedRecord } from '@healthbook/shared/contracts/sharing';
import { categoryDefinition } from '@healthbook/shared/records/categories';
import { formatMedicalDate } from '@healthbook/shared/records/medical-date';
import { formatSize } from '../format';

/** The fields a card shows under its title: not the title's field, nor the date shown beside it. */
export function cardFields(record: Pick<SharedRecord, 'record_type' | 'fields' | 'date' | 'date_part'>, dateShown: boolean): SharedRecord['fields'] {
  const category = categoryDefinition(record.record_type);
  return record.fields.filter((f) => f.name !== category?.titleField && !(dateShown && f.name === category?.dateField));
}

/** One shared record, read-only: its title and date, every field with a value (labelled by the server), its attachments. */
export function SharedRecordCard({ record, onDownload, downloading }: { record: SharedRecord; onDownload(file: SharedRecord['attachments'][number]): void; downloading: number | null }) {
  const { t, i18n } = useTranslation('shareRecipient');
  const language = i18n.resolvedLanguage ?? 'en';
  const titleId = useId();
  const date = formatMedicalDate({ date: record.date, part: record.date_part }, language, t('content.inThePast'));
  const fields = cardFields(record, date !== '');
  return (
    <Paper component="article" variant="outlined" aria-labelledby={titleId} sx={{ borderRadius: 3, p: { xs: 2, sm: 3 }, breakInside: 'avoid' }}>
      <Typography id={titleId} variant="h3" component="h3" sx={{ fontSize: '1.125rem', fontWeight: 600, overflowWrap: 'anywhere' }}>
        {record.title || t('content.untitled')}
      </Typography>
      {date && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {date}
        </Typography>
      )}
      {fields.length > 0 && (
        <Box component="dl" sx={{ m: 0, mt: 2, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'minmax(140px, 240px) 1fr' }, columnGap: 2, rowGap: { xs: 0.25, sm: 1 } }}>
          {fields.map((field) => (
            <Box key={field.name} sx={{ display: 'contents' }}>
              <Typography component="dt" variant="body2" color="text.secondary" sx={{ mt: { xs: 1, sm: 0 } }}>
                {field.label}
              </Typography>
              <Typography component="dd" variant="body2" sx={{ m: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {field.value}
              </Typography>
            </Box>
          ))}
        </Box>
      )}
      {record.attachments.length > 0 && (
        <Box sx={{ mt: 2 }}>
          <Typography variant="subtitle2" component="h4" sx={{ mb: 1 }}>
            {t('content.attachments')}
          </Typography>
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
            {record.attachments.map((file) => (
              <Button
                key={file.id}
                variant="outlined"
                size="small"
                startIcon={<AttachFile />}
                disabled={downloading === file.id}
                onClick={() => onDownload(file)}
                aria-label={t('content.downloadFile', { name: `${file.file_name} (${formatSize(file.size, language)})` })}
                sx={{ textTransform: 'none', maxWidth: '100%', justifyContent: 'flex-start', overflowWrap: 'anywhere', textAlign: 'left' }}
              >
                {`${file.file_name} (${formatSize(file.size, language)})`}
              </Button>
            ))}
          </Stack>
        </Box>
      )}
    </Paper>
  );
}
