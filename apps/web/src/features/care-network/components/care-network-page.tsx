import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import type { CareMember, CaringFor } from '@healthbook/shared/contracts/care-network';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog';
import { DelayedLoader } from '../../../components/delayed-loader';
import { HubPage } from '../../../components/hub-page';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { patientName, useRecordAccess } from '../../../lib/record-access';
import { useViewingPatientId, viewingPatient } from '../../../lib/viewing-patient';
import { useCareMembers, useRemoveCareMember, useResendCareInvitation } from '../api/care-members';
import { useCaringFor, useLeaveCaringFor } from '../api/caring-for';
import { categoryLabel } from '../categories';
import { formatDay } from '../format';
import { AccessLogSection } from './access-log-section';
import { MemberDialog } from './member-dialog';

type Notice = { severity: 'success' | 'error'; text: string } | null;

/**
 * careclub: the people in my record (invite, change access, remove, resend), the records I can
 * see (open, leave) and who saw my record. Only one's own network is managed here: while
 * another's record is open, the page says so and offers the way back.
 */
export default function CareNetworkPage() {
  const { t } = useTranslation(['careNetwork', 'records']);
  const navigate = useNavigate();
  const { clientId } = useOrganizationContext();
  const { viewingOther, patient } = useRecordAccess();
  const [notice, setNotice] = useState<Notice>(null);
  // The two lists are drawn together once both are in: the second does not move as the first arrives.
  const members = useCareMembers();
  const caringFor = useCaringFor();

  if (viewingOther) {
    return (
      <HubPage pageTitle={t('pageTitle')} intro={t('intro')}>
        <Alert
          severity="info"
          action={
            <Button
              color="inherit"
              onClick={() => {
                viewingPatient.set(null);
                void navigate(paths.careNetwork(clientId));
              }}
            >
              {t('backToMine')}
            </Button>
          }
        >
          {t('viewingOther', { name: patient ? patientName(patient) : '' })}
        </Alert>
      </HubPage>
    );
  }

  return (
    <HubPage pageTitle={t('pageTitle')} intro={t('intro')}>
      <Typography variant="body2" color="text.secondary" sx={{ mt: -1.5, mb: 3 }}>
        {t('terms')}
      </Typography>
      {notice && (
        <Alert severity={notice.severity} onClose={() => setNotice(null)} sx={{ mb: 3 }} role={notice.severity === 'error' ? 'alert' : 'status'}>
          {notice.text}
        </Alert>
      )}
      {members.isPending || caringFor.isPending ? (
        <DelayedLoader />
      ) : (
        <>
          <MembersSection onNotice={setNotice} />
          <CaringForSection onNotice={setNotice} />
        </>
      )}
      <AccessLogSection />
    </HubPage>
  );
}

function Section({ title, id, children, action }: { title: string; id: string; children: React.ReactNode; action?: React.ReactNode }) {
  return (
    <Box component="section" aria-labelledby={id} sx={{ mb: 5 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 2 }}>
        <Typography variant="h2" id={id}>
          {title}
        </Typography>
        {action}
      </Box>
      {children}
    </Box>
  );
}

function Empty({ children }: { children: React.ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
      <Typography>{children}</Typography>
    </Paper>
  );
}

