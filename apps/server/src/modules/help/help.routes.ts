import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SignedInContext } from '../../context';
import { HttpError, notFound } from '../../lib/http-errors';
import { canManageOrganization } from '../features/features.policy';
import {
  AdminHelpArticleListSchema,
  AdminHelpArticleSchema,
  OrganizationHelpArticleParamsSchema,
  OrganizationIdOnlyParamsSchema,
  SaveHelpArticleBodySchema,
  AssistantAnswerSchema,
  AssistantQuerySchema,
  DetailErrorSchema,
  FieldErrorsSchema,
  HelpArticleListSchema,
  HelpArticleParamsSchema,
  HelpArticleSchema,
  HelpContactBodySchema,
  HelpContactSentSchema,
  ListHelpArticlesQuerySchema,
} from '@healthbook/shared';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema };
const security = [{ bearerAuth: [] }];
const LANGUAGE = 'Titles and texts in the request’s language (Accept-Language: en or el).';

/** The help area (feature help) and the assistant's search (feature assistant). */
export const helpRoutes: FastifyPluginAsyncZod = async (app) => {
  const help = { feature: 'help' };
  const tags = ['help'];
  app.get(
    '/api/v1/help/articles/',
    {
      config: help,
      schema: {
        tags,
        security,
        summary: 'Help articles of your organisation, or those matching ?search=',
        description: `Every organisation's articles and your organisation's own, in order; with search, the matches best first (stemming in English and Greek, prefixes, small typos). ${LANGUAGE}`,
        querystring: ListHelpArticlesQuerySchema,
        response: { 200: HelpArticleListSchema, ...errors },
      },
    },
    async (request) => app.help.list(request.signedIn(), request.query.search),
  );
  app.get(
    '/api/v1/help/articles/:slug/',
    {
      config: help,
      schema: {
        tags,
        security,
        summary: 'One help article',
        description: `404 for an article your organisation does not have. feature_route: the page of the feature the article is about, while it is active. ${LANGUAGE}`,
        params: HelpArticleParamsSchema,
        response: { 200: HelpArticleSchema, ...errors, 404: DetailErrorSchema },
      },
    },
    async (request) => app.help.get(request.signedIn(), request.params.slug),
  );
  app.post(
    '/api/v1/help/contact/',
    {
      config: help,
      schema: {
        tags,
        security,
        summary: "Write to your organisation's support",
        description:
          "E-mails the message to the organisation's support address (reply-to: your address) and a copy to you. 409 when the organisation has no support address; 429 (Retry-After) after 3 messages in an hour; 503 when the mail could not be sent. The message is not stored.",
        body: HelpContactBodySchema,
        response: { 200: HelpContactSentSchema, ...errors, 409: DetailErrorSchema, 429: DetailErrorSchema, 503: DetailErrorSchema },
      },
    },
    async (request) => app.help.contact(request.signedIn(), request.body),
  );
  app.get(
    '/api/v1/help/assistant/',
    {
      config: { feature: 'assistant' },
      schema: {
        tags: ['assistant'],
        security,
        summary: 'The assistant: help articles and product pages for a question',
        description: `A search, never an answer: the best-matching articles and your organisation's active product pages (with their routes). matched false when nothing matched (offer the contact form and the live chat). It gives no medical advice. ${LANGUAGE}`,
        querystring: AssistantQuerySchema,
        response: { 200: AssistantAnswerSchema, ...errors },
      },
    },
    async (request) => app.help.assistant(request.signedIn(), request.query.q),
  );
};

/**
 * The organisation's articles for their editors: organisation admins (their organisation;
 * another answers 404) and super admins (any); anyone else 403. Not behind the help feature's
 * status: articles can be written before the help area is switched on.
 */
export const helpEditorRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['help'];
  const editorErrors = { ...errors, 404: DetailErrorSchema };
  const WHO = 'Organisation admins for their organisation (another: 404), super admins for any; anyone else 403.';
  const administered = async (ctx: SignedInContext, orgId: number) => {
    if (orgId !== ctx.actor.orgId && !ctx.actor.isSuperadmin) throw notFound();
    if (!(await app.organizations.findById(orgId))) throw notFound();
    if (!canManageOrganization(ctx.actor, orgId)) throw new HttpError(403, 'errors:permissionDenied');
  };

  app.get(
    '/api/v1/organizations/:id/help/articles/',
    {
      schema: {
        tags,
        security,
        summary: "The organisation's help articles, both languages (editors)",
        description: `Each slug once: the organisation's own version where it has one (own: true), else every organisation's default. ${WHO}`,
        params: OrganizationIdOnlyParamsSchema,
        response: { 200: AdminHelpArticleListSchema, ...editorErrors },
      },
    },
    async (request) => {
      await administered(request.signedIn(), request.params.id);
      return app.help.editorArticles(request.params.id);
    },
  );

  app.put(
    '/api/v1/organizations/:id/help/articles/:slug/',
    {
      schema: {
        tags,
        security,
        summary: "Write the organisation's own version of an article (editors)",
        description: `A new slug adds an article; a default one's slug replaces it for this organisation; hidden: true takes it away. Title and text in en and el are required unless hidden. Audited; every process sees it at once. ${WHO}`,
        params: OrganizationHelpArticleParamsSchema,
        body: SaveHelpArticleBodySchema,
        response: { 200: AdminHelpArticleSchema, ...editorErrors },
      },
    },
    async (request) => {
      const ctx = request.signedIn();
      await administered(ctx, request.params.id);
      return app.help.saveEditorArticle(ctx, request.params.id, { ...request.body, slug: request.params.slug });
    },
  );

  app.delete(
    '/api/v1/organizations/:id/help/articles/:slug/',
    {
      schema: {
        tags,
        security,
        summary: "Remove the organisation's own version of an article (editors)",
        description: `A default article of that slug shows again; 404 when the organisation has no version of its own. Audited. ${WHO}`,
        params: OrganizationHelpArticleParamsSchema,
        response: { 204: z.null(), ...editorErrors },
      },
    },
    async (request, reply) => {
      const ctx = request.signedIn();
      await administered(ctx, request.params.id);
      await app.help.removeEditorArticle(ctx, request.params.id, request.params.slug);
      return reply.code(204).send(null);
    },
  );
};
