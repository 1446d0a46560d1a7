import { useEffect, useRef, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ShareOpening } from '@healthbook/shared/contracts/sharing';
import { SHARE_CODE_TTL_S, SHARE_MAX_ATTEMPTS } from '@healthbook/shared/sharing';
import { CodeForm } from '../../../components/code-form';
import { DelayedLoader } from '../../../components/delayed-loader';
import { FormPage } from '../../../components/form-page';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useOpenShare } from '../api/open-share';
import { useSendShareCode, type ShareCodeSent } from '../api/send-share-code';
import { useVerifyShare } from '../api/verify-share';
import { formatMoment } from '../format';
import { failureMessage, failurePage, shareFailure } from '../share-errors';
import { shareSession, type ShareEntry } from '../share-session';

/**
 * The recipient's check (health-record/recipient-verification, health-vault/…-recipient-verification,
 * health-record/recipient-qr-code-verification): who shared what until when, then a code e-mailed
 * to the recipient (link) or the passcode given with the QR code. The right one opens the content
 * for this browser session; five wrong ones lock the share.
 */
export default function ShareVerificationPage() {
  const { clientId } = useOrganizationContext();
  // Read once: a session kept meanwhile (by this page's own check) is this page's to act on.
  const [entry] = useState(() => shareSession.load());
  const [verified] = useState(() => shareSession.session() !== null);
  if (!entry) return <Navigate to={paths.shareExpired(clientId)} replace />;
  // Verified before in this browser session (coming back to this page): the content.
  if (verified) return <Navigate to={paths.sharedContent(clientId, entry.kind)} replace />;
  return <Verification entry={entry} clientId={clientId} />;
}

function Verification({ entry, clientId }: { entry: ShareEntry; clientId: string }) {
  const { t, i18n } = useTranslation('shareRecipient');
  const link = { uid: entry.uid, token: entry.token };
  const opening = useOpenShare(link);
  const [locked, setLocked] = useState(false);

  useEffect(() => {
    if (opening.data) shareSession.update({ kind: opening.data.kind, method: opening.data.method, firstName: opening.data.patient_first_name });
  }, [opening.data]);

  if (opening.isPending) return <DelayedLoader label={t('verify.opening')} />;

  if (opening.isError) {
    const failure = shareFailure(opening.error);
    const page = failurePage(failure, clientId, entry.method);
    if (page) return <Navigate to={page} replace />;
    if (failure === 'locked') return <Locked entry={entry} />;
    return (
      <FormPage pageTitle={t('verify.pageTitle')} heading={t('verify.failedTitle')}>
        <Alert severity="error" sx={{ mb: 3 }}>
          {failure === 'throttled' ? failureMessage(opening.error, t('verify.throttled')) : t('verify.failed')}
        </Alert>
        <Button variant="contained" onClick={() => void opening.refetch()}>
          {t('verify.retry')}
        </Button>
      </FormPage>
    );
  }

  const share = opening.data;
  if (locked) return <Locked entry={{ ...entry, method: share.method, firstName: share.patient_first_name }} />;
  const heading = t(share.kind === 'documents' ? 'verify.titleDocuments' : 'verify.title', { name: share.patient_first_name });
  return (
    <FormPage pageTitle={t('verify.pageTitle')} heading={heading} maxWidth={520}>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('verify.through', { org: share.organization.name, date: formatMoment(share.expires_at, i18n.resolvedLanguage ?? 'en') })}
      </Typography>
      <CodeStep share={share} entry={entry} clientId={clientId} onLocked={() => setLocked(true)} />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 3 }}>
        {t('verify.privacy', { name: share.patient_first_name })}
      </Typography>
    </FormPage>
  );
}

interface CodeStepProps {
  share: ShareOpening;
  entry: ShareEntry;
  clientId: string;
  onLocked(): void;
}

