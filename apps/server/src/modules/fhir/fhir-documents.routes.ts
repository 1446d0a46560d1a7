import type { FastifyError, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DetailErrorSchema, FHIR_CONVERT_MAX_BYTES, FhirConvertBodySchema, FhirConvertResultSchema, FieldErrorsSchema } from '@healthbook/shared';
import { HttpError } from '../../lib/http-errors';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema, 503: DetailErrorSchema };
const MB = 1024 * 1024;
const LIMIT_TEXT = `${FHIR_CONVERT_MAX_BYTES / MB} MB`;
/** The body: the document as a JSON string, whose escapes (an XML's quotes and line ends) add up to a quarter. */
const BODY_LIMIT = Math.ceil(FHIR_CONVERT_MAX_BYTES * 1.25) + MB;
const tooLarge = () => new HttpError(400, 'errors:ccdaTooLarge', { limit: LIMIT_TEXT });

/** Documents a patient has (a C-CDA), converted to a FHIR Bundle for the FHIR import's preview and accept. */
export const fhirDocumentsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/v1/fhir/convert/',
    {
      // A way into the health records, as the import is.
      config: { feature: 'health-records' },
      bodyLimit: BODY_LIMIT,
      // A document over the limit is a bad document like any other (400), said in the reader's language.
      errorHandler: (error: FastifyError) => {
        if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw tooLarge();
        throw error;
      },
      schema: {
        tags: ['fhir'],
        security: [{ bearerAuth: [] }],
        summary: 'Convert a C-CDA document to a FHIR R4 Bundle, for the import',
        description: `format ccda: an HL7 C-CDA (R2.1 or R1.1: a Continuity of Care Document, a MyChart or Blue Button download), as its XML text, at most ${LIMIT_TEXT}. Answers the FHIR R4 Bundle Medplum's converter makes of it (allergies, problems, medications, immunizations, results, vital signs, procedures, encounters, with the C-CDA's ids as identifiers), to send to POST /api/v1/fhir/import/ for its preview, then its accept; nothing is written. unconverted_sections: the titles of sections with entries the converter does not read. With keep_document=true (once the import is accepted) the original XML is kept in the Document Center as well, with a readable PDF copy of its sections' text (the document-center feature's; off: 403), both answered in kept_documents. Not XML, not a ClinicalDocument, or a document the converter cannot read: 400 saying which. Acts on the body's \`patient\` (default: your own); a patient you may not write into is 404.`,
        body: FhirConvertBodySchema,
        response: { 200: FhirConvertResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      if (Buffer.byteLength(request.body.document, 'utf8') > FHIR_CONVERT_MAX_BYTES) throw tooLarge();
      const json = await app.fhirDocuments.convert(request.signedIn(), request.body);
      // The answer comes serialised from the service (its Bundle as the worker wrote it): Fastify passes the text through.
      return (reply as FastifyReply).type('application/json; charset=utf-8').header('Cache-Control', 'no-store').send(json);
    },
  );
};
