import type { Selectable } from 'kysely';
import type { Db } from '../../db/client';
import type { HelpArticlesTable } from '../../db/schema';
import type { OrgScope } from '../../db/scope';

export type HelpArticleRow = Selectable<HelpArticlesTable>;

export interface HelpArticleWrite {
  slug: string;
  position?: number;
  hidden?: boolean;
  feature?: string | null;
  tags?: string[];
  title_en?: string;
  title_el?: string;
  body_en?: string;
  body_el?: string;
}

/** The help articles one organisation sees: every organisation's (org_id null) and its own. */
export class HelpRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: OrgScope,
  ) {}

  rows(): Promise<HelpArticleRow[]> {
    return this.db
      .selectFrom('help_articles')
      .selectAll()
      .where((eb) => eb.or([eb('org_id', '=', this.scope.orgId), eb('org_id', 'is', null)]))
      .orderBy('position')
      .orderBy('id')
      .execute();
  }

  /** Removes the organisation's own version of an article (a default one of that slug shows again); false when it had none. */
  async remove(slug: string): Promise<boolean> {
    const result = await this.db.deleteFrom('help_articles').where('org_id', '=', this.scope.orgId).where('slug', '=', slug).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Adds or changes the organisation's own article with this slug (hidden: hides the default one). */
  async save(article: HelpArticleWrite): Promise<void> {
    const { tags, ...rest } = article;
    const values = { ...rest, ...(tags ? { tags: JSON.stringify(tags) } : {}), org_id: this.scope.orgId, updated_at: new Date() };
    const updated = await this.db
      .updateTable('help_articles')
      .set(values)
      .where('org_id', '=', this.scope.orgId)
      .where('slug', '=', article.slug)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) await this.db.insertInto('help_articles').values(values).execute();
  }
}