function MembersSection({ onNotice }: { onNotice: (n: Notice) => void }) {
  const { t, i18n } = useTranslation(['careNetwork', 'records']);
  const language = i18n.resolvedLanguage ?? 'en';
  const { org } = useOrganizationContext();
  const members = useCareMembers();
  const remove = useRemoveCareMember();
  const resend = useResendCareInvitation();
  const [editing, setEditing] = useState<CareMember | 'new' | null>(null);
  const [removing, setRemoving] = useState<CareMember | null>(null);
  const headingId = useId();

  const confirmRemove = async () => {
    const member = removing;
    setRemoving(null);
    if (!member) return;
    try {
      await remove.mutateAsync(member.id);
      onNotice({ severity: 'success', text: member.status === 'active' ? t('notices.removed', { name: member.name }) : t('notices.withdrawn', { name: member.name }) });
    } catch {
      onNotice({ severity: 'error', text: t('notices.failed') });
    }
  };

  const sendAgain = async (member: CareMember) => {
    try {
      const sent = await resend.mutateAsync(member.id);
      onNotice({ severity: 'success', text: t('notices.resent', { email: sent.email ?? member.email ?? '' }) });
    } catch {
      onNotice({ severity: 'error', text: t('notices.failed') });
    }
  };

  const body = () => {
    if (members.isPending) return <DelayedLoader />;
    if (members.isError)
      return (
        <Alert severity="error" action={<Button color="inherit" onClick={() => void members.refetch()}>{t('retry')}</Button>}>
          {t('loadFailed')}
        </Alert>
      );
    if (members.data.length === 0) return <Empty>{t('members.empty')}</Empty>;
    return (
      <>
        <Typography color="text.secondary" sx={{ mb: 1.5 }} aria-live="polite">
          {t('members.count', { count: members.data.length })}
        </Typography>
        <Stack component="ul" spacing={2} sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {members.data.map((member) => (
            <Box component="li" key={member.id}>
              <MemberCard
                member={member}
                language={language}
                onChange={() => setEditing(member)}
                onRemove={() => setRemoving(member)}
                onResend={() => void sendAgain(member)}
                busy={resend.isPending}
              />
            </Box>
          ))}
        </Stack>
      </>
    );
  };

  return (
    <Section
      title={t('members.heading')}
      id={headingId}
      action={
        <Button variant="contained" startIcon={<Add />} onClick={() => setEditing('new')}>
          {t('members.invite')}
        </Button>
      }
    >
      {body()}
      {editing !== null && (
        <MemberDialog
          member={editing === 'new' ? null : editing}
          orgName={org.org_name}
          onClose={() => setEditing(null)}
          onDone={(text) => {
            setEditing(null);
            onNotice({ severity: 'success', text });
          }}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        title={removing ? (removing.status === 'active' ? t('remove.title', { name: removing.name }) : t('remove.pendingTitle', { name: removing.name })) : ''}
        confirmLabel={removing?.status === 'active' ? t('remove.confirm') : t('remove.confirmPending')}
        destructive
        onCancel={() => setRemoving(null)}
        onConfirm={() => void confirmRemove()}
      >
        <Typography>{removing ? (removing.status === 'active' ? t('remove.text', { name: removing.name }) : t('remove.pendingText')) : ''}</Typography>
      </ConfirmDialog>
    </Section>
  );
}

const STATUS_COLOR = { active: 'success', pending: 'default', expired: 'default' } as const;

function MemberCard({
  member,
  language,
  onChange,
  onRemove,
  onResend,
  busy,
}: {
  member: CareMember;
  language: string;
  onChange: () => void;
  onRemove: () => void;
  onResend: () => void;
  busy: boolean;
}) {
  const { t } = useTranslation(['careNetwork', 'records']);
  const nameId = useId();
  const since =
    member.status === 'active' && member.accepted_at
      ? t('members.activeSince', { date: formatDay(member.accepted_at, language) })
      : member.status === 'expired' && member.expires_at
        ? t('members.expiredOn', { date: formatDay(member.expires_at, language) })
        : t('members.invitedOn', { date: formatDay(member.invited_at, language) });
  const categories = member.categories === null ? t('categories.all') : member.categories.map((c) => categoryLabel(t, c)).join(', ');
  const dependant = member.kind === 'dependant';
  return (
    <Paper component="article" aria-labelledby={nameId} variant="outlined" sx={{ p: { xs: 2, sm: 2.5 }, borderRadius: 3 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: 1, mb: 0.5 }}>
        <Typography variant="h3" id={nameId} sx={{ fontSize: '1.1rem', fontWeight: 600, overflowWrap: 'anywhere' }}>
          {member.name}
        </Typography>
        {member.email && (
          <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {member.email}
          </Typography>
        )}
      </Box>
      {member.account_name && member.account_name !== member.name && (
        <Typography variant="body2" color="text.secondary">
          {t('members.accountName', { name: member.account_name })}
        </Typography>
      )}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, my: 1.5 }}>
        <Chip size="small" label={t(`access.${member.access}`)} color={member.access === 'full' ? 'primary' : 'default'} variant="outlined" />
        <Chip size="small" label={t(`status.${member.status}`)} color={STATUS_COLOR[member.status]} variant="outlined" />
        <Typography variant="body2" color="text.secondary">
          {since}
        </Typography>
      </Box>
      <Typography variant="body2">
        <Box component="span" sx={{ color: 'text.secondary' }}>
          {t('members.categoriesColumn')}:
        </Box>{' '}
        {categories}
      </Typography>
      {dependant && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t('members.manager')}
        </Typography>
      )}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 2 }}>
        <Button size="small" variant="outlined" onClick={onChange} aria-label={t('members.changeFor', { name: member.name })}>
          {t('members.change')}
        </Button>
        {member.status !== 'active' && (
          <Button size="small" variant="outlined" onClick={onResend} disabled={busy} aria-label={t('members.resendFor', { name: member.name })}>
            {t('members.resend')}
          </Button>
        )}
        <Button size="small" variant="outlined" color="error" onClick={onRemove} aria-label={t('members.removeFor', { name: member.name })}>
          {t('members.remove')}
        </Button>
      </Box>
    </Paper>
  );
}

