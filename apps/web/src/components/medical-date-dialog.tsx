import { forwardRef, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import SvgIcon, { type SvgIconProps } from '@mui/material/SvgIcon';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  MEDICAL_DATE_MODES,
  YEAR_PICKER_PAGE_SIZE,
  YEAR_PICKER_PAGES,
  YEAR_PICKER_START,
  checkMedicalDate,
  daysInMonth,
  formatMedicalDate,
  isMedicalDateComplete,
  localToday,
  medicalDateDefaults,
  medicalDateInput,
  resolveMedicalDate,
  type MedicalDate,
  type MedicalDateInput,
  type MedicalDateMode,
} from '@healthbook/shared/records/medical-date';

/** The day picker's grid (§2): 5 rows by 7 columns, the days of the month in order. */
const DAY_GRID_CELLS = 35;
const LAST_PAGE = YEAR_PICKER_PAGES - 1;

const pad2 = (n: number) => String(n).padStart(2, '0');

/** The year picker's page that shows `year` (clamped to the 13 pages). */
function pageOf(year: number): number {
  return Math.max(0, Math.min(LAST_PAGE, Math.floor((year - YEAR_PICKER_START) / YEAR_PICKER_PAGE_SIZE)));
}

/** The page to open on: the chosen year's, else today's. */
function startPage(input: MedicalDateInput, today: string): number {
  return pageOf(input.year !== '' ? Number(input.year) : Number(today.slice(0, 4)));
}

/** Which pickers each radio option shows. */
const SHOWS: Record<MedicalDateMode, { year: boolean; month: boolean; day: boolean }> = {
  today: { year: true, month: true, day: true },
  exact: { year: true, month: true, day: true },
  month: { year: true, month: true, day: false },
  year: { year: true, month: false, day: false },
  past: { year: false, month: false, day: false },
};

/** The UI language's month names, nominative ("Μάιος", not the "Μαΐου" of a full date). */
function monthNames(locale: string): string[] {
  const format = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  return Array.from({ length: 12 }, (_, m) => format.formatToParts(new Date(Date.UTC(2000, m, 1))).find((p) => p.type === 'month')?.value ?? String(m + 1));
}

const uiLocale = (language: string | undefined) => (language?.startsWith('el') ? 'el' : 'en');

function ChevronLeftIcon(props: SvgIconProps) {
  return (
    <SvgIcon {...props}>
      <path d="M15.41 7.41 14 6l-6 6 6 6 1.41-1.41L10.83 12z" />
    </SvgIcon>
  );
}

function ChevronRightIcon(props: SvgIconProps) {
  return (
    <SvgIcon {...props}>
      <path d="M10 6 8.59 7.41 13.17 12l-4.58 4.59L10 18l6-6z" />
    </SvgIcon>
  );
}

function CalendarIcon(props: SvgIconProps) {
  return (
    <SvgIcon {...props}>
      <path d="M19 4h-1V2h-2v2H8V2H6v2H5c-1.11 0-1.99.9-1.99 2L3 20c0 1.1.89 2 2 2h14c1.1 0 2-.9 2-2V6c0-1.1-.9-2-2-2m0 16H5V10h14zM9 14H7v-2h2zm4 0h-2v-2h2zm4 0h-2v-2h2zm-8 4H7v-2h2zm4 0h-2v-2h2zm4 0h-2v-2h2z" />
    </SvgIcon>
  );
}

/** A picker: a named group of buttons in a grid of `columns`. */
function Picker({ label, columns, header, children }: { label: string; columns: number; header?: ReactNode; children: ReactNode }) {
  const labelId = useId();
  return (
    <Box role="group" aria-labelledby={labelId} sx={{ minWidth: 0 }}>
      <Typography id={labelId} component="h3" variant="subtitle2" sx={{ mb: 0.5 }}>
        {label}
      </Typography>
      {header}
      <Box sx={{ display: 'grid', gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, gap: 0.5 }}>{children}</Box>
    </Box>
  );
}

