import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/client';
import type { ProfileQuestionsTable, WelcomeMessagesTable } from '../../db/schema';
import type { OrgScope } from '../../db/scope';

export type ProfileQuestionRecord = Selectable<ProfileQuestionsTable>;
export type WelcomeMessageRecord = Selectable<WelcomeMessagesTable>;

/**
 * Profile content of one organisation (rows with org_id null apply to every organisation) and
 * its users' answers.
 */
export class ProfileRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: OrgScope,
  ) {}

  questions(): Promise<ProfileQuestionRecord[]> {
    return this.db
      .selectFrom('profile_questions')
      .selectAll()
      .where((eb) => eb.or([eb('org_id', '=', this.scope.orgId), eb('org_id', 'is', null)]))
      .orderBy('position')
      .orderBy('id')
      .execute();
  }

  async answers(userId: number): Promise<Map<number, string>> {
    const rows = await this.db
      .selectFrom('profile_answers')
      .select(['question_id', 'answer'])
      .where('org_id', '=', this.scope.orgId)
      .where('user_id', '=', userId)
      .execute();
    return new Map(rows.map((r) => [r.question_id, r.answer]));
  }

  /** Whether the user has answered any question of their organisation. */
  async hasAnswers(userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('profile_answers as a')
      .innerJoin('profile_questions as q', 'q.id', 'a.question_id')
      .select(sql<number>`1`.as('one'))
      .where('a.org_id', '=', this.scope.orgId)
      .where('a.user_id', '=', userId)
      .where((eb) => eb.or([eb('q.org_id', '=', this.scope.orgId), eb('q.org_id', 'is', null)]))
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Writes answers (null clears one). Run inside the caller's transaction to keep them together. */
  async saveAnswers(userId: number, answers: Array<{ questionId: number; answer: string | null }>): Promise<void> {
    const set = answers.filter((a): a is { questionId: number; answer: string } => a.answer !== null);
    const cleared = answers.filter((a) => a.answer === null).map((a) => a.questionId);
    if (set.length) {
      await this.db
        .insertInto('profile_answers')
        .values(set.map((a) => ({ org_id: this.scope.orgId, user_id: userId, question_id: a.questionId, answer: a.answer })))
        .onConflict((oc) => oc.columns(['user_id', 'question_id']).doUpdateSet((eb) => ({ answer: eb.ref('excluded.answer'), updated_at: sql`now()` })))
        .execute();
    }
    if (cleared.length) {
      await this.db
        .deleteFrom('profile_answers')
        .where('org_id', '=', this.scope.orgId)
        .where('user_id', '=', userId)
        .where('question_id', 'in', cleared)
        .execute();
    }
  }

  welcomeMessages(): Promise<WelcomeMessageRecord[]> {
    return this.db
      .selectFrom('welcome_messages')
      .selectAll()
      .where((eb) => eb.or([eb('org_id', '=', this.scope.orgId), eb('org_id', 'is', null)]))
      .orderBy('position')
      .orderBy('id')
      .execute();
  }
}
