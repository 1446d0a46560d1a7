import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DetailErrorSchema, FieldErrorsSchema, WizardSchema, WizardStepBodySchema } from '@healthbook/shared';

const errors = { 401: DetailErrorSchema, 403: DetailErrorSchema };

const STATUS_NOTES =
  'status: completed once every step is done (then wizard_complete stays true), else minimized when settings.isWizardMinimized (PUT /api/v1/me/), else pending. ' +
  'Steps in order: profile (names, date of birth and phone number), mfa (a confirmed second factor), profile_questions (any answer), health_record; each is also done once marked with POST.';

/** The first-run wizard of the signed-in user. */
export const wizardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/wizard/',
    {
      schema: {
        tags: ['wizard'],
        summary: 'Your first-run wizard: its steps and status',
        description: STATUS_NOTES,
        security: [{ bearerAuth: [] }],
        response: { 200: WizardSchema, ...errors },
      },
    },
    async (request) => app.wizard.get(request.signedIn()),
  );

  app.post(
    '/api/v1/wizard/',
    {
      schema: {
        tags: ['wizard'],
        summary: 'Mark a wizard step done',
        description: `{model_name}: profile, mfa, profile_questions or health_record. Answers the wizard. ${STATUS_NOTES}`,
        security: [{ bearerAuth: [] }],
        body: WizardStepBodySchema,
        response: { 200: WizardSchema, 400: FieldErrorsSchema.or(DetailErrorSchema), ...errors },
      },
    },
    async (request) => app.wizard.markDone(request.signedIn(), request.body.model_name),
  );
};