/** One cell of a picker: a toggle button, pressed when it is the chosen value. */
function Cell({ pressed, disabled, onClick, children }: { pressed: boolean; disabled: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <Button
      size="small"
      variant={pressed ? 'contained' : 'text'}
      color={pressed ? 'primary' : 'inherit'}
      disableElevation
      aria-pressed={pressed}
      disabled={disabled}
      onClick={onClick}
      sx={{ minWidth: 0, px: 0.5, textTransform: 'none', fontWeight: pressed ? 700 : 400, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}
    >
      {children}
    </Button>
  );
}

export interface MedicalDateDialogProps {
  open: boolean;
  /** The dialog's title (the field's label: "Onset date"); it names the dialog. */
  title: string;
  /** The value being edited; the dialog starts from it each time it opens. No date: Exact date, empty. */
  value: MedicalDate;
  /** The patient's date of birth (YYYY-MM-DD): days before it are disabled, and a date before it is refused. */
  dob?: string | null;
  /** Today (YYYY-MM-DD); default: the patient's local today. Later years and days are disabled. */
  today?: string;
  /** A complete date that keeps the rules (§5). */
  onSave(value: MedicalDate): void;
  /** Cancel, Esc or a click outside. */
  onCancel(): void;
}

/**
 * The medical date dialog of the spec (§2, §4, §5): the radio options Today, Exact date,
 * Month & Year, Year only and In the past set their defaults; year, month and day pickers as the
 * option needs; Save (enabled once the option's parts are chosen) checks the date and either
 * shows why it is refused or hands it back. Full screen on phones.
 */
export function MedicalDateDialog({ open, title, value, dob = null, today: todayProp, onSave, onCancel }: MedicalDateDialogProps) {
  const { t, i18n } = useTranslation(['dates', 'validation']);
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  const today = todayProp ?? localToday();
  const todayYear = Number(today.slice(0, 4));
  const todayMonth = Number(today.slice(5, 7));
  const locale = uiLocale(i18n.resolvedLanguage ?? i18n.language);
  const months = useMemo(() => monthNames(locale), [locale]);

  const [input, setInput] = useState<MedicalDateInput>(() => medicalDateInput(value));
  const [page, setPage] = useState(() => startPage(medicalDateInput(value), today));
  const [error, setError] = useState<string | null>(null);
  const previousPage = useRef<HTMLButtonElement>(null);
  const nextPage = useRef<HTMLButtonElement>(null);

  // Each opening starts again from the value being edited.
  const [wasOpen, setWasOpen] = useState(false);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      const start = medicalDateInput(value);
      setInput(start);
      setPage(startPage(start, today));
      setError(null);
    }
  }

  const chooseMode = (mode: MedicalDateMode) => {
    const next = medicalDateDefaults(mode, today);
    setInput(next);
    if (next.year !== '') setPage(pageOf(Number(next.year)));
    setError(null);
  };

  /** A picker's change; choosing anything other than today's parts makes Today an exact date. */
  const choose = (part: 'year' | 'month' | 'day', chosen: number) => {
    setError(null);
    setInput((current) => {
      const next: MedicalDateInput = { ...current, [part]: String(chosen) };
      if (next.mode === 'today') next.mode = 'exact';
      // A day the new month does not have is dropped rather than kept out of sight.
      if (next.day !== '' && next.month !== '') {
        const length = daysInMonth(next.year !== '' ? Number(next.year) : 2000, Number(next.month));
        if (Number(next.day) > length) next.day = '';
      }
      return next;
    });
  };

  const goToPage = (target: number) => {
    setPage(target);
    // The button just used is about to be disabled at either end: keep focus on the other one.
    if (target === LAST_PAGE) previousPage.current?.focus();
    if (target === 0) nextPage.current?.focus();
  };

  const save = () => {
    const resolved = resolveMedicalDate(input);
    const problem = typeof resolved === 'string' ? resolved : checkMedicalDate(resolved, { dob, today });
    if (problem === null && typeof resolved !== 'string') onSave(resolved);
    else setError(problem);
  };

  const shows = SHOWS[input.mode];
  const year = input.year !== '' ? Number(input.year) : null;
  const month = input.month !== '' ? Number(input.month) : null;
  const day = input.day !== '' ? Number(input.day) : null;
  const firstYear = YEAR_PICKER_START + page * YEAR_PICKER_PAGE_SIZE;
  const monthLength = month === null ? 31 : daysInMonth(year ?? 2000, month);
  const dayDisabled = (d: number) => {
    if (year === null || month === null) return false;
    const iso = `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(d)}`;
    return (dob ? iso < dob : false) || iso > today;
  };

  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby={titleId} fullScreen={fullScreen} fullWidth maxWidth="sm" scroll="paper">
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent dividers>
        <RadioGroup
          aria-label={t('dates:dialog.kind')}
          name={`${titleId}-kind`}
          value={input.mode}
          onChange={(_, mode) => chooseMode(mode as MedicalDateMode)}
          sx={{ flexDirection: { xs: 'column', sm: 'row' }, columnGap: 1, mb: 2 }}
        >
          {MEDICAL_DATE_MODES.map((mode) => (
            <FormControlLabel key={mode} value={mode} control={<Radio />} label={t(`dates:dialog.modes.${mode}`)} />
          ))}
        </RadioGroup>

        {(shows.year || shows.month || shows.day) && (
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' }, gap: 2 }}>
            {shows.year && (
              <Picker
                label={t('dates:dialog.year')}
                columns={3}
                header={
                  <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', mb: 0.5 }}>
                    <IconButton ref={previousPage} size="small" aria-label={t('dates:dialog.previousYears')} disabled={page === 0} onClick={() => goToPage(page - 1)}>
                      <ChevronLeftIcon fontSize="small" />
                    </IconButton>
                    <Typography variant="body2" aria-live="polite">
                      {t('dates:dialog.yearRange', { from: firstYear, to: firstYear + YEAR_PICKER_PAGE_SIZE - 1 })}
                    </Typography>
                    <IconButton ref={nextPage} size="small" aria-label={t('dates:dialog.nextYears')} disabled={page === LAST_PAGE} onClick={() => goToPage(page + 1)}>
                      <ChevronRightIcon fontSize="small" />
                    </IconButton>
                  </Box>
                }
              >
                {Array.from({ length: YEAR_PICKER_PAGE_SIZE }, (_, k) => firstYear + k).map((y) => (
                  <Cell key={y} pressed={y === year} disabled={y > todayYear} onClick={() => choose('year', y)}>
                    {y}
                  </Cell>
                ))}
              </Picker>
            )}
            {shows.month && (
              <Picker label={t('dates:dialog.month')} columns={3}>
                {months.map((name, k) => (
                  <Cell key={name} pressed={k + 1 === month} disabled={year === todayYear && k + 1 > todayMonth} onClick={() => choose('month', k + 1)}>
                    {name}
                  </Cell>
                ))}
              </Picker>
            )}
            {shows.day && (
              <Box sx={{ gridColumn: '1 / -1', maxWidth: { sm: 360 } }}>
                <Picker label={t('dates:dialog.day')} columns={7}>
                  {Array.from({ length: DAY_GRID_CELLS }, (_, k) => k + 1).map((d) =>
                    d <= monthLength ? (
                      <Cell key={d} pressed={d === day} disabled={dayDisabled(d)} onClick={() => choose('day', d)}>
                        {d}
                      </Cell>
                    ) : (
                      <Box key={d} aria-hidden />
                    ),
                  )}
                </Picker>
              </Box>
            )}
          </Box>
        )}
      </DialogContent>
      {/* Outside the scrolling content, so the reason stays in sight on a phone. */}
      {error && (
        <Alert severity="error" sx={{ mx: 2, mt: 1 }}>
          {t(error)}
        </Alert>
      )}
      <DialogActions>
        <Button onClick={onCancel}>{t('dates:dialog.cancel')}</Button>
        <Button variant="contained" onClick={save} disabled={!isMedicalDateComplete(input)}>
          {t('dates:dialog.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export interface MedicalDateFieldProps {
  /** The field's visible label and accessible name; also the dialog's title. */
  label: string;
  value: MedicalDate;
  onChange: (value: MedicalDate) => void;
  /** Error text under the field (linked by aria-describedby; sets aria-invalid). */
  error?: string | undefined;
  dob?: string | null;
  today?: string;
  disabled?: boolean;
  required?: boolean;
  /** The control's name (for forms and their field errors). */
  name?: string;
  id?: string;
  /** Called when the control loses focus (react-hook-form's touched state). */
  onBlur?: () => void;
}

/**
 * A medical date in a form: a read-only field showing the value as entered ("14 May 2019",
 * "May 2019", "2019", "In the past") or "Choose a date"; a click, Enter or Space opens the
 * medical date dialog. The ref reaches the input (so a form can focus it on an error).
 */
export const MedicalDateField = forwardRef<HTMLInputElement, MedicalDateFieldProps>(function MedicalDateField(
  { label, value, onChange, error, dob, today, disabled = false, required = false, name, id, onBlur },
  ref,
) {
  const { t, i18n } = useTranslation('dates');
  const autoId = useId();
  const inputId = id ?? autoId;
  const helperId = `${inputId}-helper`;
  const [open, setOpen] = useState(false);
  const shown = formatMedicalDate(value, uiLocale(i18n.resolvedLanguage ?? i18n.language), t('dialog.modes.past'));

  const openDialog = () => {
    if (!disabled) setOpen(true);
  };
  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === ' ' || (event.altKey && event.key === 'ArrowDown')) {
      event.preventDefault();
      openDialog();
    }
  };

  return (
    <>
      <FormControl variant="outlined" fullWidth required={required} error={Boolean(error)} disabled={disabled}>
        <InputLabel htmlFor={inputId} shrink>
          {label}
        </InputLabel>
        <OutlinedInput
          id={inputId}
          inputRef={ref}
          name={name}
          label={required ? `${label} *` : label}
          notched
          readOnly
          value={shown}
          placeholder={t('field.placeholder')}
          onClick={openDialog}
          onKeyDown={handleKeyDown}
          onBlur={onBlur}
          endAdornment={
            <InputAdornment position="end">
              <CalendarIcon aria-hidden color={disabled ? 'disabled' : 'action'} />
            </InputAdornment>
          }
          slotProps={{
            input: {
              'aria-haspopup': 'dialog',
              'aria-invalid': Boolean(error),
              'aria-required': required,
              'aria-describedby': error ? helperId : undefined,
            },
          }}
          sx={{ cursor: disabled ? 'default' : 'pointer', '& input': { cursor: disabled ? 'default' : 'pointer' } }}
        />
        {error && (
          <FormHelperText id={helperId} role="alert">
            {error}
          </FormHelperText>
        )}
      </FormControl>
      <MedicalDateDialog
        open={open}
        title={label}
        value={value}
        dob={dob ?? null}
        today={today}
        onSave={(next) => {
          setOpen(false);
          onChange(next);
        }}
        onCancel={() => setOpen(false)}
      />
    </>
  );
});
