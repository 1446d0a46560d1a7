import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import type { SurveyDto } from '@healthbook/shared/contracts/surveys';

export interface SurveyQuestionProps {
  item: SurveyDto['items'][number];
  /** 1-based, shown before the question. */
  number: number;
  value: number | undefined;
  onChange: (value: number) => void;
  /** The problem with the answer (the server's words, or ours). */
  error?: string | undefined;
}

/** One question: its text names a radio group of its answers; a problem shows under it. */
export function SurveyQuestion({ item, number, value, onChange, error }: SurveyQuestionProps) {
  const { t } = useTranslation('surveys');
  const labelId = useId();
  const errorId = useId();
  return (
    <FormControl error={Boolean(error)} sx={{ width: '100%' }} data-item={item.id}>
      <Typography id={labelId} component="p" sx={{ fontWeight: 600, mb: 1, fontSize: '1.05rem' }}>
        {t('take.questionText', { number, text: item.text })}
        {item.optional && (
          <Typography component="span" color="text.secondary" sx={{ fontWeight: 400 }}>
            {' '}
            {t('take.optional')}
          </Typography>
        )}
      </Typography>
      <RadioGroup
        aria-labelledby={labelId}
        aria-describedby={error ? errorId : undefined}
        value={value === undefined ? '' : String(value)}
        onChange={(_, next) => onChange(Number(next))}
      >
        {item.options.map((option) => (
          <FormControlLabel
            key={option.value}
            value={String(option.value)}
            control={<Radio />}
            label={option.label}
            sx={{ mr: 0, py: 0.25, alignItems: 'center' }}
          />
        ))}
      </RadioGroup>
      {error && (
        <FormHelperText id={errorId} sx={{ mx: 0, fontSize: '0.95rem' }}>
          {error}
        </FormHelperText>
      )}
    </FormControl>
  );
}
