import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Upload from '@mui/icons-material/Upload';
import { primaryColorProblem } from '@healthbook/shared/organizations/brand-contrast';
import { validateNewClientId } from '@healthbook/shared/client-id';
import { ORGANIZATION_ASSET_ACCEPT, ORGANIZATION_ASSET_LIMITS } from '@healthbook/shared/organizations/assets';
import type { AdminOrganization, OrganizationAsset } from '@healthbook/shared/contracts/organizations';
import { HubPage } from '../../../components/hub-page';
import { applyServerErrors } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { brandColors } from '../../../lib/palette';
import { paths } from '../../../lib/paths';
import {
  useAdminOrganization,
  useCreateOrganization,
  useRemoveOrganizationAsset,
  useSetOrganizationActive,
  useUpdateOrganization,
  useUploadOrganizationAsset,
} from '../api/admin-organizations';
import { HelpContacts } from './help-contacts';
import { VideoChannel } from './video-channel';

interface IdentityForm {
  org_name: string;
  org_short_name: string;
  name: string;
  primary_color: string;
}
const FIELDS = ['org_name', 'org_short_name', 'name', 'primary_color'] as const;
const EMPTY: IdentityForm = { org_name: '', org_short_name: '', name: '', primary_color: '#0476d9' };

/**
 * Administration → Organisations → one organisation (super admins): its names, client id and
 * colour (refused with the reason when text on it would not read, in the light or the dark
 * theme), its logo and favicon, its contacts and video channel, its features (the existing page),
 * and deactivation. `new` creates one.
 */
export default function OrganizationEditPage() {
  const { organizationId } = useParams();
  const id = organizationId && /^[0-9]+$/.test(organizationId) ? Number(organizationId) : null;
  const { clientId } = useOrganizationContext();
  const { t } = useTranslation('admin');
  const organization = useAdminOrganization(id);
  const back = { to: paths.organizations(clientId), label: t('organizations.pageTitle') };

  if (id === null) {
    return (
      <HubPage pageTitle={t('organizations.newTitle')} intro={t('organizations.newIntro')} back={back}>
        <Identity organization={null} />
      </HubPage>
    );
  }
  if (organization.isPending) {
    return (
      <HubPage pageTitle={t('organizations.pageTitle')} back={back}>
        <CircularProgress aria-label={t('loading')} />
      </HubPage>
    );
  }
  if (!organization.data) {
    return (
      <HubPage pageTitle={t('organizations.pageTitle')} back={back}>
        <Alert severity="error">{t('organizations.loadFailed')}</Alert>
      </HubPage>
    );
  }
  const org = organization.data;
  return (
    <HubPage
      pageTitle={org.org_name}
      title={
        <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
          {org.org_name}
          <Chip size="small" variant="outlined" color={org.active ? 'success' : 'default'} label={org.active ? t('organizations.status.active') : t('organizations.status.deactivated')} />
        </Box>
      }
      intro={t('organizations.editIntro', { address: `/${org.name}/login` })}
      back={back}
    >
      <Stack spacing={4}>
        <Identity key={`identity-${org.org}`} organization={org} />
        <Assets organization={org} />
        <HelpContacts key={`contacts-${org.org}`} organization={org} />
        <VideoChannel key={`video-${org.org}`} organization={org} />
        <Section title={t('organizations.features.title')}>
          <Typography color="text.secondary" variant="body2" sx={{ mb: 2 }}>
            {t('organizations.features.intro')}
          </Typography>
          <Button component={RouterLink} to={paths.featureSettings(clientId, org.org)} variant="outlined">
            {t('organizations.features.open', { orgName: org.org_name })}
          </Button>
        </Section>
        <Status organization={org} />
      </Stack>
    </HubPage>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  const headingId = useId();
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ borderRadius: 3, p: { xs: 2, sm: 3 } }}>
      <Typography id={headingId} variant="h2" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** Names, client id and colour: created here, or changed. */
