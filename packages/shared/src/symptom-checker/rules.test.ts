import { describe, expect, it } from 'vitest';
import { SymptomCheckInputSchema } from '../contracts/symptom-checker';
import { COMPLAINTS, COMPLAINT_IDS, type Complaint, type ComplaintId } from './complaints';
import { FLAG_IDS, RED_FLAGS, type FlagId, type RedFlag } from './flags';
import { ADVICE_KEYS, ESCALATION_RULES, flagsFor, reasonText, triage, type TriageInput } from './rules';
import { matchesSearch } from './search';
import { SOURCES } from './sources';
import { DURATIONS, SEVERITIES, TRIAGE_LEVELS, applies, type Sex } from './types';

const complaint = (id: ComplaintId) => COMPLAINTS[id] as Complaint;
const flag = (id: FlagId) => RED_FLAGS[id] as RedFlag;

/** Someone a complaint and one of its flags are for (a baby for the baby's question, a woman of an age for pregnancy). */
function personFor(id: ComplaintId, flagId?: FlagId): { age: number; sex: Sex } {
  const candidates = [30, 0, 12, 50, 70].flatMap((age) => (['female', 'male'] as const).map((sex) => ({ age, sex })));
  const found = candidates.find((p) => applies(complaint(id).for, p) && (!flagId || applies(flag(flagId).for, p)));
  if (!found) throw new Error(`nobody for ${id}/${flagId}`);
  return found;
}

const input = (complaintId: ComplaintId, extra: Partial<TriageInput> = {}): TriageInput => ({
  ...personFor(complaintId),
  complaint: complaintId,
  duration: 'under-24-hours',
  severity: 'mild',
  red_flags: [],
  ...extra,
});

const everyFlag = COMPLAINT_IDS.flatMap((c) => complaint(c).flags.map((f) => [c, f, flag(f).level] as const));

