import type { FastifyError, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DetailErrorSchema, FHIR_IMPORT_MAX_BYTES, FhirExportQuerySchema, FhirImportBodySchema, FhirImportResultSchema, FieldErrorsSchema } from '@healthbook/shared';
import { HttpError } from '../../lib/http-errors';
import { parseJsonBodiesInSlices } from '../../lib/json-in-slices';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema };
const tags = ['fhir'];
const security = [{ bearerAuth: [] }];
/** FHIR is a way into and out of the health records: the health-records feature's (off: 403). */
const config = { feature: 'health-records' };
const WHOSE = 'Acts on `?patient=` (the body\'s `patient` for an import; default: your own); a patient you may not open is 404.';
const MB = 1024 * 1024;
/** The import's body: the bundle (at most 20 MB) and the accepted keys. */
const IMPORT_BODY_LIMIT = FHIR_IMPORT_MAX_BYTES + MB;
const LIMIT_TEXT = `${FHIR_IMPORT_MAX_BYTES / MB} MB`;

const IDENTIFIERS =
  'Each record is one resource (condition: Condition; symptom, biometrics (vital-signs, LOINC + UCUM; blood pressure as systolic/diastolic components): Observation; medication, supplement: MedicationStatement; allergy: AllergyIntolerance; immunization: Immunization; lab: Observation laboratory; diagnostic: DiagnosticReport; medicalvisit: Encounter; surgery (category SNOMED 387713003), procedure: Procedure; familyhistory: FamilyMemberHistory; socialhistory, travelhistory (code SNOMED 420008001): Observation social-history), with identifier `urn:healthbook:record|<origin>/<record id>` (origin: the organisation and a hash of when it was made), meta.tag `urn:healthbook:category|<category>`, a private record labelled confidentiality R. Partial dates are FHIR partial dates ("2019", "2019-05"); "In the past" is the string variant where the element has one (onsetString, abatementString, occurrenceString, performedString); fields with no FHIR element travel as extensions `urn:healthbook:field:<field>`.';

/** FHIR R4 export (a collection Bundle) and import (a Bundle, previewed, then the chosen records added). */
export const fhirRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/fhir/export/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Your health record as a FHIR R4 Bundle (type collection)',
        description: `application/fhir+json: the Patient first, then one resource per record, each naming the patient. types: comma-separated categories (default all; an unknown one is 400). include_private=true: "for my eyes only" records too (the owner only; anyone else never gets them). ${IDENTIFIERS} ${WHOSE}`,
        querystring: FhirExportQuerySchema,
        response: { 200: z.looseObject({ resourceType: z.literal('Bundle'), type: z.literal('collection') }).describe('a FHIR R4 Bundle'), ...errors },
      },
    },
    async (request, reply) => {
      const { json, patient } = await app.fhir.export(request.signedIn(), request.query);
      // Named after the patient: in any script (RFC 6266 filename*), and in ASCII for old clients.
      const slug = (pattern: RegExp) =>
        `${patient.first_name} ${patient.last_name}`.trim().toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').replace(pattern, '-').replace(/^-+|-+$/g, '') || 'health-record';
      const ascii = slug(/[^a-z0-9]+/g);
      const full = slug(/[^\p{L}\p{N}]+/gu);
      // The bundle comes serialised from the service: Fastify passes the text through.
      return (reply as FastifyReply)
        .type('application/fhir+json; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .header('Content-Disposition', `attachment; filename="${ascii}-fhir.json"; filename*=UTF-8''${encodeURIComponent(`${full}-fhir.json`)}`)
        .send(json);
    },
  );

  // The import's body (up to 20 MB of JSON) is parsed in slices, not in one JSON.parse.
  await app.register(async (scoped) => {
    parseJsonBodiesInSlices(scoped);
    scoped.withTypeProvider<ZodTypeProvider>().post(
      '/api/v1/fhir/import/',
      {
        config,
        bodyLimit: IMPORT_BODY_LIMIT,
        // A body over the limit is a bad bundle like any other (400), said in the reader's language.
        errorHandler: (error: FastifyError) => {
          if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw new HttpError(400, 'errors:fhirBundleTooLarge', { limit: LIMIT_TEXT });
          throw error;
        },
        schema: {
          tags,
          security,
          summary: 'Import a FHIR R4 Bundle: a preview, then the chosen records',
          description: `Without \`accept\`: a preview, nothing written — each entry as it would be imported: new, duplicate (imported before, exported from this record, or the same values as a record you have), skipped (a resource type with no category, listed with why; a document Bundle's Composition, such as an International Patient Summary's, whose sections' entries import on their own), invalid (it breaks the category's rules, with why). With \`accept\` (the keys of the preview's items): those that are new are added, with their first version, audited; importing the same bundle again (even twice at once) adds nothing. A body that is not a Bundle, is over ${LIMIT_TEXT}, or holds a malformed resource is 400 naming what is wrong, and nothing is imported. Another system's MedicationRequest becomes a medication, a vital sign a biometric measure (converted to the stored unit). ${WHOSE}`,
          body: FhirImportBodySchema,
          response: { 200: FhirImportResultSchema, ...errors },
        },
      },
      async (request) => {
        // The bundle itself is at most the limit (the body may carry up to 1 MB of accepted keys besides).
        const length = Number(request.headers['content-length'] ?? NaN);
        if (!(length <= FHIR_IMPORT_MAX_BYTES) && Buffer.byteLength(JSON.stringify(request.body.bundle)) > FHIR_IMPORT_MAX_BYTES) {
          throw new HttpError(400, 'errors:fhirBundleTooLarge', { limit: LIMIT_TEXT });
        }
        return app.fhir.import(request.signedIn(), request.body);
      },
    );
  });
};
