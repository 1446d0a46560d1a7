import type { FastifyRequest } from 'fastify';
import type { ProfileAnswersBody, ProfileQuestion, WelcomeMessage } from '@healthbook/shared';
import type { Db } from '../../db/client';
import { FieldError, notFound, type Vars } from '../../lib/http-errors';
import { presentQuestion, presentWelcomeMessage } from './profile.presenter';
import { ProfileRepository, type ProfileQuestionRecord } from './profile.repository';

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

/** Profile questions and answers, and the welcome messages of the user's organisation. */
export class ProfileService {
  private readonly repo: ProfileRepository;

  constructor(private readonly db: Db) {
    this.repo = new ProfileRepository(db);
  }

  async questions(request: FastifyRequest): Promise<ProfileQuestion[]> {
    const { orgId, userId } = request.auth!;
    const [questions, answers] = await Promise.all([this.repo.questions(orgId), this.repo.answers(userId)]);
    return questions.map((q) => presentQuestion(q, answers.get(q.id), request.lang));
  }

  /**
   * Writes every answer sent, or none: an unknown question (or one of another organisation) or
   * a value that is not one of a question's options answers 400 with a message per answer,
   * e.g. {"answers.12": ["..."]}. An empty value clears that answer.
   */
  async saveAnswers(request: FastifyRequest, body: ProfileAnswersBody): Promise<ProfileQuestion[]> {
    const { orgId, userId } = request.auth!;
    await this.db.transaction().execute(async (trx) => {
      const repo = new ProfileRepository(trx);
      const questions = new Map((await repo.questions(orgId)).map((q) => [q.id, q]));
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
      await repo.saveAnswers(userId, rows);
    });
    return this.questions(request);
  }

  /** Only one's own welcome messages: asking for anyone else's answers 404. */
  async welcomeMessages(request: FastifyRequest, userId: number): Promise<WelcomeMessage[]> {
    const auth = request.auth!;
    if (userId !== auth.userId) throw notFound();
    const messages = await this.repo.welcomeMessages(auth.orgId);
    return messages.map((m) => presentWelcomeMessage(m, auth.user.org_name, request.lang));
  }
}
