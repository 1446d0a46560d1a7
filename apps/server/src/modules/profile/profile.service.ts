import type { ProfileAnswersBody, ProfileQuestion, WelcomeMessage } from '@healthbook/shared';
import { ownScope, type SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { FieldError, notFound, type Vars } from '../../lib/http-errors';
import { presentQuestion, presentWelcomeMessage } from './profile.presenter';
import { ProfileRepository, type ProfileQuestionRecord } from './profile.repository';
import { servicePlugin } from '../../lib/service-plugin';

type Message = string | { key: string; vars?: Vars };

/** An answer as stored ('' clears it), or the reason it cannot be one. */
function normalizeAnswer(q: ProfileQuestionRecord, raw: string): { answer: string | null } | { error: Message } {
  const value = raw.trim();
  if (value === '') return { answer: null };
  switch (q.question_type) {
    case 'text':
      return { answer: value };
    case 'boolean': {
      const lower = value.toLowerCase();
      return lower === 'true' || lower === 'false' ? { answer: lower } : { error: { key: 'validation:invalidChoice', vars: { value } } };
    }
    case 'choice':
      return q.options.some((o) => o.key === value) ? { answer: value } : { error: { key: 'validation:invalidChoice', vars: { value } } };
  }
}

/** Profile questions and answers, and the welcome messages of the user's organisation: always the user's own. */
export class ProfileService {
  constructor(private readonly db: Db) {}

  async questions(ctx: SignedInContext): Promise<ProfileQuestion[]> {
    const repo = new ProfileRepository(this.db, ownScope(ctx));
    const [questions, answers] = await Promise.all([repo.questions(), repo.answers(ctx.actor.userId)]);
    return questions.map((q) => presentQuestion(q, answers.get(q.id), ctx.lang));
  }

  /**
   * Writes every answer sent, or none: an unknown question (or one of another organisation) or
   * a value that is not one of a question's options answers 400 with a message per answer,
   * e.g. {"answers.12": ["..."]}. An empty value clears that answer.
   */
  async saveAnswers(ctx: SignedInContext, body: ProfileAnswersBody): Promise<ProfileQuestion[]> {
    await this.db.transaction().execute(async (trx) => {
      const repo = new ProfileRepository(trx, ownScope(ctx));
      const questions = new Map((await repo.questions()).map((q) => [q.id, q]));
      const errors: Record<string, Message[]> = {};
      const rows: Array<{ questionId: number; answer: string | null }> = [];
      for (const [id, raw] of Object.entries(body.answers)) {
        const question = questions.get(Number(id));
        if (!question) {
          errors[`answers.${id}`] = ['validation:questionUnknown'];
          continue;
        }
        const result = normalizeAnswer(question, raw);
        if ('error' in result) errors[`answers.${id}`] = [result.error];
        else rows.push({ questionId: question.id, answer: result.answer });
      }
      if (Object.keys(errors).length) throw new FieldError(errors);
      await repo.saveAnswers(ctx.actor.userId, rows);
    });
    return this.questions(ctx);
  }

  /** Only one's own welcome messages: asking for anyone else's answers 404. */
  async welcomeMessages(ctx: SignedInContext, userId: number): Promise<WelcomeMessage[]> {
    if (userId !== ctx.actor.userId) throw notFound();
    const messages = await new ProfileRepository(this.db, ownScope(ctx)).welcomeMessages();
    return messages.map((m) => presentWelcomeMessage(m, ctx.actor.user.org_name, ctx.lang));
  }

  /** Whether the user has answered any question of their organisation (the wizard's step). */
  hasAnswers(ctx: SignedInContext): Promise<boolean> {
    return new ProfileRepository(this.db, ownScope(ctx)).hasAnswers(ctx.actor.userId);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    profile: ProfileService;
  }
}

export default servicePlugin('profile', ['db'], (app) => new ProfileService(app.db));