function Identity({ organization }: { organization: AdminOrganization | null }) {
  const { clientId } = useOrganizationContext();
  const { t } = useTranslation(['admin', 'validation']);
  const navigate = useNavigate();
  const create = useCreateOrganization();
  const update = useUpdateOrganization();
  const [general, setGeneral] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const { register, control, handleSubmit, setError, formState } = useForm<IdentityForm>({
    defaultValues: organization
      ? { org_name: organization.org_name, org_short_name: organization.org_short_name, name: organization.name, primary_color: organization.primary_color ?? '#0476d9' }
      : EMPTY,
  });
  const [color, shortName] = useWatch({ control, name: ['primary_color', 'org_short_name'] });
  const colorProblem = /^#[0-9a-fA-F]{6}$/.test(color) ? primaryColorProblem(color) : null;

  const submit = handleSubmit(async (values) => {
    setGeneral(null);
    setSaved(false);
    const body = { org_name: values.org_name.trim(), org_short_name: values.org_short_name.trim(), name: values.name.trim(), primary_color: values.primary_color.trim().toLowerCase() };
    try {
      if (organization) {
        await update.mutateAsync({ id: organization.org, body });
        setSaved(true);
      } else {
        const created = await create.mutateAsync(body);
        await navigate(paths.organizationEdit(clientId, created.org), { replace: true });
      }
    } catch (failure) {
      setGeneral(applyServerErrors<IdentityForm>(failure, { setError, fields: FIELDS, fallback: t('organizations.saveFailed') }));
    }
  });

  const required = (value: string) => (value.trim() ? true : t('validation:required'));
  return (
    <Section title={t('organizations.identity.title')}>
      <Box component="form" noValidate onSubmit={(e) => void submit(e)}>
        <Stack spacing={2.5}>
          <TextField label={t('organizations.identity.orgName')} required {...register('org_name', { validate: required })} error={!!formState.errors.org_name} helperText={formState.errors.org_name?.message} />
          <TextField
            label={t('organizations.identity.shortName')}
            required
            {...register('org_short_name', { validate: required })}
            error={!!formState.errors.org_short_name}
            helperText={formState.errors.org_short_name?.message ?? t('organizations.identity.shortNameHelp')}
          />
          <TextField
            label={t('organizations.identity.clientId')}
            required
            {...register('name', {
              validate: (value) => {
                const problem = validateNewClientId(value.trim());
                return problem === true ? true : t(problem);
              },
            })}
            error={!!formState.errors.name}
            helperText={formState.errors.name?.message ?? t('organizations.identity.clientIdHelp')}
            slotProps={{ htmlInput: { autoCapitalize: 'none', spellCheck: false } }}
          />
          <Controller
            name="primary_color"
            control={control}
            rules={{
              validate: (value) => {
                const problem = primaryColorProblem(value.trim());
                return problem ? t(problem.key, problem.values) : true;
              },
            }}
            render={({ field, fieldState }) => (
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
                <Box
                  component="input"
                  type="color"
                  aria-label={t('organizations.identity.colorPicker')}
                  value={/^#[0-9a-fA-F]{6}$/.test(field.value) ? field.value.toLowerCase() : '#000000'}
                  onChange={(e: ChangeEvent<HTMLInputElement>) => field.onChange(e.target.value)}
                  sx={{ width: 56, height: 56, p: 0.5, border: 1, borderColor: 'divider', borderRadius: 2, bgcolor: 'background.paper', cursor: 'pointer', flex: 'none' }}
                />
                <TextField
                  {...field}
                  label={t('organizations.identity.color')}
                  required
                  error={!!fieldState.error || colorProblem !== null}
                  helperText={fieldState.error?.message ?? (colorProblem ? t(colorProblem.key, colorProblem.values) : t('organizations.identity.colorHelp'))}
                  sx={{ flex: 1 }}
                  slotProps={{ htmlInput: { spellCheck: false } }}
                />
              </Stack>
            )}
          />
          <ColorPreview color={/^#[0-9a-fA-F]{6}$/.test(color) ? color : '#0476d9'} name={shortName || t('organizations.identity.previewName')} />
          {general && <Alert severity="error">{general}</Alert>}
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <Button type="submit" variant="contained" disabled={create.isPending || update.isPending}>
              {organization ? t('organizations.save') : t('organizations.create')}
            </Button>
            {saved && (
              <Typography role="status" color="success.main">
                {t('organizations.saved')}
              </Typography>
            )}
          </Stack>
        </Stack>
      </Box>
    </Section>
  );
}

/** How the colour looks in the product: a button and a link, in the light and the dark theme. */
function ColorPreview({ color, name }: { color: string; name: string }) {
  const { t } = useTranslation('admin');
  const light = brandColors(color, 'light');
  const dark = brandColors(color, 'dark');
  const panel = (mode: 'light' | 'dark') => {
    const c = mode === 'light' ? light : dark;
    return (
      <Box sx={{ flex: 1, p: 2, borderRadius: 2, border: 1, borderColor: 'divider', bgcolor: mode === 'light' ? '#f5f7fa' : '#121212', color: mode === 'light' ? 'rgba(0,0,0,0.87)' : '#fff' }}>
        <Typography variant="body2" sx={{ mb: 1, fontWeight: 600 }}>
          {mode === 'light' ? t('organizations.identity.previewLight') : t('organizations.identity.previewDark')}
        </Typography>
        <Box sx={{ display: 'inline-block', px: 2, py: 1, borderRadius: 2, bgcolor: c.primary, color: c.contrastText, fontWeight: 600, mb: 1 }}>{name}</Box>
        <Typography variant="body2" sx={{ color: c.link ?? c.primary, textDecoration: 'underline' }}>
          {t('organizations.identity.previewLink')}
        </Typography>
      </Box>
    );
  };
  return (
    <Box role="group" aria-label={t('organizations.identity.preview')} sx={{ display: 'flex', gap: 2, flexDirection: { xs: 'column', sm: 'row' } }}>
      {panel('light')}
      {panel('dark')}
    </Box>
  );
}

/** The logo and the favicon, each with its preview, a new file, or none. */
function Assets({ organization }: { organization: AdminOrganization }) {
  const { t } = useTranslation('admin');
  return (
    <Section title={t('organizations.assets.title')}>
      <Typography color="text.secondary" variant="body2" sx={{ mb: 2 }}>
        {t('organizations.assets.intro')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        <AssetCard organization={organization} asset="logo" />
        <AssetCard organization={organization} asset="favicon" />
      </Box>
    </Section>
  );
}

function AssetCard({ organization, asset }: { organization: AdminOrganization; asset: OrganizationAsset }) {
  const { t } = useTranslation('admin');
  const upload = useUploadOrganizationAsset();
  const remove = useRemoveOrganizationAsset();
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<string | null>(null);
  const helpId = useId();
  const current = asset === 'logo' ? organization.logo_url : organization.favicon_url;
  const limits = ORGANIZATION_ASSET_LIMITS[asset];
  useEffect(() => () => (pending ? URL.revokeObjectURL(pending) : undefined), [pending]);

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    const preview = URL.createObjectURL(file);
    setPending(preview);
    try {
      await upload.mutateAsync({ id: organization.org, asset, file });
    } catch (failure) {
      const messages: string[] = [];
      const general = applyServerErrors<{ file: string }>(failure, { setError: (_f, e) => messages.push(e.message ?? ''), fields: ['file'], fallback: t('organizations.assets.failed') });
      setError(messages.join(' ') || general || t('organizations.assets.failed'));
    } finally {
      setPending(null);
      if (input.current) input.current.value = '';
    }
  };
  const shown = pending ?? current;

  return (
    <Paper variant="outlined" sx={{ p: 2, borderRadius: 2 }}>
      <Typography sx={{ fontWeight: 600, mb: 1 }}>{asset === 'logo' ? t('organizations.assets.logo') : t('organizations.assets.favicon')}</Typography>
      <Box sx={{ height: 96, display: 'grid', placeItems: 'center', bgcolor: '#f5f7fa', borderRadius: 2, mb: 1.5, border: 1, borderColor: 'divider' }}>
        {shown ? (
          <Box
            component="img"
            src={shown}
            alt={t(asset === 'logo' ? 'organizations.assets.logoAlt' : 'organizations.assets.faviconAlt', { orgName: organization.org_name })}
            sx={{ maxHeight: asset === 'logo' ? 64 : 48, maxWidth: '90%', opacity: pending ? 0.5 : 1 }}
          />
        ) : (
          <Typography variant="body2" color="text.secondary">
            {t('organizations.assets.none')}
          </Typography>
        )}
      </Box>
      <Typography id={helpId} variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t('organizations.assets.rules', { kb: limits.maxBytes / 1024, px: limits.maxPixels })}
      </Typography>
      <input ref={input} type="file" accept={ORGANIZATION_ASSET_ACCEPT} hidden aria-hidden tabIndex={-1} onChange={(e) => void choose(e.target.files?.[0])} />
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
        <Button variant="outlined" startIcon={<Upload />} onClick={() => input.current?.click()} disabled={upload.isPending} aria-describedby={helpId}>
          {asset === 'logo' ? t('organizations.assets.chooseLogo') : t('organizations.assets.chooseFavicon')}
        </Button>
        {current && (
          <Button color="inherit" variant="outlined" disabled={remove.isPending} onClick={() => void remove.mutateAsync({ id: organization.org, asset })}>
            {t('organizations.assets.remove')}
          </Button>
        )}
      </Stack>
      {upload.isPending && (
        <Typography role="status" variant="body2" sx={{ mt: 1 }}>
          {t('organizations.assets.uploading')}
        </Typography>
      )}
      {error && (
        <Alert severity="error" sx={{ mt: 1.5 }}>
          {error}
        </Alert>
      )}
    </Paper>
  );
}

/** Deactivate (with what it means, confirmed) or reactivate. */
function Status({ organization }: { organization: AdminOrganization }) {
  const { t } = useTranslation('admin');
  const { org: own } = useOrganizationContext();
  const setActive = useSetOrganizationActive();
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (active: boolean) => {
    setError(null);
    try {
      await setActive.mutateAsync({ id: organization.org, active });
      setAsking(false);
    } catch (failure) {
      setAsking(false);
      setError(applyServerErrors(failure, { fallback: t('organizations.saveFailed') }));
    }
  };
  return (
    <Section title={t('organizations.statusSection.title')}>
      <Typography sx={{ mb: 2 }}>
        {organization.active
          ? t('organizations.statusSection.active')
          : t('organizations.statusSection.deactivated', { date: organization.deactivated_at ? new Date(organization.deactivated_at).toLocaleDateString() : '' })}
      </Typography>
      {organization.active ? (
        organization.org === own.org ? (
          <Typography variant="body2" color="text.secondary">
            {t('organizations.statusSection.own')}
          </Typography>
        ) : (
          <Button variant="outlined" color="error" onClick={() => setAsking(true)}>
            {t('organizations.statusSection.deactivate')}
          </Button>
        )
      ) : (
        <Button variant="contained" onClick={() => void run(true)} disabled={setActive.isPending}>
          {t('organizations.statusSection.reactivate')}
        </Button>
      )}
      {error && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {error}
        </Alert>
      )}
      <Dialog open={asking} onClose={() => setAsking(false)} aria-labelledby="deactivate-title">
        <DialogTitle id="deactivate-title">{t('organizations.statusSection.confirmTitle', { orgName: organization.org_name })}</DialogTitle>
        <DialogContent>
          <DialogContentText component="div">
            <Box component="ul" sx={{ pl: 2.5, m: 0 }}>
              <li>{t('organizations.statusSection.confirmSignIn')}</li>
              <li>{t('organizations.statusSection.confirmSessions')}</li>
              <li>{t('organizations.statusSection.confirmShares')}</li>
              <li>{t('organizations.statusSection.confirmKept')}</li>
            </Box>
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setAsking(false)}>{t('organizations.statusSection.cancel')}</Button>
          <Button color="error" variant="contained" onClick={() => void run(false)} disabled={setActive.isPending}>
            {t('organizations.statusSection.deactivate')}
          </Button>
        </DialogActions>
      </Dialog>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
        <Link component={RouterLink} to={paths.operations(own.name)}>
          {t('organizations.statusSection.operations')}
        </Link>
      </Typography>
    </Section>
  );
}
