import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import type { InsuranceCard } from '@healthbook/shared/contracts/insurance';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog';
import { HubPage } from '../../../components/hub-page';
import { useDeleteInsuranceCard } from '../api/delete-insurance-card';
import { useInsuranceCards } from '../api/list-insurance-cards';
import { InsuranceCardForm } from './insurance-card-form';
import { InsuranceCardView } from './insurance-card-view';
import { useRecordAccess } from '../../../lib/record-access';
import { ReadOnlyNotice } from '../../../components/read-only-notice';

type Notice = { severity: 'success' | 'error'; text: string } | null;

/** /insurance — the patient's insurance cards: see them at a desk, add, edit, delete. */
export default function InsurancePage() {
  const { t } = useTranslation('insurance');
  const cards = useInsuranceCards();
  const remove = useDeleteInsuranceCard();
  const { writes, readOnly } = useRecordAccess();
  const canWrite = writes.insurance;
  const [editing, setEditing] = useState<InsuranceCard | 'new' | null>(null);
  const [deleting, setDeleting] = useState<InsuranceCard | null>(null);
  const [notice, setNotice] = useState<Notice>(null);

  const confirmDelete = () => {
    const card = deleting;
    setDeleting(null);
    if (!card) return;
    remove.mutate(card.id, {
      onSuccess: () => setNotice({ severity: 'success', text: t('deleted') }),
      onError: () => setNotice({ severity: 'error', text: t('deleteError') }),
    });
  };

  return (
    <HubPage pageTitle={t('pageTitle')} intro={t('intro')}>
      {readOnly && <ReadOnlyNotice />}
      {canWrite && (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 2 }}>
          <Button variant="contained" startIcon={<Add aria-hidden />} onClick={() => setEditing('new')}>
            {t('add')}
          </Button>
        </Box>
      )}
      <Box aria-live="polite">
        {notice && (
          <Alert severity={notice.severity} onClose={() => setNotice(null)} sx={{ mb: 2 }}>
            {notice.text}
          </Alert>
        )}
      </Box>
      {cards.isPending ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
          <CircularProgress aria-label={t('pageTitle')} />
        </Box>
      ) : cards.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void cards.refetch()}>
              {t('retry')}
            </Button>
          }
        >
          {t('loadError')}
        </Alert>
      ) : cards.data.length === 0 ? (
        <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 }, textAlign: 'center' }}>
          <Typography sx={{ fontWeight: 500 }}>{t('empty')}</Typography>
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {t('emptyHint')}
          </Typography>
        </Paper>
      ) : (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: '1fr 1fr' } }}>
          {cards.data.map((card) => (
            <InsuranceCardView key={card.id} card={card} onEdit={() => setEditing(card)} onDelete={() => setDeleting(card)} />
          ))}
        </Box>
      )}
      {editing && (
        <InsuranceCardForm
          card={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(text) => {
            setEditing(null);
            setNotice({ severity: 'success', text });
          }}
        />
      )}
      <ConfirmDialog open={deleting !== null} title={t('deleteTitle')} onConfirm={confirmDelete} onCancel={() => setDeleting(null)} confirmLabel={t('delete')} destructive>
        {t('deleteText', { insurer: deleting?.insurer ?? '' })}
      </ConfirmDialog>
    </HubPage>
  );
}
