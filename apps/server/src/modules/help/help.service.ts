import type { z } from 'zod';
import { FEATURES, translate, type AdminHelpArticle, type AssistantAnswer, type AssistantPage, type HelpArticle, type HelpArticleList, type HelpArticleSummary, type HelpContactBodySchema, type HelpContactSent, type Language } from '@healthbook/shared';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import type { SignedInContext } from '../../context';
import { FieldError, HttpError, notFound } from '../../lib/http-errors';
import { renderMail, recipientLanguage } from '../../lib/mail-templates';
import { servicePlugin } from '../../lib/service-plugin';
import { SharedCache, type MessageBus } from '../../lib/shared-cache';
import type { BackgroundMail, Mailer } from '../../plugins/mail';
import type { AuditLog } from '../audit/audit.service';
import type { FeaturesService } from '../features/features.service';
import type { AttemptLimiter } from '../limits/limits.service';
import type { OrganizationsService } from '../organizations/organizations.service';
import { HelpRepository, type HelpArticleRow, type HelpArticleWrite } from './help.repository';
import { HelpIndex } from './help.search';

/** One article as a reader of one language sees it. */
interface LocalArticle {
  slug: string;
  title: string;
  body: string;
  tags: string[];
  feature: string | null;
  own: boolean;
  updatedAt: Date;
}

/** An organisation's articles in one language, in order, with their search index. */
interface ArticleSet {
  bySlug: Map<string, LocalArticle>;
  ordered: LocalArticle[];
  index: HelpIndex;
}

/** Every product page the assistant may point to: a catalogue feature with a page and a description. */
const PAGE_KEYS = FEATURES.filter((f) => f.route !== null && !('superadminOnly' in f && f.superadminOnly) && f.available).map((f) => f.key as string);

/**
 * What the organisation's members see: its own articles replace every organisation's article of
 * the same slug (and a hidden one removes it), in position order; an article missing the
 * language falls back to English.
 */
export function resolveArticles(rows: HelpArticleRow[], lang: Language): LocalArticle[] {
  const chosen = new Map<string, HelpArticleRow>();
  for (const row of rows) {
    const current = chosen.get(row.slug);
    if (!current || (current.org_id === null && row.org_id !== null)) chosen.set(row.slug, row);
  }
  return [...chosen.values()]
    .filter((r) => !r.hidden)
    .sort((a, b) => a.position - b.position || a.id - b.id)
    .map((r) => ({
      slug: r.slug,
      title: (lang === 'el' && r.title_el) || r.title_en,
      body: (lang === 'el' && r.body_el) || r.body_en,
      tags: r.tags ?? [],
      feature: r.feature,
      own: r.org_id !== null,
      updatedAt: r.updated_at,
    }))
    .filter((a) => a.title && a.body);
}

/**
 * The first paragraph, cut at a word near 180 characters. A paragraph that introduces a list
 * ("… To book one:") loses that last sentence, which means nothing without the list.
 */
