import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** Every route's zod schemas become the OpenAPI document (registered first, at the root, so it sees every route). */
export default fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'HealthBook API',
          description:
            'Personal health record API. Errors use Django-REST shapes: {"detail": "..."} or {"field": ["message"]}, localised by Accept-Language (en, el). ' +
            'Routes marked with bearerAuth need `Authorization: Bearer <access token>`; every other route is public.',
          version: '1.0.0',
        },
        components: {
          securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        },
      },
      transform: jsonSchemaTransform,
      transformObject: jsonSchemaTransformObject,
    });
  },
  { name: 'swagger' },
);

/** The browsable document at /api/docs (JSON at /api/docs/json): on by default, off in production unless API_DOCS=true. */
export const swaggerUiPlugin = fp(
  async (app) => {
    await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  },
  { name: 'swagger-ui', dependencies: ['swagger'] },
);