/** A link share: send the code, then enter it (with a new one on request). A QR share: the passcode at once. */
function CodeStep({ share, entry, clientId, onLocked }: CodeStepProps) {
  const { t } = useTranslation('shareRecipient');
  const navigate = useNavigate();
  const sendCode = useSendShareCode();
  const verify = useVerifyShare();
  const qr = share.method === 'qr';
  const [step, setStep] = useState<'send' | 'code'>(qr ? 'code' : 'send');
  const [sent, setSent] = useState<ShareCodeSent | null>(null);
  const [sendError, setSendError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [invalid, setInvalid] = useState(false);
  const [resetKey, setResetKey] = useState(0);
  const [trying, setTrying] = useState(false);
  const busy = useRef(false);
  const link = { uid: entry.uid, token: entry.token };

  /** A failure of any call: the ended pages and the locked state are the page's; the rest is a message. */
  const handle = (err: unknown, show: (message: string) => void) => {
    const failure = shareFailure(err);
    const page = failurePage(failure, clientId, share.method);
    if (page) return void navigate(page, { replace: true });
    if (failure === 'locked') return onLocked();
    if (failure === 'throttled') return show(failureMessage(err, t('verify.throttled')));
    if (failure === 'rejected') return show(failureMessage(err, t(qr ? 'verify.wrongPasscode' : 'verify.wrongCode')));
    show(t('verify.failed'));
  };

  const send = async () => {
    setSendError(null);
    try {
      const answer = await sendCode.mutateAsync(link);
      setSent(answer);
      setStep('code');
      setError(null);
      setInvalid(false);
      setResetKey((k) => k + 1);
    } catch (err) {
      handle(err, setSendError);
    }
  };

  const submit = async (code: string) => {
    if (busy.current) return;
    busy.current = true;
    setTrying(true);
    setError(null);
    try {
      await verify.mutateAsync({ ...link, code });
      await navigate(paths.sharedContent(clientId, share.kind), { replace: true });
    } catch (err) {
      const wrong = shareFailure(err) === 'rejected';
      setInvalid(wrong);
      // A wrong code: empty boxes for the next try (editing one digit of a full row would send it at once).
      if (wrong) setResetKey((k) => k + 1);
      handle(err, setError);
      setTrying(false);
      busy.current = false;
    }
  };

  const attemptsNote = share.attempts_left < SHARE_MAX_ATTEMPTS && (
    <Alert severity="warning" sx={{ mb: 2 }}>
      {t('verify.attemptsLeft', { count: share.attempts_left })}
    </Alert>
  );

  if (step === 'send') {
    return (
      <Stack spacing={2}>
        {attemptsNote}
        <Typography>{t('verify.sendText', { name: share.patient_first_name, email: share.recipient_email_hint })}</Typography>
        {sendError && (
          <Alert severity="error" role="alert">
            {sendError}
          </Alert>
        )}
        <Button variant="contained" size="large" fullWidth disabled={sendCode.isPending} onClick={() => void send()}>
          {sendCode.isPending ? t('verify.sending') : t('verify.send')}
        </Button>
        <Button variant="text" onClick={() => setStep('code')} sx={{ alignSelf: 'center' }}>
          {t('verify.haveCode')}
        </Button>
      </Stack>
    );
  }

  const minutes = Math.round((sent?.expires_in ?? SHARE_CODE_TTL_S) / 60);
  return (
    <>
      {attemptsNote}
      {sent && (
        <Alert severity="success" sx={{ mb: 3 }}>
          {t('verify.sent', { email: sent.sent_to, count: minutes })}
        </Alert>
      )}
      <CodeForm
        // A new code, or a wrong one, empties the boxes.
        key={resetKey}
        label={t(qr ? 'verify.passcodeLabel' : 'verify.codeLabel')}
        instructions={qr ? t('verify.passcodeText', { name: share.patient_first_name }) : sent ? undefined : t('verify.codeText', { email: share.recipient_email_hint })}
        busy={trying}
        invalid={invalid}
        error={error}
        errorAlign="center"
        onEdit={() => setInvalid(false)}
        onSubmit={(code) => void submit(code)}
        actions={(complete) => (
          <Stack spacing={1.5}>
            <Button type="submit" variant="contained" size="large" fullWidth disabled={trying || !complete}>
              {trying ? t('verify.checking') : t('verify.submit')}
            </Button>
            {!qr && (
              <>
                {sendError && (
                  <Alert severity="error" role="alert">
                    {sendError}
                  </Alert>
                )}
                <Button variant="text" disabled={sendCode.isPending} onClick={() => void send()} sx={{ alignSelf: 'center' }}>
                  {sendCode.isPending ? t('verify.sending') : sent ? t('verify.resend') : t('verify.send')}
                </Button>
              </>
            )}
          </Stack>
        )}
      />
    </>
  );
}

/** Five wrong codes or passcodes: nothing more to try here; the patient can issue a new link or passcode. */
function Locked({ entry }: { entry: ShareEntry }) {
  const { t } = useTranslation('shareRecipient');
  const suffix = entry.method === 'qr' ? 'Qr' : '';
  return (
    <FormPage pageTitle={t('locked.pageTitle')} heading={t('locked.title')} top={<LockIcon />}>
      <Alert severity="warning" sx={{ mb: 2 }}>
        {entry.firstName ? t(`locked.text${suffix}`, { name: entry.firstName }) : t(`locked.textAnonymous${suffix}`)}
      </Alert>
      <Typography color="text.secondary">{t('locked.next')}</Typography>
    </FormPage>
  );
}

/** Material "Lock" (outlined), drawn inline. */
function LockIcon() {
  return (
    <Box component="svg" viewBox="0 0 24 24" aria-hidden="true" sx={{ width: 48, height: 48, fill: 'currentColor', color: 'text.secondary', display: 'block', mb: 2 }}>
      <path d="M18 8h-1V6c0-2.76-2.24-5-5-5S7 3.24 7 6v2H6c-1.1 0-2 .9-2 2v10c0 1.1.9 2 2 2h12c1.1 0 2-.9 2-2V10c0-1.1-.9-2-2-2M9 6c0-1.66 1.34-3 3-3s3 1.34 3 3v2H9zm9 14H6V10h12zm-6-3c1.1 0 2-.9 2-2s-.9-2-2-2-2 .9-2 2 .9 2 2 2" />
    </Box>
  );
}