export function summaryOf(body: string): string {
  let first = (body.split(/\n\s*\n/)[0] ?? '').replace(/\s+/g, ' ').trim();
  if (first.endsWith(':')) {
    const end = Math.max(first.lastIndexOf('. ', first.length - 2), first.lastIndexOf('; ', first.length - 2));
    if (end > 0) first = first.slice(0, end + 1);
  }
  if (first.length <= 180) return first;
  const cut = first.slice(0, 180);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 120))}…`;
}

const presentSummary = (a: LocalArticle): HelpArticleSummary => ({
  slug: a.slug,
  title: a.title,
  summary: summaryOf(a.body),
  tags: a.tags,
  own: a.own,
  updated_at: a.updatedAt.toISOString(),
});

/** Scores below this share of the best article's are left out of the assistant's answer. */
const RELATIVE_CUTOFF = 0.25;

export class HelpService {
  private readonly sets: SharedCache<ArticleSet>;
  /** The product pages' index per language: built once from the catalogue and the shared catalogs. */
  private readonly pageIndexes = new Map<Language, HelpIndex>();

  constructor(
    private readonly db: Db,
    bus: MessageBus,
    private readonly features: FeaturesService,
    private readonly organizations: OrganizationsService,
    private readonly limiter: AttemptLimiter,
    private readonly mailer: Mailer,
    private readonly background: BackgroundMail,
    private readonly audit?: AuditLog,
  ) {
    // Keys are "orgId:lang"; a change of an organisation's articles forgets "orgId", of the defaults "*".
    this.sets = new SharedCache('help-articles', bus, 5 * 60_000);
  }

  private articles(orgId: number, lang: Language): Promise<ArticleSet> {
    return this.sets.get(`${orgId}:${lang}`, async () => {
      const ordered = resolveArticles(await new HelpRepository(this.db, orgScope(orgId)).rows(), lang);
      const index = new HelpIndex(
        lang,
        ordered.map((a) => ({ id: a.slug, title: a.title, text: a.body, tags: a.tags.join(' ') })),
      );
      return { bySlug: new Map(ordered.map((a) => [a.slug, a])), ordered, index };
    });
  }

  private pageIndex(lang: Language): HelpIndex {
    let index = this.pageIndexes.get(lang);
    if (!index) {
      index = new HelpIndex(
        lang,
        PAGE_KEYS.filter((key) => translate(lang, `helpPages:pages.${key}.text`) !== `helpPages:pages.${key}.text`).map((key) => ({
          id: key,
          title: translate(lang, `features:${key}`),
          text: translate(lang, `helpPages:pages.${key}.text`),
          tags: translate(lang, `helpPages:pages.${key}.keywords`),
        })),
      );
      this.pageIndexes.set(lang, index);
    }
    return index;
  }

  /** GET /help/articles/: every article, or the matches of `search` (best first). */
  async list(ctx: SignedInContext, search: string | undefined): Promise<HelpArticleList> {
    const set = await this.articles(ctx.actor.orgId, ctx.lang);
    const query = search?.trim() ?? '';
    if (!query) return { search: null, results: set.ordered.map(presentSummary) };
    const hits = set.index.query(query);
    return { search: query, results: hits.map((h) => set.bySlug.get(h.id)!).map(presentSummary) };
  }

  /** GET /help/articles/:slug/: one article (404 for another organisation's or a hidden one). */
  async get(ctx: SignedInContext, slug: string): Promise<HelpArticle> {
    const article = (await this.articles(ctx.actor.orgId, ctx.lang)).bySlug.get(slug);
    if (!article) throw notFound();
    let featureRoute: string | null = null;
    let featureName: string | null = null;
    if (article.feature) {
      const entry = (await this.features.list(ctx, ctx.actor.orgId)).find((f) => f.key === article.feature);
      if (entry?.feature_status === 'active' && entry.feature_route) {
        featureRoute = entry.feature_route;
        featureName = entry.display_name;
      }
    }
    return { ...presentSummary(article), body: article.body, feature: article.feature, feature_route: featureRoute, feature_name: featureName };
  }

  /**
   * GET /help/assistant/: the best articles and the organisation's active product pages for a
   * question. Search only: it never answers a question itself (and gives no medical advice).
   */
  async assistant(ctx: SignedInContext, question: string): Promise<AssistantAnswer> {
    const set = await this.articles(ctx.actor.orgId, ctx.lang);
    const hits = set.index.query(question);
    const best = hits[0]?.score ?? 0;
    const articles = hits
      .filter((h) => h.score >= best * RELATIVE_CUTOFF)
      .slice(0, 4)
      .map((h) => presentSummary(set.bySlug.get(h.id)!));

    const active = new Map((await this.features.list(ctx, ctx.actor.orgId)).filter((f) => f.feature_status === 'active' && f.feature_route).map((f) => [f.key, f]));
    const pageHits = this.pageIndex(ctx.lang)
      .query(question)
      .filter((h) => active.has(h.id));
    const bestPage = pageHits[0]?.score ?? 0;
    const pages: AssistantPage[] = pageHits
      .filter((h) => h.score >= bestPage * RELATIVE_CUTOFF)
      .slice(0, 3)
      .map((h) => {
        const entry = active.get(h.id)!;
        return { key: h.id, name: entry.display_name, description: translate(ctx.lang, `helpPages:pages.${h.id}.text`), route: entry.feature_route! };
      });
    return { query: question, matched: articles.length > 0 || pages.length > 0, articles, pages };
  }

  /**
   * POST /help/contact/: the member's message to the organisation's support address (reply-to:
   * the member), and a copy to the member. 409 without a support address; 429 after three in an
   * hour. The message's words are never logged.
   */
  async contact(ctx: SignedInContext, body: z.output<typeof HelpContactBodySchema>): Promise<HelpContactSent> {
    const org = await this.organizations.findById(ctx.actor.orgId);
    const supportEmail = org?.support_email?.trim();
    if (!org || !supportEmail) throw new HttpError(409, 'errors:helpNoSupportAddress');
    const attempt = await this.limiter.take('helpContact', String(ctx.actor.userId));
    if (!attempt.allowed) throw new HttpError(429, 'errors:helpContactTooOften', {}, { 'Retry-After': String(attempt.retryAfterS) });

    const user = ctx.actor.user;
    const name = `${user.first_name ?? ''} ${user.last_name ?? ''}`.trim() || user.email;
    const lang = ctx.lang;
    const vars = {
      orgName: org.org_name,
      name,
      email: user.email,
      subject: body.subject,
      message: body.message,
      category: translate(lang, `helpPages:categories.${body.category ?? 'other'}`),
      emergencyNumber: org.emergency_number,
    };
    try {
      await this.mailer.send({
        to: supportEmail,
        replyTo: user.email,
        subject: translate(lang, 'emails:helpContact.subject', vars),
        text: `${translate(lang, 'emails:helpContact.body', vars)}\n`,
      });
    } catch (err) {
      ctx.log.error({ err, userId: ctx.actor.userId }, 'help message could not be sent');
      throw new HttpError(503, 'errors:helpMailFailed', {}, { 'Retry-After': '60' });
    }
    const userLang = recipientLanguage((user as { settings?: unknown }).settings, lang);
    this.background.send(
      renderMail('helpContactReceived', userLang, user.email, { ...vars, name: user.first_name ?? '', category: translate(userLang, `helpPages:categories.${body.category ?? 'other'}`) }),
      { helpContact: ctx.actor.userId },
    );
    ctx.log.info({ userId: ctx.actor.userId, category: body.category ?? 'other' }, 'help message sent to support');
    return { detail: translate(lang, 'errors:helpContactSent'), sent_to: supportEmail };
  }

  /** Adds or changes an organisation's own article (null: every organisation's), seen by every process at once. */
  async saveArticle(orgId: number, article: HelpArticleWrite): Promise<void> {
    await new HelpRepository(this.db, orgScope(orgId)).save(article);
    await this.sets.invalidate(String(orgId));
  }

  // ---- Editors: organisation admins (their organisation) and super admins; the caller checks who ----

  /** Every article the organisation's members may see or that it hides: its own version where it has one, else the default. */
  async editorArticles(orgId: number): Promise<AdminHelpArticle[]> {
    const rows = await new HelpRepository(this.db, orgScope(orgId)).rows();
    const defaults = new Set(rows.filter((r) => r.org_id === null).map((r) => r.slug));
    const chosen = new Map<string, HelpArticleRow>();
    for (const row of rows) {
      const current = chosen.get(row.slug);
      if (!current || (current.org_id === null && row.org_id !== null)) chosen.set(row.slug, row);
    }
    return [...chosen.values()]
      .sort((a, b) => a.position - b.position || a.id - b.id)
      .map((r) => ({
        slug: r.slug,
        position: r.position,
        hidden: r.hidden,
        feature: r.feature,
        tags: r.tags ?? [],
        title_en: r.title_en,
        title_el: r.title_el,
        body_en: r.body_en,
        body_el: r.body_el,
        own: r.org_id !== null,
        has_default: defaults.has(r.slug),
        updated_at: new Date(r.updated_at).toISOString(),
      }));
  }

  /** PUT …/help/articles/{slug}/: the organisation's own version (audited; every process sees it at once). */
  async saveEditorArticle(ctx: SignedInContext, orgId: number, article: HelpArticleWrite): Promise<AdminHelpArticle> {
    if (article.feature && !FEATURES.some((f) => f.key === article.feature)) throw new FieldError({ feature: ['validation:helpFeatureUnknown'] });
    await this.saveArticle(orgId, article);
    await this.audit?.record(ctx, { action: 'help_article_save', outcome: 'success', orgId, detail: { slug: article.slug, hidden: article.hidden ?? false } });
    return (await this.editorArticles(orgId)).find((a) => a.slug === article.slug)!;
  }

  /** DELETE …/help/articles/{slug}/: the organisation's own version goes (a default one shows again); 404 without one. */
  async removeEditorArticle(ctx: SignedInContext, orgId: number, slug: string): Promise<void> {
    if (!(await new HelpRepository(this.db, orgScope(orgId)).remove(slug))) throw notFound();
    await this.sets.invalidate(String(orgId));
    await this.audit?.record(ctx, { action: 'help_article_remove', outcome: 'success', orgId, detail: { slug } });
  }

  /** Forgets every organisation's articles (after the defaults changed outside this service). */
  forgetAll(): Promise<void> {
    return this.sets.invalidate('*');
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    help: HelpService;
  }
}

export default servicePlugin('help', ['db', 'cache', 'features-service', 'organizations-service', 'limiter-service', 'mail', 'audit-service'], (app) =>
  new HelpService(app.db, app.bus, app.features, app.organizations, app.limiter, app.mailer, app.backgroundMail, app.audit),
);
