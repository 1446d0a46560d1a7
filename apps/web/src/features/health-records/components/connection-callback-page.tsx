import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import type { SourceCallbackBody } from '@healthbook/shared/contracts/sources';
import { SOURCE_CALLBACK_FAILURES, type SourceCallbackFailure } from '@healthbook/shared/sources';
import { flash } from '../../../components/flash-message';
import { HubPage } from '../../../components/hub-page';
import { ApiError } from '../../../lib/api-client';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { queryKeys } from '../../../lib/query-keys';
import { useFinishConnection } from '../api/finish-connection';

/** The callback's query as the provider sent the browser back with it; null without a state (nothing to finish). */
function callbackBody(params: URLSearchParams): SourceCallbackBody | null {
  const state = params.get('state');
  if (!state) return null;
  const body: SourceCallbackBody = { state };
  for (const name of ['code', 'error', 'error_description', 'iss'] as const) {
    const value = params.get(name);
    if (value) body[name] = value;
  }
  return body;
}

interface Failure {
  code: SourceCallbackFailure | 'unknown';
  /** The server's sentence, in `language`. */
  detail: string | null;
  language?: string;
}

/** Why it failed: the server's code when it gave one of the known ones ('unknown' otherwise). */
function failureOf(error: unknown): Failure {
  if (!(error instanceof ApiError) || !error.data || typeof error.data !== 'object') return { code: 'unknown', detail: null };
  const { code, detail } = error.data as { code?: unknown; detail?: unknown };
  return {
    code: (SOURCE_CALLBACK_FAILURES as readonly unknown[]).includes(code) ? (code as SourceCallbackFailure) : 'unknown',
    detail: error.status < 500 && typeof detail === 'string' ? detail : null,
  };
}

/** A failure the patient can try again from the providers' page (a new authorisation); the others go back there. */
const RETRYABLE = new Set<string>(['denied', 'state', 'expired_code', 'source_down']);

/**
 * /health-record/connections/callback — where a provider sends the browser back after its
 * sign-in and consent: the answer is handed to the server once (the state works once), then
 * the providers' page says it is connected, or this page says why not.
 */
export default function ConnectionCallbackPage() {
  const { t, i18n } = useTranslation('sources');
  const { clientId } = useOrganizationContext();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const location = useLocation();
  // A failure already answered is kept in the history entry: a reload shows it again rather than
  // handing in the used state (which would only say it no longer works).
  const kept = (location.state as { callbackFailure?: Failure } | null)?.callbackFailure ?? null;
  // The query as the page was opened (the page leaves as soon as it is answered).
  const body = useMemo(() => (kept ? null : callbackBody(params)), [params, kept]);
  const finish = useFinishConnection(body);
  const heading = useRef<HTMLHeadingElement>(null);

  const connected = finish.data;
  useEffect(() => {
    if (!connected) return;
    void queryClient.invalidateQueries({ queryKey: queryKeys.sources.all });
    void navigate(paths.sourceConnections(clientId), { replace: true, state: flash(t('callback.connected', { name: connected.source_name })) });
  }, [connected, clientId, navigate, queryClient, t]);

  const failure: Failure | null = kept ?? (body === null ? { code: 'state', detail: null } : finish.isError ? failureOf(finish.error) : null);
  const failed = failure !== null;
  useEffect(() => {
    if (failed) heading.current?.focus();
  }, [failed]);
  useEffect(() => {
    if (finish.isError) void navigate(`${location.pathname}${location.search}`, { replace: true, state: { callbackFailure: { ...failureOf(finish.error), language: i18n.language } } });
  }, [finish.isError, finish.error, navigate, location.pathname, location.search, i18n.language]);

  if (!failure) {
    return (
      <HubPage pageTitle={t('callback.connecting')} maxWidth={640}>
        <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
          <CircularProgress size={28} aria-hidden />
          <Typography>{t('callback.connectingText')}</Typography>
        </Box>
      </HubPage>
    );
  }

  const { code } = failure;
  // Kept from before a change of language: the page's own sentence rather than the server's in the other language.
  const detail = failure.language && failure.language !== i18n.language ? null : failure.detail;
  const title = t(`callback.failures.${code}.title`);
  return (
    <HubPage pageTitle={title} title={null} maxWidth={640}>
      <Typography ref={heading} tabIndex={-1} variant="h1" sx={{ mb: 2, outline: 'none' }}>
        {title}
      </Typography>
      <Alert severity={code === 'denied' ? 'info' : 'error'} role="alert" sx={{ mb: 3 }}>
        {/* The server's sentence says what happened with the provider's name; without one, the page's own. */}
        {detail ?? t(`callback.failures.${code}.text`)}
      </Alert>
      <Button component={RouterLink} to={paths.sourceConnections(clientId)} variant="contained" replace>
        {RETRYABLE.has(code) ? t('callback.tryAgain') : t('callback.back')}
      </Button>
    </HubPage>
  );
}
