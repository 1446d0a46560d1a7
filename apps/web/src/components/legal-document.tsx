import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import {
  POSTAL_ADDRESS,
  PRIVACY_CHILD_AGE,
  PRIVACY_REVISED_DATE,
  SUPPORT_EMAIL,
  TERMS_ARBITRATOR_APPOINTMENT_DAYS,
  TERMS_CLAIMS_WINDOW_YEARS,
  TERMS_DATE,
  TERMS_LIABILITY_CAP_USD,
  TERMS_MINIMUM_AGE,
} from '@healthbook/shared/constants';
import { useOrganizationContext } from '../lib/organization-context';
import { paths } from '../lib/paths';

interface Section {
  heading: string;
  paragraphs: string[];
  items: string[];
}

type Doc = 'about' | 'privacy' | 'terms';
const REVISED: Partial<Record<Doc, string>> = { privacy: PRIVACY_REVISED_DATE, terms: TERMS_DATE };

/** Dates in the reader's language: 1/17/2025 in English, 17/1/2025 in Greek. */
function formatDate(iso: string, lang: string): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat(lang === 'el' ? 'el-GR' : 'en-US', { timeZone: 'UTC' }).format(Date.UTC(y, m - 1, d));
}

/** About, Privacy Policy and Terms of Service: text from the legal catalog, constants from the spec. */
export function LegalDocument({ doc, headingLevel = 1, showHomeLink = true }: { doc: Doc; headingLevel?: 1 | 2; showHomeLink?: boolean }) {
  const { org, clientId } = useOrganizationContext();
  const { t, i18n } = useTranslation(['legal', 'common']);
  const lang = i18n.resolvedLanguage ?? 'en';
  const vars = {
    orgName: org.org_name,
    minimumAge: TERMS_MINIMUM_AGE,
    liabilityCap: new Intl.NumberFormat(lang === 'el' ? 'el-GR' : 'en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(
      TERMS_LIABILITY_CAP_USD,
    ),
    claimsYears: TERMS_CLAIMS_WINDOW_YEARS,
    arbitratorDays: TERMS_ARBITRATOR_APPOINTMENT_DAYS,
    childAge: PRIVACY_CHILD_AGE,
    supportEmail: SUPPORT_EMAIL,
    postalAddress: POSTAL_ADDRESS,
  };
  const title = t(`${doc}.title`, vars);
  const intro = t(`${doc}.intro`, { ...vars, returnObjects: true }) as unknown as string[];
  const sections = t(`${doc}.sections`, { ...vars, returnObjects: true }) as unknown as Section[];
  const revised = REVISED[doc];

  return (
    <Box component="article" sx={{ maxWidth: 820, width: '100%', mx: 'auto', px: { xs: 2, sm: 4 }, py: { xs: 4, md: 6 } }}>
      {headingLevel === 1 && <title>{`${title} | ${org.org_name}`}</title>}
      <Typography variant="h1" component={headingLevel === 1 ? 'h1' : 'h2'} gutterBottom>
        {title}
      </Typography>
      {revised && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
          {t(`${doc}.revised`, { date: formatDate(revised, lang) })}
        </Typography>
      )}
      {intro.map((p, i) => (
        <Typography key={i} sx={{ mb: 2 }}>
          {p}
        </Typography>
      ))}
      {sections.map((section, i) => (
        <Box component="section" key={i} sx={{ mt: 4 }} aria-labelledby={`${doc}-s${i}`}>
          <Typography variant="h2" component={headingLevel === 1 ? 'h2' : 'h3'} id={`${doc}-s${i}`} gutterBottom>
            {section.heading}
          </Typography>
          {section.paragraphs.map((p, j) => (
            <Typography key={j} sx={{ mb: 1.5 }}>
              {p}
            </Typography>
          ))}
          {section.items.length > 0 && (
            <Box component="ul" sx={{ pl: 3, my: 1 }}>
              {section.items.map((item, j) => (
                <Typography component="li" key={j} sx={{ mb: 0.5 }}>
                  {item}
                </Typography>
              ))}
            </Box>
          )}
        </Box>
      ))}
      {showHomeLink && (
        <Link component={RouterLink} to={paths.login(clientId)} sx={{ display: 'inline-block', mt: 4 }}>
          {t('common:legal.home')}
        </Link>
      )}
    </Box>
  );
}
