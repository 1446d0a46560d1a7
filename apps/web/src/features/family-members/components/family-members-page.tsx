import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Edit from '@mui/icons-material/Edit';
import FolderOpen from '@mui/icons-material/FolderOpen';
import MailOutline from '@mui/icons-material/MailOutlined';
import type { FamilyMember } from '@healthbook/shared/contracts/family-members';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog';
import { HubPage } from '../../../components/hub-page';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { queryKeys } from '../../../lib/query-keys';
import { viewingPatient } from '../../../lib/viewing-patient';
import { useDeleteFamilyMember } from '../api/delete-family-member';
import { useFamilyMembers } from '../api/list-family-members';
import { InviteDialog } from './invite-dialog';
import { MemberDialog } from './member-dialog';

type Notice = { severity: 'success' | 'error'; text: string } | null;

/** Query families that are not a patient's data: kept when another record is opened. */
const NOT_PATIENT_DATA = new Set<unknown>([
  queryKeys.organizations.all[0],
  queryKeys.users.all[0],
  queryKeys.features.all[0],
  queryKeys.wizard.all[0],
  queryKeys.profileQuestions.all[0],
  queryKeys.welcomeMessages.all[0],
  queryKeys.familyMembers.all[0],
]);

const fullName = (m: Pick<FamilyMember, 'first_name' | 'last_name'>) => `${m.first_name} ${m.last_name}`.trim();
const initials = (m: Pick<FamilyMember, 'first_name' | 'last_name'>) => `${m.first_name.charAt(0)}${m.last_name.charAt(0)}`.toUpperCase();

