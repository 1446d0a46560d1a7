import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DetailErrorSchema,
  FieldErrorsSchema,
  ProfileAnswersBodySchema,
  ProfileQuestionListSchema,
  UserIdParamsSchema,
  WelcomeMessageListSchema,
} from '@healthbook/shared';

const errors = { 401: DetailErrorSchema, 403: DetailErrorSchema };

/** Profile questions and answers, welcome messages: always the signed-in user's own. */
export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/users/profile_questions/',
    {
      schema: {
        tags: ['profile'],
        summary: 'The profile questions of your organisation, with your answers',
        description:
          'In the request language. question_type text, choice (answer is one of the option keys) or boolean (answer "true" or "false"); answer null when not answered.',
        security: [{ bearerAuth: [] }],
        response: { 200: ProfileQuestionListSchema, ...errors },
      },
    },
    async (request) => app.profile.questions(request.signedIn()),
  );

  app.post(
    '/api/v1/users/profile_answers/',
    {
      schema: {
        tags: ['profile'],
        summary: 'Save your answers to profile questions',
        description:
          '{"answers": {"<question id>": "<value>"}}. All are written or none: an unknown question or a value not among its options answers 400 ' +
          '{"answers.<id>": [...]}. An empty value clears that answer; questions not sent keep theirs. Answers the questions with your answers.',
        security: [{ bearerAuth: [] }],
        body: ProfileAnswersBodySchema,
        response: { 200: ProfileQuestionListSchema, 400: FieldErrorsSchema.or(DetailErrorSchema), ...errors },
      },
    },
    async (request) => app.profile.saveAnswers(request.signedIn(), request.body),
  );

  app.get(
    '/api/v1/users/get_welcome_messages/:id',
    {
      schema: {
        tags: ['profile'],
        summary: 'Your welcome messages',
        description: 'The messages of your organisation, in order and in the request language. {id} must be your own user id (else 404).',
        security: [{ bearerAuth: [] }],
        params: UserIdParamsSchema,
        response: { 200: WelcomeMessageListSchema, 400: FieldErrorsSchema, 404: DetailErrorSchema, ...errors },
      },
    },
    async (request) => app.profile.welcomeMessages(request.signedIn(), request.params.id),
  );
};

