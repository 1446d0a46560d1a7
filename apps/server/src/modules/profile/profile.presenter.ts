import type { Language, ProfileQuestion, WelcomeMessage } from '@healthbook/shared';
import type { ProfileQuestionRecord, WelcomeMessageRecord } from './profile.repository';

/** A question in the request's language, with the user's current answer (or null). */
export function presentQuestion(q: ProfileQuestionRecord, answer: string | undefined, lang: Language): ProfileQuestion {
  return {
    id: q.id,
    question: lang === 'el' ? q.text_el : q.text_en,
    question_type: q.question_type,
    options: q.options.map((o) => ({ key: o.key, value: lang === 'el' ? o.el : o.en })),
    answer: answer ?? null,
  };
}

/** A welcome message in the request's language; {{orgName}} becomes the user's organisation. */
export function presentWelcomeMessage(m: WelcomeMessageRecord, orgName: string, lang: Language): WelcomeMessage {
  const fill = (s: string) => s.replace(/\{\{\s*orgName\s*\}\}/g, orgName);
  return {
    id: m.id,
    title: fill(lang === 'el' ? m.title_el : m.title_en),
    message: fill(lang === 'el' ? m.message_el : m.message_en),
  };
}
