import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, auditSentence } from './audit';
import { SUPPORTED_LANGUAGES } from './constants';
import { sharedCatalogs } from './i18n';

describe('audit sentences', () => {
  it('every action the server can write has a sentence in every language, naming who did it where someone did', () => {
    for (const lang of SUPPORTED_LANGUAGES) {
      const sentences = sharedCatalogs[lang].audit.actions as Record<string, string>;
      const missing = AUDIT_ACTIONS.filter((action) => typeof sentences[action] !== 'string' || sentences[action].trim() === '');
      expect(missing, `${lang}: actions without a sentence`).toEqual([]);
      // No sentence left over for an action the server no longer writes.
      expect(Object.keys(sentences).filter((key) => !(AUDIT_ACTIONS as readonly string[]).includes(key)), lang).toEqual([]);
    }
  });

  it('reads as a sentence, never as the raw action', () => {
    for (const lang of SUPPORTED_LANGUAGES)
      for (const action of AUDIT_ACTIONS) {
        const text = auditSentence(lang, { action, outcome: 'success', who: 'Sofia Antoniou' });
        expect(text, `${lang} ${action}`).not.toMatch(/[a-z]+_[a-z]+|\{\{|audit:/);
        expect(text).not.toBe(action.replace(/_/g, ' '));
      }
  });

  it('groups repeated reads ("read your chat 8 times")', () => {
    expect(auditSentence('en', { action: 'chat_read', outcome: 'success', who: 'Sofia Antoniou', count: 8 })).toBe('Sofia Antoniou read your chat 8 times');
    expect(auditSentence('el', { action: 'chat_read', outcome: 'success', who: 'Σοφία Αντωνίου', count: 8 })).toBe('Σοφία Αντωνίου διάβασε τη συνομιλία σας 8 φορές');
    expect(auditSentence('en', { action: 'chat_read', outcome: 'success', who: 'Sofia Antoniou', count: 1 })).toBe('Sofia Antoniou read your chat');
  });

  it("says what a share's recipient did, in the sharing page's terms", () => {
    const share = (detail: Record<string, unknown>, count = 1) => auditSentence('en', { action: 'share_read', outcome: 'success', who: 'Dr Grey', detail, count });
    expect(share({ share: 1, what: 'viewed' }, 2)).toBe('Dr Grey opened your shared link and viewed the records 2 times');
    expect(share({ share: 1, what: 'pdf' })).toBe('Dr Grey downloaded the PDF of your shared records');
    expect(share({ share: 1, document: 4 })).toBe('Dr Grey opened a document you shared');
    expect(auditSentence('el', { action: 'share_verify', outcome: 'denied', who: 'Dr Grey' })).toBe('Dr Grey έδωσε λάθος κωδικό για τον σύνδεσμο που κοινοποιήσατε');
  });

  it('says a refusal as one, and an unknown action without its key', () => {
    expect(auditSentence('en', { action: 'patient_access', outcome: 'denied', who: 'Rob Reader' })).toBe('Rob Reader was refused: no access to this part of your record');
    expect(auditSentence('en', { action: 'assessment_access', outcome: 'success', who: 'Rob Reader' })).toBe('Rob Reader used your record');
  });
});