describe('the data', () => {
  it('has 20 to 30 complaints, each named and searchable in English and Greek, each with red-flag questions', () => {
    expect(COMPLAINT_IDS.length).toBeGreaterThanOrEqual(20);
    expect(COMPLAINT_IDS.length).toBeLessThanOrEqual(30);
    for (const id of COMPLAINT_IDS) {
      const c = complaint(id);
      expect(c.name.en.trim(), id).not.toBe('');
      expect(c.name.el, id).toMatch(/[α-ωά-ώ]/i);
      expect(c.synonyms.en.length, id).toBeGreaterThan(0);
      expect(c.synonyms.el.length, id).toBeGreaterThan(0);
      expect(c.flags.length, id).toBeGreaterThan(0);
    }
  });

  it('names a published source for every red flag and every rule, and every source it names exists', () => {
    for (const id of FLAG_IDS) {
      expect(SOURCES[flag(id).source], id).toBeDefined();
      expect(flag(id).question.en, id).toMatch(/\?$/);
      expect(flag(id).question.el, id).toMatch(/;$/); // the Greek question mark
    }
    for (const [id, rule] of Object.entries(ESCALATION_RULES)) expect(SOURCES[rule.source], id).toBeDefined();
    for (const source of Object.values(SOURCES)) expect(source.url).toMatch(/^https:\/\//);
  });

  it('asks every red flag in at least one complaint', () => {
    const used = new Set(COMPLAINT_IDS.flatMap((c) => complaint(c).flags));
    expect(FLAG_IDS.filter((f) => !used.has(f))).toEqual([]);
  });
});

describe('triage: every red flag triggers its level, even mild and just started', () => {
  it.each(everyFlag)('%s: %s -> %s', (complaintId, flagId, level) => {
    const person = personFor(complaintId, flagId);
    const result = triage({ ...input(complaintId), ...person, red_flags: [flagId] });
    expect(result.level).toBe(level);
    expect(result.reasons).toEqual([{ kind: 'flag', id: flagId }]);
    expect(result.advice).toEqual(ADVICE_KEYS[level]);
  });
});

describe('triage: any red flag wins over everything else', () => {
  it.each(everyFlag)('%s: %s -> %s, whatever the severity, duration and age', (complaintId, flagId, level) => {
    const person = personFor(complaintId, flagId);
    for (const severity of SEVERITIES) {
      for (const duration of DURATIONS) {
        const result = triage({ ...person, complaint: complaintId, severity, duration, red_flags: [flagId] });
        expect(result.level).toBe(level);
        expect(result.reasons.every((r) => r.kind === 'flag')).toBe(true);
      }
    }
  });

  it('takes the highest level among the flags answered yes, listing those first', () => {
    const result = triage(input('headache', { red_flags: ['after-head-injury', 'thunderclap-headache'] }));
    expect(result.level).toBe('emergency');
    expect(result.reasons).toEqual([
      { kind: 'flag', id: 'thunderclap-headache' },
      { kind: 'flag', id: 'after-head-injury' },
    ]);
  });

  it('ignores a flag that is not the complaint’s (the schema refuses it before)', () => {
    expect(triage(input('cold', { red_flags: ['chest-pain-spreading'] })).level).toBe('self-care');
  });
});

describe('triage: rules after the red flags', () => {
  it.each([
    ['a mild cold, just started: self-care', input('cold'), 'self-care', [{ kind: 'default', id: 'cold' }]],
    ['a severe cold: soon', input('cold', { severity: 'severe' }), 'soon', [{ kind: 'rule', id: 'severe' }]],
    ['a cold for over a month: soon', input('cold', { duration: 'over-a-month' }), 'soon', [{ kind: 'rule', id: 'long-duration' }]],
    ['a cold for 1 to 4 weeks (from 3 weeks, see a GP): soon', input('cold', { duration: '1-4-weeks' }), 'soon', [{ kind: 'rule', id: 'long-duration' }]],
    ['a cold for 4 to 7 days: still self-care', input('cold', { duration: '4-7-days' }), 'self-care', [{ kind: 'default', id: 'cold' }]],
    ['severe and long: soon, for both reasons', input('cough', { severity: 'severe', duration: 'over-a-month' }), 'soon', [{ kind: 'rule', id: 'severe' }, { kind: 'rule', id: 'long-duration' }]],
    ['a baby with a fever: urgent', input('fever', { age: 0 }), 'urgent', [{ kind: 'rule', id: 'infant-fever' }]],
    ['a child of 3 with a fever for 4 to 7 days: urgent', input('fever', { age: 3, duration: '4-7-days' }), 'urgent', [{ kind: 'rule', id: 'child-fever-4-days' }]],
    ['a child of 3 with a fever for 1 to 3 days: self-care', input('fever', { age: 3, duration: '1-3-days' }), 'self-care', [{ kind: 'default', id: 'fever' }]],
    ['a child of 5 with a fever for 4 to 7 days: soon (long)', input('fever', { age: 5, duration: '4-7-days' }), 'soon', [{ kind: 'rule', id: 'long-duration' }]],
    ['a fever at 80: soon', input('fever', { age: 80 }), 'soon', [{ kind: 'rule', id: 'older-adult-fever' }]],
    ['a baby vomiting: soon', input('vomiting', { age: 0 }), 'soon', [{ kind: 'rule', id: 'infant-dehydration-risk' }]],
    ['chest pain without a red flag: urgent (its default)', input('chest-pain'), 'urgent', [{ kind: 'default', id: 'chest-pain' }]],
    ['severe chest pain without a red flag: still urgent, never lowered', input('chest-pain', { severity: 'severe' }), 'urgent', [{ kind: 'default', id: 'chest-pain' }]],
    ['pain when peeing: soon (its default)', input('urinary-pain'), 'soon', [{ kind: 'default', id: 'urinary-pain' }]],
  ] as const)('%s', (_name, given, level, reasons) => {
    const result = triage(given);
    expect(result.level).toBe(level);
    expect(result.reasons).toEqual(reasons);
  });

  it('reaches every level', () => {
    const reached = new Set([
      triage(input('cold')).level,
      triage(input('cold', { severity: 'severe' })).level,
      triage(input('chest-pain')).level,
      triage(input('chest-pain', { red_flags: ['chest-pain-spreading'] })).level,
    ]);
    expect([...reached].sort()).toEqual([...TRIAGE_LEVELS].sort());
  });

  it('is deterministic', () => {
    const given = input('headache', { severity: 'moderate', duration: '1-4-weeks' });
    expect(triage(given)).toEqual(triage({ ...given }));
  });

  it('words every reason in both languages, with its source', () => {
    expect(reasonText({ kind: 'flag', id: 'rash-not-fading' }, 'el')).toEqual({ text: RED_FLAGS['rash-not-fading'].question.el, source: 'nhs-meningitis' });
    expect(reasonText({ kind: 'default', id: 'cold' }, 'en').text).toBe('Cold or runny nose without warning signs can usually be looked after at home.');
    expect(reasonText({ kind: 'rule', id: 'severe' }, 'el').text).toBe('Είπατε ότι είναι σοβαρό.');
  });
});

describe('who a question is for', () => {
  it('asks about a baby under 3 months only for a baby, and about pregnancy only of women of an age', () => {
    expect(flagsFor('fever', { age: 0, sex: 'male' })).toContain('baby-under-3-months');
    expect(flagsFor('fever', { age: 1, sex: 'male' })).not.toContain('baby-under-3-months');
    expect(flagsFor('abdominal-pain', { age: 30, sex: 'female' })).toContain('could-be-pregnant');
    expect(flagsFor('abdominal-pain', { age: 30, sex: 'male' })).not.toContain('could-be-pregnant');
    expect(flagsFor('abdominal-pain', { age: 70, sex: 'female' })).not.toContain('could-be-pregnant');
  });
});

describe('the input schema', () => {
  const good = { age: 40, sex: 'female', complaint: 'cold', duration: '1-3-days', severity: 'mild', red_flags: [] };

  it('accepts a check of the lists, red_flags defaulting to none', () => {
    const { red_flags: _none, ...withoutFlags } = good;
    expect(SymptomCheckInputSchema.parse(withoutFlags)).toEqual(good);
    expect(SymptomCheckInputSchema.safeParse({ ...good, complaint: 'chest-pain', red_flags: ['chest-pain-spreading'] }).success).toBe(true);
  });

  it.each([
    ['age', { age: -1 }],
    ['age', { age: 121 }],
    ['age', { age: 4.5 }],
    ['age', { age: '40' }],
    ['sex', { sex: 'other' }],
    ['complaint', { complaint: 'broken-heart' }],
    ['complaint', { complaint: 'testicle-pain' }], // not for a woman
    ['duration', { duration: 'forever' }],
    ['severity', { severity: 'unbearable' }],
    ['red_flags', { red_flags: ['made-up'] }],
    ['red_flags', { red_flags: ['chest-pain-spreading'] }], // not a cold's question
    ['red_flags', { red_flags: 'seizure' }],
    ['red_flags', { complaint: 'fever', age: 2, red_flags: ['baby-under-3-months'] }], // not asked for a child of 2
    ['extra', { extra: 1 }],
  ])('refuses %s outside the lists: %j', (field, change) => {
    const result = SymptomCheckInputSchema.safeParse({ ...good, ...change });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((i) => (i.path.length ? String(i.path[0]) : (i as { keys?: string[] }).keys?.[0]));
    expect(paths).toContain(field);
  });

  it.each(['age', 'sex', 'complaint', 'duration', 'severity'])('requires %s', (field) => {
    const { [field as keyof typeof good]: _gone, ...rest } = good;
    expect(SymptomCheckInputSchema.safeParse(rest).success).toBe(false);
  });
});

describe('searching the complaints', () => {
  const find = (query: string, lang: 'en' | 'el') =>
    COMPLAINT_IDS.filter((id) => matchesSearch([complaint(id).name[lang], ...complaint(id).synonyms[lang]], query));

  it.each([
    ['runny nose', 'en', 'cold'],
    ['TUMMY', 'en', 'abdominal-pain'],
    ['migraine', 'en', 'headache'],
    ['πονοκεφαλος', 'el', 'headache'],
    ['ΠΥΡΕΤΌΣ', 'el', 'fever'],
    ['συναχι', 'el', 'cold'],
    ['στήθος', 'el', 'chest-pain'],
  ] as const)('finds %s (%s) -> %s', (query, lang, id) => {
    expect(find(query, lang)).toContain(id);
  });

  it('finds everything for nothing typed, nothing for nonsense', () => {
    expect(find('', 'en')).toHaveLength(COMPLAINT_IDS.length);
    expect(find('xyzzy', 'el')).toEqual([]);
  });
});
