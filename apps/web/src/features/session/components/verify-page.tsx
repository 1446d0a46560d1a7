import { useRef, useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { CODE_ENTRY_LENGTH } from '@healthbook/shared/constants';
import { CodeForm } from '../../../components/code-form';
import { afterSignInPath, useSession } from '../../../lib/auth';
import { failureText } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { session } from '../../../lib/session';
import { useVerifySignIn } from '../api/verify-sign-in';

/** Which second factors the user has: the text says where the code comes from. */
function instructionKey(types: Set<string>): 'verify.text' | 'verify.textGoogle' | 'verify.textBoth' {
  if (types.has('google')) return types.has('email') ? 'verify.textBoth' : 'verify.textGoogle';
  return 'verify.text';
}

/** The second sign-in step: six digits from the e-mail or the authenticator app. */
export default function VerifyPage() {
  const { org, clientId } = useOrganizationContext();
  const { t } = useTranslation('account');
  // A limited session knows only the types of the user's second factors (no e-mail address, no device ids).
  const { limitedUser } = useSession();
  const verifySignIn = useVerifySignIn();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [trying, setTrying] = useState(false);
  const busy = useRef(false);
  const [error, setError] = useState<string | null>(null);
  const [invalid, setInvalid] = useState(false);

  const submit = async (value: string) => {
    if (busy.current || value.length !== CODE_ENTRY_LENGTH) return;
    busy.current = true;
    setTrying(true);
    setError(null);
    try {
      await verifySignIn.mutateAsync({ code: value });
      const claims = session.claims();
      if (claims?.access !== 'full') {
        await navigate(paths.login(clientId), { replace: true });
        return;
      }
      await navigate(afterSignInPath(clientId, claims, search.get('redirectFrom')), { replace: true });
    } catch (err) {
      setError(failureText(t('verify.error'), err, t('verify.tryAgain')));
      setInvalid(true);
      setTrying(false);
      busy.current = false;
    }
  };

  const types = new Set(limitedUser?.mfa_devices.map((d) => d.device_type));

  return (
    <Box sx={{ flex: 1, display: 'grid', placeItems: 'center', px: 2, py: { xs: 4, md: 8 } }}>
      <title>{`${t('verify.pageTitle')} | ${org.org_name}`}</title>
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 480, p: { xs: 3, sm: 5 }, borderRadius: 3 }}>
        <Typography variant="h1" gutterBottom>
          {t('verify.title')}
        </Typography>
        <CodeForm
          label={t('verify.codeLabel')}
          instructions={t(instructionKey(types))}
          busy={trying}
          invalid={invalid}
          error={error}
          errorAlign="center"
          onEdit={() => setInvalid(false)}
          onSubmit={(value) => void submit(value)}
          actions={(complete) => (
            <Button type="submit" variant="contained" size="large" fullWidth disabled={trying || !complete}>
              {trying ? t('verify.trying') : t('verify.submit')}
            </Button>
          )}
        />
        <Link component={RouterLink} to={paths.logout(clientId)} sx={{ display: 'inline-block', mt: 3 }}>
          {t('verify.back')}
        </Link>
      </Paper>
    </Box>
  );
}
