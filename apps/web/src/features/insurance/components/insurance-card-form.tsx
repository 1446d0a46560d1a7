import { useId, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import AddAPhoto from '@mui/icons-material/AddAPhoto';
import type { InsuranceCard, InsuranceSide } from '@healthbook/shared/contracts/insurance';
import { applyServerErrors } from '../../../lib/form-errors';
import { useFileObjectUrl } from '../../../lib/files';
import type { InsuranceCardFields } from '../api/card-fields';
import { PhotoSaveError, useSaveInsuranceCard, type PhotoChange } from '../api/save-insurance-card';

const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
const RELATIONSHIPS = ['self', 'spouse', 'parent', 'other'] as const;

interface FormValues {
  insurer: string;
  plan: string;
  member_number: string;
  group_number: string;
  holder_name: string;
  holder_relationship: (typeof RELATIONSHIPS)[number];
  valid_from: string;
  valid_to: string;
  notes: string;
}

const FIELDS = ['insurer', 'plan', 'member_number', 'group_number', 'holder_name', 'holder_relationship', 'valid_from', 'valid_to', 'notes'] as const;

function valuesOf(card: InsuranceCard | null): FormValues {
  return {
    insurer: card?.insurer ?? '',
    plan: card?.plan ?? '',
    member_number: card?.member_number ?? '',
    group_number: card?.group_number ?? '',
    holder_name: card?.holder_name ?? '',
    holder_relationship: card?.holder_relationship ?? 'self',
    valid_from: card?.valid_from ?? '',
    valid_to: card?.valid_to ?? '',
    notes: card?.notes ?? '',
  };
}

const orNull = (value: string) => (value.trim() ? value.trim() : null);

function fieldsOf(values: FormValues): InsuranceCardFields {
  return {
    insurer: values.insurer.trim(),
    plan: orNull(values.plan),
    member_number: values.member_number.trim(),
    group_number: orNull(values.group_number),
    holder_name: orNull(values.holder_name),
    holder_relationship: values.holder_relationship,
    valid_from: values.valid_from || null,
    valid_to: values.valid_to || null,
    notes: orNull(values.notes),
  };
}

export interface InsuranceCardFormProps {
  /** The card to edit; null adds one. */
  card: InsuranceCard | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}

/** Add or edit a card: its details and a photo of each side (chosen, replaced or removed). Full screen on a phone. */
export function InsuranceCardForm({ card: initial, onClose, onSaved }: InsuranceCardFormProps) {
  const { t } = useTranslation('insurance');
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  // After a photo failed, the card exists: saving again updates it.
  const [card, setCard] = useState(initial);
  const [photos, setPhotos] = useState<Record<InsuranceSide, PhotoChange>>({ front: { kind: 'keep' }, back: { kind: 'keep' } });
  const [photoErrors, setPhotoErrors] = useState<Partial<Record<InsuranceSide, string>>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const save = useSaveInsuranceCard();
  const { register, control, handleSubmit, setError, formState } = useForm<FormValues>({ defaultValues: valuesOf(initial) });
  const { errors } = formState;

  const submit = handleSubmit(async (values) => {
    setGeneral(null);
    try {
      await save.mutateAsync({ id: card?.id ?? null, fields: fieldsOf(values), photos });
      onSaved(t('form.saved'));
    } catch (failure) {
      if (failure instanceof PhotoSaveError) {
        setCard(failure.card);
        const reason = applyServerErrors(failure.cause, { fallback: t('form.error') }) ?? t('form.error');
        setPhotos((p) => ({ ...p, [failure.side]: { kind: 'keep' } }));
        setPhotoErrors((e) => ({ ...e, [failure.side]: reason }));
        setGeneral(t('form.photoFailed', { side: t(failure.side).toLowerCase(), reason }));
        return;
      }
      setGeneral(applyServerErrors<FormValues>(failure, { setError, fields: FIELDS, fallback: t('form.error') }));
    }
  });

  const choose = (side: InsuranceSide, file: File | undefined) => {
    if (!file) return;
    if (!PHOTO_TYPES.includes(file.type)) return setPhotoErrors((e) => ({ ...e, [side]: t('form.wrongType') }));
    if (file.size > PHOTO_MAX_BYTES) return setPhotoErrors((e) => ({ ...e, [side]: t('form.tooBig') }));
    setPhotoErrors((e) => ({ ...e, [side]: undefined }));
    setPhotos((p) => ({ ...p, [side]: { kind: 'replace', file } }));
  };

  const text = (name: keyof FormValues, label: string, options: { required?: boolean; help?: string; max?: number } = {}) => (
    <TextField
      label={label}
      required={options.required ?? false}
      {...register(name, options.required ? { validate: (v) => (v.trim() ? true : t('form.required')) } : {})}
      error={Boolean(errors[name])}
      helperText={errors[name]?.message ?? options.help}
      slotProps={{ htmlInput: { maxLength: options.max ?? 120 } }}
      fullWidth
    />
  );

  return (
    <Dialog open onClose={save.isPending ? undefined : onClose} fullScreen={phone} maxWidth="sm" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{initial ? t('form.editTitle') : t('form.addTitle')}</DialogTitle>
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'contents' }}>
        <DialogContent dividers>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: '1fr 1fr' } }}>
            <Box sx={{ gridColumn: '1 / -1' }}>{text('insurer', t('form.insurer'), { required: true, help: t('form.insurerHelp') })}</Box>
            <Box sx={{ gridColumn: '1 / -1' }}>{text('plan', t('form.plan'))}</Box>
            {text('member_number', t('form.memberNumber'), { required: true, max: 64 })}
            {text('group_number', t('form.groupNumber'), { max: 64 })}
            {text('holder_name', t('form.holderName'), { help: t('form.holderNameHelp') })}
            <Controller
              name="holder_relationship"
              control={control}
              render={({ field }) => (
                <TextField select label={t('form.relationship')} {...field} error={Boolean(errors.holder_relationship)} helperText={errors.holder_relationship?.message} fullWidth>
                  {RELATIONSHIPS.map((r) => (
                    <MenuItem key={r} value={r}>
                      {t(`relationship.${r}`)}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <TextField
              type="date"
              label={t('form.validFrom')}
              {...register('valid_from')}
              error={Boolean(errors.valid_from)}
              helperText={errors.valid_from?.message}
              slotProps={{ inputLabel: { shrink: true } }}
              fullWidth
            />
            <TextField
              type="date"
              label={t('form.validTo')}
              {...register('valid_to', { validate: (to, all) => (!to || !all.valid_from || to >= all.valid_from ? true : t('form.periodOrder')) })}
              error={Boolean(errors.valid_to)}
              helperText={errors.valid_to?.message}
              slotProps={{ inputLabel: { shrink: true } }}
              fullWidth
            />
            <Box sx={{ gridColumn: '1 / -1' }}>
              <TextField
                label={t('form.notes')}
                {...register('notes')}
                error={Boolean(errors.notes)}
                helperText={errors.notes?.message}
                multiline
                minRows={2}
                slotProps={{ htmlInput: { maxLength: 2000 } }}
                fullWidth
              />
            </Box>
          </Box>
          <Typography variant="h3" sx={{ fontSize: '1rem', fontWeight: 600, mt: 3 }}>
            {t('form.photos')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
            {t('form.photosHelp')}
          </Typography>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: '1fr 1fr' } }}>
            {(['front', 'back'] as const).map((side) => (
              <PhotoPicker
                key={side}
                side={side}
                existing={card?.[side]?.url ?? null}
                change={photos[side]}
                error={photoErrors[side]}
                onChoose={(file) => choose(side, file)}
                onRemove={() => setPhotos((p) => ({ ...p, [side]: { kind: 'remove' } }))}
                onKeep={() => setPhotos((p) => ({ ...p, [side]: { kind: 'keep' } }))}
              />
            ))}
          </Box>
          {general && (
            <Alert severity="error" sx={{ mt: 2 }} role="alert">
              {general}
            </Alert>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2 }}>
          <Button onClick={onClose} disabled={save.isPending}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            {save.isPending ? t('form.saving') : t('form.save')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

interface PhotoPickerProps {
  side: InsuranceSide;
  existing: string | null;
  change: PhotoChange;
  error: string | undefined;
  onChoose: (file: File | undefined) => void;
  onRemove: () => void;
  onKeep: () => void;
}

/** One side's photo in the form: what is there (or chosen), and the buttons to choose, replace or remove it. */
function PhotoPicker({ side, existing, change, error, onChoose, onRemove, onKeep }: PhotoPickerProps) {
  const { t } = useTranslation('insurance');
  const input = useRef<HTMLInputElement>(null);
  const sideLabel = t(side);
  const sideName = sideLabel.toLowerCase();
  const { objectUrl: existingUrl } = useFileObjectUrl(change.kind === 'keep' ? existing : null);
  const [chosenUrl, setChosenUrl] = useState<{ file: File; url: string } | null>(null);
  if (change.kind === 'replace' && chosenUrl?.file !== change.file) {
    if (chosenUrl) URL.revokeObjectURL(chosenUrl.url);
    setChosenUrl({ file: change.file, url: URL.createObjectURL(change.file) });
  }
  const preview = change.kind === 'replace' ? chosenUrl?.url : change.kind === 'keep' ? existingUrl : null;
  const hasPhoto = change.kind === 'replace' || (change.kind === 'keep' && existing !== null);
  const errorId = useId();
  return (
    <Box sx={{ border: 1, borderColor: error ? 'error.main' : 'divider', borderRadius: 1, p: 1.5, display: 'flex', flexDirection: 'column', gap: 1, minWidth: 0 }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {sideLabel}
      </Typography>
      <Box sx={{ aspectRatio: '1.586', bgcolor: 'action.hover', borderRadius: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', overflow: 'hidden' }}>
        {preview ? (
          <Box component="img" src={preview} alt={sideLabel} sx={{ width: '100%', height: '100%', objectFit: 'contain' }} />
        ) : (
          <Typography variant="body2" color="text.secondary" sx={{ px: 1, textAlign: 'center' }}>
            {change.kind === 'remove' ? t('form.willRemove', { side: sideName }) : t('noPhoto')}
          </Typography>
        )}
      </Box>
      {change.kind === 'replace' && (
        <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {t('form.chosen', { name: change.file.name })}
        </Typography>
      )}
      <input
        ref={input}
        type="file"
        accept={PHOTO_TYPES.join(',')}
        hidden
        aria-label={t('form.choosePhoto', { side: sideName })}
        data-testid={`photo-input-${side}`}
        onChange={(e) => {
          onChoose(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button size="small" variant="outlined" startIcon={<AddAPhoto aria-hidden />} onClick={() => input.current?.click()} aria-describedby={error ? errorId : undefined}>
          {hasPhoto ? t('form.replacePhoto', { side: sideName }) : t('form.choosePhoto', { side: sideName })}
        </Button>
        {change.kind === 'remove' ? (
          <Button size="small" onClick={onKeep}>
            {t('form.undoRemove', { side: sideName })}
          </Button>
        ) : (
          hasPhoto && (
            <Button size="small" color="error" onClick={change.kind === 'replace' && !existing ? onKeep : onRemove}>
              {t('form.removePhoto', { side: sideName })}
            </Button>
          )
        )}
      </Box>
      {error && (
        <Typography id={errorId} variant="caption" color="error" role="alert">
          {error}
        </Typography>
      )}
    </Box>
  );
}