/** /family-members — the family members the user manages: open their record, edit, give them an account, remove. */
export default function FamilyMembersPage() {
  const { t } = useTranslation('familyMembers');
  const { clientId } = useOrganizationContext();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const members = useFamilyMembers();
  const remove = useDeleteFamilyMember();
  const [editing, setEditing] = useState<FamilyMember | 'new' | null>(null);
  const [inviting, setInviting] = useState<FamilyMember | null>(null);
  const [deleting, setDeleting] = useState<FamilyMember | null>(null);
  const [notice, setNotice] = useState<Notice>(null);

  const open = async (member: FamilyMember) => {
    viewingPatient.set(member.patient_id);
    // Nothing of the previous record may show in this one.
    await queryClient.resetQueries({ predicate: (query) => !NOT_PATIENT_DATA.has(query.queryKey[0]) });
    await navigate(paths.dashboard(clientId));
  };

  const confirmDelete = () => {
    const member = deleting;
    setDeleting(null);
    if (!member) return;
    remove.mutate(member.patient_id, {
      onSuccess: () => {
        if (viewingPatient.get() === member.patient_id) viewingPatient.set(null);
        setNotice({ severity: 'success', text: t('removeDialog.removed', { name: fullName(member) }) });
      },
      onError: () => setNotice({ severity: 'error', text: t('removeDialog.error', { name: fullName(member) }) }),
    });
  };

  return (
    <HubPage pageTitle={t('pageTitle')} intro={t('intro')}>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 2 }}>
        <Button variant="contained" startIcon={<Add aria-hidden />} onClick={() => setEditing('new')}>
          {t('add')}
        </Button>
      </Box>
      <Box aria-live="polite">
        {notice && (
          <Alert severity={notice.severity} onClose={() => setNotice(null)} sx={{ mb: 2 }}>
            {notice.text}
          </Alert>
        )}
      </Box>
      {members.isPending ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 6 }}>
          <CircularProgress aria-label={t('pageTitle')} />
        </Box>
      ) : members.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void members.refetch()}>
              {t('retry')}
            </Button>
          }
        >
          {t('loadError')}
        </Alert>
      ) : members.data.length === 0 ? (
        <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 }, textAlign: 'center' }}>
          <Typography sx={{ fontWeight: 500 }}>{t('empty')}</Typography>
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {t('emptyHint')}
          </Typography>
        </Paper>
      ) : (
        <Stack component="ul" aria-label={t('listLabel')} spacing={2} sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {members.data.map((member) => (
              <li key={member.patient_id}>
                <MemberCard
                  member={member}
                  onOpen={() => void open(member)}
                  onEdit={() => setEditing(member)}
                  onInvite={() => setInviting(member)}
                  onRemove={() => setDeleting(member)}
                />
              </li>
            ))}
        </Stack>
      )}
      {editing && (
        <MemberDialog
          member={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved, created) => {
            setEditing(null);
            setNotice({ severity: 'success', text: created ? t('form.added', { name: fullName(saved) }) : t('form.saved') });
          }}
        />
      )}
      {inviting && (
        <InviteDialog
          member={inviting}
          onClose={() => setInviting(null)}
          onSent={(_saved, email) => {
            setInviting(null);
            setNotice({ severity: 'success', text: t('inviteForm.sent', { email }) });
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('removeDialog.title', { name: deleting ? fullName(deleting) : '' })}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
        confirmLabel={t('removeDialog.confirm')}
        destructive
      >
        {t('removeDialog.text', { name: deleting ? fullName(deleting) : '' })}
      </ConfirmDialog>
    </HubPage>
  );
}

interface MemberCardProps {
  member: FamilyMember;
  onOpen: () => void;
  onEdit: () => void;
  onInvite: () => void;
  onRemove: () => void;
}

/** One family member: who they are, whether they have an account (or were invited to one), and what can be done. */
function MemberCard({ member, onOpen, onEdit, onInvite, onRemove }: MemberCardProps) {
  const { t, i18n } = useTranslation('familyMembers');
  const headingId = useId();
  const language = i18n.resolvedLanguage === 'el' ? 'el-GR' : 'en-US';
  const day = (iso: string) => new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso));
  const name = fullName(member);
  const details = [t(`relationship.${member.relationship}`), member.dob ? t('born', { date: day(member.dob) }) : null, member.gender ? t(`gender.${member.gender}`) : null].filter(Boolean).join(' · ');

  return (
    <Paper component="article" aria-labelledby={headingId} variant="outlined" sx={{ p: { xs: 2, sm: 2.5 } }}>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
        <Avatar aria-hidden sx={{ bgcolor: 'primary.dark', color: 'primary.contrastText', width: 44, height: 44 }}>
          {initials(member)}
        </Avatar>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography id={headingId} component="h2" variant="h6" sx={{ lineHeight: 1.3, overflowWrap: 'anywhere' }}>
            {name}
          </Typography>
          <Typography color="text.secondary" variant="body2">
            {details}
          </Typography>
          <Box sx={{ mt: 1, display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
            {member.has_account ? (
              <Chip size="small" color="success" variant="outlined" label={t('status.hasAccount')} />
            ) : (
              <Chip size="small" color="primary" variant="outlined" label={t('status.managed')} />
            )}
          </Box>
          {member.has_account && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {t('status.hasAccountHint')}
            </Typography>
          )}
          {!member.has_account && member.invited && (
            <Typography variant="body2" color={member.invited.status === 'expired' ? 'warning.main' : 'text.secondary'} sx={{ mt: 1, overflowWrap: 'anywhere' }}>
              {t(member.invited.status === 'expired' ? 'status.expired' : 'status.invited', { email: member.invited.email, date: day(member.invited.expires_at) })}
            </Typography>
          )}
        </Box>
      </Box>
      <Box sx={{ mt: 2, display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        <Button variant="contained" size="small" startIcon={<FolderOpen aria-hidden />} onClick={onOpen}>
          {t('open')}
        </Button>
        {!member.has_account && (
          <>
            <Button size="small" variant="outlined" startIcon={<Edit aria-hidden />} onClick={onEdit}>
              {t('edit')}
            </Button>
            <Button size="small" variant="outlined" startIcon={<MailOutline aria-hidden />} onClick={onInvite}>
              {member.invited ? t('inviteAgain') : t('invite')}
            </Button>
            <Button size="small" color="error" startIcon={<DeleteOutline aria-hidden />} onClick={onRemove}>
              {t('remove')}
            </Button>
          </>
        )}
      </Box>
    </Paper>
  );
}
