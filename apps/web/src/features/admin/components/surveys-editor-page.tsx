import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import type { OrganizationSurveyDefinition } from '@healthbook/shared/contracts/surveys';
import { ORGANIZATION_SURVEY_KEYS, type OrganizationSurveyKey } from '@healthbook/shared/surveys';
import { HubPage } from '../../../components/hub-page';
import { ApiError } from '../../../lib/api-client';
import { useOrganizationSurvey, useSaveOrganizationSurvey } from '../api/organization-surveys';
import { OrganizationPicker, useChosenOrganization } from './organization-picker';

type Localized = { en: string; el: string };

/**
 * Administration → Survey sets: the organisation's own general and profile questionnaires, in
 * English and Greek (titles, instructions, questions, answer labels, result bands). The server
 * checks that the bands cover every score. Organisation admins edit theirs; super admins choose.
 */
export default function SurveysEditorPage() {
  const { t } = useTranslation('admin');
  const state = useChosenOrganization();
  const [survey, setSurvey] = useState<OrganizationSurveyKey>('general');
  const definition = useOrganizationSurvey(state.chosen.org, survey);
  return (
    <HubPage pageTitle={t('surveySets.pageTitle')} intro={t('surveySets.intro')} maxWidth={1000}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <OrganizationPicker state={state} />
        <TextField select label={t('surveySets.survey')} value={survey} onChange={(e) => setSurvey(e.target.value as OrganizationSurveyKey)} sx={{ mb: 3, minWidth: 260 }}>
          {ORGANIZATION_SURVEY_KEYS.map((key) => (
            <MenuItem key={key} value={key}>
              {t(`surveySets.keys.${key}`)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {definition.isPending && <CircularProgress aria-label={t('loading')} />}
      {definition.isError && <Alert severity="error">{t('surveySets.loadFailed')}</Alert>}
      {definition.data && <SurveyForm key={`${state.chosen.org}-${survey}-${definition.dataUpdatedAt}`} organizationId={state.chosen.org} survey={survey} initial={definition.data} />}
    </HubPage>
  );
}

function Pair({ label, value, onChange, multiline }: { label: string; value: Localized; onChange: (v: Localized) => void; multiline?: boolean }) {
  const { t } = useTranslation('admin');
  return (
    <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
      <TextField label={`${label} (${t('surveySets.en')})`} value={value.en} onChange={(e) => onChange({ ...value, en: e.target.value })} multiline={multiline} slotProps={{ htmlInput: { lang: 'en' } }} />
      <TextField label={`${label} (${t('surveySets.el')})`} value={value.el} onChange={(e) => onChange({ ...value, el: e.target.value })} multiline={multiline} slotProps={{ htmlInput: { lang: 'el' } }} />
    </Box>
  );
}

function SurveyForm({ organizationId, survey, initial }: { organizationId: number; survey: OrganizationSurveyKey; initial: OrganizationSurveyDefinition }) {
  const { t } = useTranslation('admin');
  const save = useSaveOrganizationSurvey();
  const [def, setDef] = useState(initial);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const set = <K extends keyof OrganizationSurveyDefinition>(key: K, value: OrganizationSurveyDefinition[K]) => setDef((d) => ({ ...d, [key]: value }));

  const submit = async () => {
    setMessage(null);
    try {
      const saved = await save.mutateAsync({ organizationId, survey, body: def });
      setDef(saved);
      setMessage({ ok: true, text: t('surveySets.saved') });
    } catch (failure) {
      const data = failure instanceof ApiError && failure.status < 500 ? failure.data : null;
      const parts =
        data && typeof data === 'object'
          ? Object.entries(data as Record<string, unknown>).map(([field, text]) => `${field === 'detail' || field === 'non_field_errors' ? '' : `${field}: `}${Array.isArray(text) ? text.join(' ') : String(text)}`)
          : [];
      setMessage({ ok: false, text: parts.join(' · ') || t('surveySets.failed') });
    }
  };

  return (
    <Stack spacing={3}>
      <Paper variant="outlined" component="section" aria-label={t('surveySets.texts')} sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
        <Typography variant="h2" sx={{ mb: 2 }}>
          {t('surveySets.texts')}
        </Typography>
        <Stack spacing={2}>
          <Pair label={t('surveySets.title')} value={def.title} onChange={(v) => set('title', v)} />
          <Pair label={t('surveySets.summary')} value={def.summary} onChange={(v) => set('summary', v)} multiline />
          <Pair label={t('surveySets.instructions')} value={def.instructions} onChange={(v) => set('instructions', v)} multiline />
          <Pair label={t('surveySets.note')} value={def.note} onChange={(v) => set('note', v)} multiline />
        </Stack>
      </Paper>

      <Paper variant="outlined" component="section" aria-label={t('surveySets.questions')} sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
        <Typography variant="h2" sx={{ mb: 2 }}>
          {t('surveySets.questions')}
        </Typography>
        <Stack spacing={2}>
          {def.items.map((item, i) => (
            <Box key={item.id} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
              <Typography sx={{ pt: 2, minWidth: 24, fontWeight: 600 }}>{i + 1}.</Typography>
              <Box sx={{ flex: 1 }}>
                <Pair label={t('surveySets.question')} value={item.text} onChange={(v) => set('items', def.items.map((x, j) => (j === i ? { ...x, text: v } : x)))} multiline />
              </Box>
              <IconButton aria-label={t('surveySets.removeQuestion', { n: i + 1 })} disabled={def.items.length <= 1} onClick={() => set('items', def.items.filter((_x, j) => j !== i))} sx={{ mt: 1 }}>
                <DeleteOutline />
              </IconButton>
            </Box>
          ))}
          <Button
            variant="outlined"
            startIcon={<Add />}
            disabled={def.items.length >= 40}
            onClick={() => {
              let n = def.items.length + 1;
              while (def.items.some((x) => x.id === `q${n}`)) n++;
              set('items', [...def.items, { id: `q${n}`, text: { en: '', el: '' } }]);
            }}
            sx={{ alignSelf: 'flex-start' }}
          >
            {t('surveySets.addQuestion')}
          </Button>
        </Stack>
      </Paper>

      <Paper variant="outlined" component="section" aria-label={t('surveySets.answers')} sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
        <Typography variant="h2" sx={{ mb: 2 }}>
          {t('surveySets.answers')}
        </Typography>
        <Stack spacing={2}>
          {def.scale.map((option, i) => (
            <Pair key={option.value} label={t('surveySets.answer', { value: option.value })} value={option.label} onChange={(v) => set('scale', def.scale.map((x, j) => (j === i ? { ...x, label: v } : x)))} />
          ))}
        </Stack>
      </Paper>

      <Paper variant="outlined" component="section" aria-label={t('surveySets.bands')} sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
        <Typography variant="h2" sx={{ mb: 0.5 }}>
          {t('surveySets.bands')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('surveySets.bandsHelp')}
        </Typography>
        <Stack spacing={3}>
          {def.bands.map((band, i) => {
            const update = (patch: Partial<typeof band>) => set('bands', def.bands.map((x, j) => (j === i ? { ...x, ...patch } : x)));
            return (
              <Stack key={band.key} spacing={1.5}>
                <Stack direction="row" spacing={1.5}>
                  <TextField type="number" label={t('surveySets.from')} value={band.min} onChange={(e) => update({ min: Number(e.target.value) })} sx={{ width: 120 }} />
                  <TextField type="number" label={t('surveySets.to')} value={band.max} onChange={(e) => update({ max: Number(e.target.value) })} sx={{ width: 120 }} />
                </Stack>
                <Pair label={t('surveySets.bandLabel')} value={band.label} onChange={(v) => update({ label: v })} />
                <Pair label={t('surveySets.bandMeaning')} value={band.meaning} onChange={(v) => update({ meaning: v })} multiline />
              </Stack>
            );
          })}
        </Stack>
      </Paper>

      {message && (
        <Alert severity={message.ok ? 'success' : 'error'} role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </Alert>
      )}
      <Box>
        <Button variant="contained" onClick={() => void submit()} disabled={save.isPending}>
          {t('surveySets.save')}
        </Button>
      </Box>
    </Stack>
  );
}
