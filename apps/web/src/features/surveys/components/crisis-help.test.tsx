import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, within } from '@testing-library/react';
import type { SurveyResult } from '@healthbook/shared/contracts/surveys';
import type { FeatureEntry } from '@healthbook/shared/contracts/features';
import { i18n } from '../../../lib/i18n';
import { json, mockFetch, renderPage, testOrg } from '../../../test/render-page';
import { telHref } from '../../../components/call-button';
import { CrisisHelp } from './crisis-help';
import SurveyResultPage from './survey-result-page';

const org = {
  ...testOrg,
  emergency_number: '911',
  crisis_lines: [{ number: '988', name: { en: 'Suicide & Crisis Lifeline', el: 'Γραμμή Ζωής 988' } }],
};

const crisis = (chatTo: string | null, whileAnswering = false) =>
  renderPage({
    path: 'here',
    at: '/healthbook/here',
    org,
    element: <CrisisHelp emergencyNumber={org.emergency_number} crisisLines={org.crisis_lines} chatTo={chatTo} whileAnswering={whileAnswering} />,
  });

describe('CrisisHelp', () => {
  afterEach(async () => {
    cleanup();
    vi.unstubAllGlobals();
    await act(() => i18n.changeLanguage('en'));
  });

  it('names itself, and gives each crisis line and the emergency number as tel: links', async () => {
    await crisis(null);
    const region = await screen.findByRole('region', { name: 'You are not alone' });
    expect(within(region).getByRole('link', { name: 'Call Suicide & Crisis Lifeline: 988' }).getAttribute('href')).toBe('tel:988');
    expect(within(region).getByRole('link', { name: 'call 911' }).getAttribute('href')).toBe('tel:911');
  });

  it('offers a chat only when live help is active', async () => {
    await crisis(null);
    await screen.findByRole('region', { name: 'You are not alone' });
    expect(screen.queryByRole('link', { name: 'Chat with someone now' })).toBeNull();
    cleanup();
    await crisis('/healthbook/peer-coaching');
    expect((await screen.findByRole('link', { name: 'Chat with someone now' })).getAttribute('href')).toBe('/healthbook/peer-coaching');
  });

  it('tells someone still answering that they may go on', async () => {
    await crisis(null, true);
    expect(await screen.findByText('You can keep answering if you want to; your result will follow.')).toBeTruthy();
  });

  it('names the lines in Greek for a Greek reader', async () => {
    await act(() => i18n.changeLanguage('el'));
    await crisis(null);
    const region = await screen.findByRole('region', { name: 'Δεν είστε μόνοι' });
    expect(within(region).getByRole('link', { name: 'Καλέστε Γραμμή Ζωής 988: 988' }).getAttribute('href')).toBe('tel:988');
  });

  it('dials numbers written with spaces and dashes', () => {
    expect(telHref('+30 210-123 4567')).toBe('tel:+302101234567');
  });
});

const result = (extra: Partial<SurveyResult> = {}): SurveyResult => ({
  id: 41,
  survey: 'phq-9',
  route: 'phq-9',
  title: 'Depression check (PHQ-9)',
  score: 4,
  max_score: 27,
  higher_is_better: false,
  band: { key: 'minimal', min: 0, max: 4, level: 0, label: 'Minimal or no depression symptoms', meaning: 'Few or no signs.' },
  safety: true,
  next: null,
  note: 'This is a screening, not a diagnosis.',
  attribution: 'Developed by Drs. Spitzer, Williams, Kroenke.',
  answers: [{ item: 'q9', text: 'Thoughts that you would be better off dead or of hurting yourself in some way', value: 1, label: 'Several days' }],
  submitted_at: '2026-03-01T10:00:00.000Z',
  submitted_by: 'Maria Papadopoulou',
  ...extra,
});

const features = (active: string[]): FeatureEntry[] =>
  active.map((key, i) => ({ id: i + 1, key, feature_status: 'active', feature_route: key, display_name: key, icon_name: 'Help' }) as unknown as FeatureEntry);

describe('the result page', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  const open = (answer: SurveyResult, active: string[] = ['live-help', 'help']) => {
    mockFetch(({ url }) => {
      if (url.includes('/api/v1/features/get-features/')) return json(200, features(active));
      if (url.endsWith('/api/v1/surveys/responses/41/')) return json(200, answer);
      return json(404, { detail: 'Not found.' });
    });
    return renderPage({ path: 'health-action/result', at: '/healthbook/health-action/result?action=phq-9&id=41', org, element: <SurveyResultPage /> });
  };

  it('shows crisis help first, above the score, even with a low total', async () => {
    await open(result());
    const help = await screen.findByRole('region', { name: 'You are not alone' });
    const score = screen.getByText('4 of 27');
    expect(help.compareDocumentPosition(score) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByText('Minimal or no depression symptoms')).toBeTruthy();
    expect((await within(help).findByRole('link', { name: 'Chat with someone now' })).getAttribute('href')).toBe('/healthbook/peer-coaching');
  });

  it('shows no crisis help without the safety flag, and only the active next steps', async () => {
    await open(result({ safety: false }), ['help']);
    expect(await screen.findByText('4 of 27')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'You are not alone' })).toBeNull();
    expect((await screen.findByRole('link', { name: /Get help/ })).getAttribute('href')).toBe('/healthbook/healthhelp');
    expect(screen.queryByRole('link', { name: /Book a telehealth visit/ })).toBeNull();
    expect(screen.queryByRole('link', { name: /Start a chat/ })).toBeNull();
  });

  it('goes to the survey hub without an action, or with an unknown one', async () => {
    mockFetch(() => json(404, {}));
    await renderPage({ path: 'health-action/result', at: '/healthbook/health-action/result', org, element: <SurveyResultPage /> });
    expect((await screen.findByTestId('location')).textContent).toBe('/healthbook/mental-health-survey');
    cleanup();
    await renderPage({ path: 'health-action/result', at: '/healthbook/health-action/result?action=nope', org, element: <SurveyResultPage /> });
    expect((await screen.findByTestId('location')).textContent).toBe('/healthbook/mental-health-survey');
  });
});