function CaringForSection({ onNotice }: { onNotice: (n: Notice) => void }) {
  const { t, i18n } = useTranslation(['careNetwork', 'records']);
  const language = i18n.resolvedLanguage ?? 'en';
  const navigate = useNavigate();
  const { clientId } = useOrganizationContext();
  const viewing = useViewingPatientId();
  const caringFor = useCaringFor();
  const leave = useLeaveCaringFor();
  const [leaving, setLeaving] = useState<CaringFor | null>(null);
  const headingId = useId();

  const confirmLeave = async () => {
    const record = leaving;
    setLeaving(null);
    if (!record) return;
    try {
      await leave.mutateAsync(record.patient_id);
      onNotice({ severity: 'success', text: t('notices.left', { name: record.patient_name }) });
    } catch {
      onNotice({ severity: 'error', text: t('notices.failed') });
    }
  };

  const body = () => {
    if (caringFor.isPending) return <DelayedLoader />;
    if (caringFor.isError)
      return (
        <Alert severity="error" action={<Button color="inherit" onClick={() => void caringFor.refetch()}>{t('retry')}</Button>}>
          {t('loadFailed')}
        </Alert>
      );
    if (caringFor.data.length === 0) return <Empty>{t('caringFor.empty')}</Empty>;
    return (
      <Stack component="ul" spacing={2} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {caringFor.data.map((record) => (
          <Box component="li" key={record.patient_id}>
            <Paper variant="outlined" sx={{ p: { xs: 2, sm: 2.5 }, borderRadius: 3, display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 }}>
              <Box sx={{ flex: '1 1 220px', minWidth: 0 }}>
                <Typography variant="h3" sx={{ fontSize: '1.1rem', fontWeight: 600, overflowWrap: 'anywhere' }}>
                  {record.patient_name}
                </Typography>
                <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 0.5 }}>
                  <Chip size="small" variant="outlined" label={record.kind === 'dependant' ? t('caringFor.familyMember') : t(`access.${record.access}`)} />
                  <Typography variant="body2" color="text.secondary">
                    {t('caringFor.since', { date: formatDay(record.since, language) })}
                  </Typography>
                </Box>
                {record.categories !== null && (
                  <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
                    {record.categories.map((c) => categoryLabel(t, c)).join(', ')}
                  </Typography>
                )}
              </Box>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
                <Button
                  variant="contained"
                  size="small"
                  disabled={viewing === record.patient_id}
                  aria-label={t('caringFor.openFor', { name: record.patient_name })}
                  onClick={() => {
                    viewingPatient.set(record.patient_id);
                    void navigate(paths.dashboard(clientId));
                  }}
                >
                  {viewing === record.patient_id ? t('caringFor.current') : t('caringFor.open')}
                </Button>
                {record.kind !== 'dependant' && (
                  <Button variant="outlined" size="small" color="error" aria-label={t('caringFor.leaveFor', { name: record.patient_name })} onClick={() => setLeaving(record)}>
                    {t('caringFor.leave')}
                  </Button>
                )}
              </Box>
            </Paper>
          </Box>
        ))}
      </Stack>
    );
  };

  return (
    <Section title={t('caringFor.heading')} id={headingId}>
      {body()}
      <ConfirmDialog
        open={leaving !== null}
        title={leaving ? t('caringFor.leaveTitle', { name: leaving.patient_name }) : ''}
        confirmLabel={t('caringFor.leaveConfirm')}
        destructive
        onCancel={() => setLeaving(null)}
        onConfirm={() => void confirmLeave()}
      >
        <Typography>{leaving ? t('caringFor.leaveText', { name: leaving.patient_name }) : ''}</Typography>
      </ConfirmDialog>
    </Section>
  );
}
