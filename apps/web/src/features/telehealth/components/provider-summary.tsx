import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Provider } from '@healthbook/shared/contracts/appointments';
import { specialityIn } from '@healthbook/shared/appointments';
import { languageName } from '@healthbook/shared/language-names';
import { UserAvatar } from '../../../components/user-avatar';

interface ProviderSummaryProps {
  provider: Provider;
  /** The heading level of the name (h1 on the provider's page, h2 in a list). */
  headingLevel: 'h1' | 'h2';
  size?: number;
  /** The name as a link (in a list), or plain. */
  name?: ReactNode;
}

/** A provider at a glance: photo (or initials), name, speciality and credentials, languages (named in the reader's language). */
export function ProviderSummary({ provider, headingLevel, size = 64, name }: ProviderSummaryProps) {
  const { t, i18n } = useTranslation('telehealth');
  const reader = i18n.resolvedLanguage ?? 'en';
  const person = { first_name: provider.first_name, last_name: provider.last_name, profile_picture: provider.photo_url };
  const line = [specialityIn(reader, provider.speciality, provider.speciality_el), provider.credentials].filter(Boolean).join(' · ');
  return (
    <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', minWidth: 0 }}>
      <UserAvatar user={person} size={size} alt={provider.photo_url ? t('provider.photo', { name: provider.provider_name }) : ''} />
      <Box sx={{ minWidth: 0 }}>
        <Typography variant={headingLevel === 'h1' ? 'h1' : 'h2'} component={headingLevel} sx={headingLevel === 'h2' ? { fontSize: '1.15rem', fontWeight: 600 } : { mb: 0.5 }}>
          {name ?? provider.provider_name}
        </Typography>
        {line && <Typography color="text.secondary">{line}</Typography>}
        {provider.languages.length > 0 && (
          <Stack component="ul" direction="row" spacing={0.75} useFlexGap aria-label={t('provider.languages')} sx={{ flexWrap: 'wrap', p: 0, mt: 0.75, mb: 0, listStyle: 'none' }}>
            {provider.languages.map((language) => (
              <li key={language}>
                <Chip size="small" variant="outlined" label={languageName(language, reader)} />
              </li>
            ))}
          </Stack>
        )}
      </Box>
    </Box>
  );
}
