import { useState } from 'react';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import ExpandMore from '@mui/icons-material/ExpandMore';
import type { CategoryDefinition } from '@healthbook/shared/records/fields';
import { useCurrentUser } from '../../../lib/auth';
import { useRecordHistory } from '../api/get-record-history';
import { formatField, useRecordText } from '../../../lib/record-text';

/** A record's versions, newest first: who changed what, from what to what, and when (read when opened). */
export function HistoryPanel({ category, recordId }: { category: CategoryDefinition; recordId: number }) {
  const { t, locale } = useRecordText();
  const [open, setOpen] = useState(false);
  const history = useRecordHistory(category.key, recordId, locale, open);
  const imperial = useCurrentUser()?.imperial_units === true;
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });

  /** One side of a change as the reader sees values (a date's precision goes with its date). */
  const show = (field: string, value: unknown) => {
    const base = field.replace(/_part$/, '');
    const declared = category.fields.find((f) => f.name === base);
    if (field === 'private') return value === true ? t('records:boolean.true') : t('records:boolean.false');
    if (!declared || value === null || value === undefined) return t('healthRecords:history.empty');
    if (field.endsWith('_part')) return t(`records:choices.datePart.${String(value)}`);
    return formatField(t, locale, category, declared, { [declared.name]: value, [`${declared.name}_part`]: declared.kind === 'medicalDate' ? 'day' : undefined }, imperial) || t('healthRecords:history.empty');
  };

  return (
    <Accordion variant="outlined" disableGutters expanded={open} onChange={(_e, expanded) => setOpen(expanded)} sx={{ borderRadius: 3, '&::before': { display: 'none' } }}>
      <AccordionSummary expandIcon={<ExpandMore />} aria-controls="record-history" id="record-history-header">
        <Typography component="h2" variant="h2">
          {t('healthRecords:history.title')}
        </Typography>
      </AccordionSummary>
      <AccordionDetails id="record-history">
        {history.isPending && open && <CircularProgress size={24} aria-label={t('healthRecords:history.title')} />}
        {history.isError && <Alert severity="error">{t('healthRecords:history.loadFailed')}</Alert>}
        {history.data && (
          <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2 }}>
            {history.data.map((v) => (
              <Box component="li" key={v.version} sx={{ borderLeft: 3, borderColor: 'divider', pl: 2 }}>
                <Typography sx={{ fontWeight: 600 }}>
                  {v.action === 'create'
                    ? v.changed_by
                      ? t('healthRecords:history.created', { name: v.changed_by.name })
                      : t('healthRecords:history.createdAnonymous')
                    : v.changed_by
                      ? t('healthRecords:history.changed', { name: v.changed_by.name })
                      : t('healthRecords:history.changedAnonymous')}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {when.format(new Date(v.changed_at))} · {t('healthRecords:history.version', { version: v.version })}
                </Typography>
                {v.action === 'update' && (
                  <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5 }}>
                    {v.changes.map((c) => (
                      <Typography component="li" variant="body2" key={c.field}>
                        <strong>{c.label}</strong>
                        {': '}
                        {show(c.field, c.from)} → {show(c.field, c.to)}
                      </Typography>
                    ))}
                  </Box>
                )}
              </Box>
            ))}
          </Box>
        )}
      </AccordionDetails>
    </Accordion>
  );
}
