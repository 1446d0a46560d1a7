import { describe, expect, it } from 'vitest';
import { CrisisLineSchema, OrganizationSettingsBodySchema } from './contracts/organizations';
import { EMERGENCY_COUNTRIES, EMERGENCY_PRESETS } from './emergency';

describe('emergency presets per country', () => {
  it('are what an administrator could save: valid numbers, names in both languages', () => {
    for (const country of EMERGENCY_COUNTRIES) {
      const preset = EMERGENCY_PRESETS[country];
      for (const line of preset.crisis_lines) expect(CrisisLineSchema.safeParse(line).success, `${country} ${line.number}`).toBe(true);
      expect(OrganizationSettingsBodySchema.safeParse({ emergency_number: preset.emergency_number, crisis_lines: preset.crisis_lines }).success, country).toBe(true);
    }
  });

  it('give Greece 112 and the suicide-prevention line 1018, the rest of the EU 112', () => {
    expect(EMERGENCY_PRESETS.GR.emergency_number).toBe('112');
    expect(EMERGENCY_PRESETS.GR.crisis_lines.map((l) => l.number)).toContain('1018');
    expect(EMERGENCY_PRESETS.EU.emergency_number).toBe('112');
  });
});
