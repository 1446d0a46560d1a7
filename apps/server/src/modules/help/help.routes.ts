import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
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
