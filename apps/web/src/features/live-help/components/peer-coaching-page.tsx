import { useEffect, useId, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Forum from '@mui/icons-material/Forum';
import type { ChatProviderType } from '@healthbook/shared/chat';
import type { ProviderTypeReasons } from '@healthbook/shared/contracts/chat';
import { HubPage } from '../../../components/hub-page';
import { applyServerErrors, fieldErrorText } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useProviderTypeReasons } from '../api/get-provider-type-reasons';
import { useJoinQueue } from '../api/join-queue';
import { chatStore, useChatState, type ChatState } from '../chat-store';
import { openChatDialog } from './chat-dialog';
import { useRecordAccess } from '../../../lib/record-access';
import { ReadOnlyNotice } from '../../../components/read-only-notice';

const NAMESPACES = ['liveHelp', 'chat', 'validation'] as const;

/**
 * peer-coaching (and health-help/peer-coaching/chat-in-progress, the same page while a chat is
 * open, which opens the dialog): who to chat with (a peer coach or a provider) and about what,
 * then Start chat: the patient joins the queue and the chat dialog opens on the Wait screen.
 * While a chat is open, the page says so and offers to open it instead.
 */
export default function PeerCoachingPage() {
  const { clientId } = useOrganizationContext();
  const { t } = useTranslation(NAMESPACES);
  const chat = useChatState();
  const { pathname } = useLocation();
  const inProgressRoute = pathname.endsWith('/chat-in-progress');
  const inProgress = chat.chatDetails !== null && !chat.ended;
  const { readOnly } = useRecordAccess();

  useEffect(() => {
    if (!inProgressRoute) return;
    // Reached by its address (a reload, a link): find the open chat first, then show it.
    void chatStore.restore().then(() => {
      if (chatStore.inProgress()) openChatDialog();
    });
  }, [inProgressRoute]);

  return (
    <HubPage pageTitle={t('pageTitle')} intro={t('intro')} maxWidth={760}>
      <Alert severity="info" variant="outlined" role="note" sx={{ mb: 3 }}>
        {t('emergency')}
      </Alert>
      {inProgress ? <InProgressCard chat={chat} /> : readOnly ? <ReadOnlyNotice chat /> : <StartChatForm />}
      <Box sx={{ mt: 3 }}>
        <Link component={RouterLink} to={paths.chatHistory(clientId)}>
          {t('historyLink')}
        </Link>
      </Box>
    </HubPage>
  );
}

function InProgressCard({ chat }: { chat: ChatState }) {
  const { t } = useTranslation(NAMESPACES);
  const headingId = useId();
  const details = chat.chatDetails!;
  const providerType = t(`chat:providerTypes.${details.provider_type}`);
  const reason = t(`chat:reasons.${details.reason}`, { defaultValue: details.reason_for_visit });
  const provider = chat.component === 'chat' ? chat.patientProviderDetails : null;
  return (
    <Paper component="section" aria-labelledby={headingId} variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
      <Typography variant="h2" id={headingId} sx={{ mb: 1 }}>
        {t('inProgress.title')}
      </Typography>
      <Typography sx={{ mb: 0.5 }}>
        {provider ? t('inProgress.active', { name: provider.provider_name, providerType, reason }) : t('inProgress.queued', { providerType, reason })}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('inProgress.onlyOne')}
      </Typography>
      <Button variant="contained" startIcon={<Forum />} onClick={() => openChatDialog()}>
        {t('inProgress.open')}
      </Button>
    </Paper>
  );
}

interface StartValues {
  provider_type: ChatProviderType | '';
  reason: string;
}

function StartChatForm() {
  const { clientId } = useOrganizationContext();
  const { t, i18n } = useTranslation(NAMESPACES);
  const navigate = useNavigate();
  const options = useProviderTypeReasons(i18n.resolvedLanguage ?? 'en');
  const join = useJoinQueue();
  const [failure, setFailure] = useState<string | null>(null);
  const headingId = useId();
  const whoId = useId();
  const {
    control,
    handleSubmit,
    setError,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<StartValues>({ defaultValues: { provider_type: '', reason: '' } });
  const providerType = useWatch({ control, name: 'provider_type' });
  const chosen: ProviderTypeReasons | undefined = options.data?.find((o) => o.provider_type === providerType);

  const onSubmit = handleSubmit(async ({ provider_type, reason }) => {
    setFailure(null);
    try {
      const details = await join.mutateAsync({ provider_type: provider_type as ChatProviderType, reason });
      await chatStore.start(details);
      void navigate(paths.chatInProgress(clientId));
    } catch (error) {
      setFailure(applyServerErrors(error, { setError, fields: ['provider_type', 'reason'], fallback: t('start.failed') }));
    }
  });

  const typeName = (o: ProviderTypeReasons) => t(`chat:providerTypes.${o.provider_type}`, { defaultValue: o.provider_type_name });

  return (
    <Paper component="section" aria-labelledby={headingId} variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
      <Typography variant="h2" id={headingId} sx={{ mb: 2 }}>
        {t('start.title')}
      </Typography>
      {options.isPending && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
          <CircularProgress aria-label={t('start.loading')} />
        </Box>
      )}
      {options.isError && (
        <Alert severity="error" action={<Button color="inherit" onClick={() => void options.refetch()}>{t('start.retry')}</Button>}>
          {t('start.loadFailed')}
        </Alert>
      )}
      {options.data && options.data.length === 0 && <Typography color="text.secondary">{t('start.none')}</Typography>}
      {options.data && options.data.length > 0 && (
        <Stack component="form" noValidate onSubmit={onSubmit} spacing={3}>
          <Controller
            control={control}
            name="provider_type"
            rules={{ validate: (value) => (value ? true : 'validation:chatProviderType') }}
            render={({ field }) => (
              <FormControl component="fieldset" error={Boolean(errors.provider_type)}>
                <FormLabel component="legend" id={whoId} sx={{ mb: 0.5 }}>
                  {t('start.who')}
                </FormLabel>
                <RadioGroup
                  aria-labelledby={whoId}
                  name={field.name}
                  value={field.value}
                  onChange={(event) => {
                    field.onChange(event.target.value);
                    setValue('reason', '');
                  }}
                >
                  {options.data.map((o) => (
                    <FormControlLabel key={o.provider_type} value={o.provider_type} control={<Radio />} label={typeName(o)} />
                  ))}
                </RadioGroup>
                {errors.provider_type && <FormHelperText>{fieldErrorText(errors.provider_type, t)}</FormHelperText>}
              </FormControl>
            )}
          />
          <Controller
            control={control}
            name="reason"
            rules={{ validate: (value) => (value ? true : 'validation:chatReasonRequired') }}
            render={({ field }) => (
              <TextField
                select
                label={t('start.reason')}
                name={field.name}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                inputRef={field.ref}
                disabled={!chosen}
                error={Boolean(errors.reason)}
                helperText={fieldErrorText(errors.reason, t)}
                sx={{ maxWidth: 480 }}
              >
                {(chosen?.reasons ?? []).map((r) => (
                  <MenuItem key={r.value} value={r.value}>
                    {t(`chat:reasons.${r.value}`, { defaultValue: r.name })}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          {failure && <Alert severity="error">{failure}</Alert>}
          <Box>
            <Button type="submit" variant="contained" size="large" startIcon={<Forum />} disabled={isSubmitting}>
              {isSubmitting ? t('start.starting') : t('start.submit')}
            </Button>
          </Box>
        </Stack>
      )}
    </Paper>
  );
}
