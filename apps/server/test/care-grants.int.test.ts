import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { APPLE_HEALTH_MEASURES, AREA_RULES, CATEGORY_KEYS, PATIENT_HEADER, reachesArea, translate, type PatientDataArea } from '@healthbook/shared';
import type { RouteEntry } from '../src/app';
import { useTestApp } from './build-app';
import { PNG_1X1, bearer, buildGrant, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';
import { pdfWords } from './pdf-text';
import { minimalRecord } from './record-samples';
import { buildCcda } from './ccda-samples';

/**
 * Every route honours the care network (issue 13). A table classifies EVERY authenticated route
 * of the app by what it does with a patient's data — read, write, chat, assessments — or why it
 * touches none (the actor's own account, an administrator's or a provider's work, reference
 * data). A route not in the table fails the first test by name, so a later route cannot miss
 * the rule. Each classified route is then called for one patient by seven actors:
 *   owner    the patient                          everything
 *   full     an active full grant                 everything but private records
 *   ro       an active read-only grant            reads; writes 403 readOnlyAccess, chat 403, assessments 403
 *   removed  a revoked grant                      404 on everything
 *   pending  an invitation not yet accepted       404
 *   foreign  another organisation's user, with a grant row forged in their organisation   404
 *   stranger a user of the same organisation, no grant                                     404
 * A refused attempt changes nothing (every row of every table with a patient_id, and the
 * patient's own row, fingerprinted before and after). Then: private records (and private journal
 * entries) stay invisible to the network on every read route family; a grant limited to
 * allergies sees allergies only; every access by someone other than the patient is audited.
 */

const t = useTestApp();

type Actor = 'owner' | 'full' | 'ro' | 'limited' | 'limitedRo' | 'removed' | 'pending' | 'foreign' | 'stranger';
const ACTORS: Actor[] = ['owner', 'full', 'ro', 'limited', 'limitedRo', 'removed', 'pending', 'foreign', 'stranger'];
/** The two grants limited to one category (allergies): full and read-only. */
const LIMITED: Partial<Record<Actor, { access: 'full' | 'read-only'; categories: string[] }>> = {
  limited: { access: 'full', categories: ['allergy'] },
  limitedRo: { access: 'read-only', categories: ['allergy'] },
};
/** What a route does with the patient's data (or why it does nothing with it). */
type Kind = 'read' | 'write' | 'chat' | 'assessments' | 'assessments-write' | 'own-account' | 'not-patient-data';

interface Req {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
  url: string;
  payload?: object | Buffer;
  headers?: Record<string, string>;
}
interface RouteCase {
  kind: Kind;
  /** The request for an actor (made fresh per call where the call consumes its target: a delete, a cancellation). */
  make?: (who: Actor) => Req | Promise<Req>;
  /** Why a route touches no patient's data (own-account, not-patient-data). */
  why?: string;
}

// ---- Fixtures, built once ----------------------------------------------------------------

interface Fixtures {
  orgId: number;
  patient: BuiltUser;
  patientId: number;
  users: Record<Actor | 'doctor' | 'coach', BuiltUser>;
  tokens: Record<string, string>;
  /** One public record of every category. */
  records: Record<string, number>;
  privateRecord: number;
  privateAttachment: number;
  publicAttachment: number;
  looseDocument: number;
  folder: number;
  event: number;
  journal: number;
  privateJournal: number;
  card: number;
  share: number;
  bookedSlot: number;
  conversation: number;
  fileMessage: number;
  surveyResult: number;
  source: number;
  connection: number;
  appleHealth: number;
}
let fx: Fixtures;

const PRIVATE_MARK = 'Zebrapox';
const LIMIT_MARK = 'Pollenwort';

function multipart(file: Buffer, fields: Record<string, string> = {}, filename = 'scan.png', contentType = 'image/png'): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----GrantMatrix${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`), file, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A request as an actor: the owner acts on their own record (no selection), everyone else names the patient with X-Patient-Id. */
function send(who: Actor | 'doctor', req: Req, select: 'header' | 'none' = who === 'owner' ? 'none' : 'header') {
  return t.app.inject({
    method: req.method,
    url: req.url,
    headers: { ...bearer(fx.tokens[who]!), 'accept-language': 'en', ...(select === 'header' ? { [PATIENT_HEADER.toLowerCase()]: String(fx.patientId) } : {}), ...req.headers },
    ...(req.payload !== undefined ? { payload: req.payload } : {}),
  });
}

/** As the owner, answering the JSON (expects 2xx). */
async function asOwner<T = { id: number }>(method: Req['method'], url: string, payload?: object, extra?: Partial<Req>): Promise<T> {
  const res = await send('owner', { method, url, ...(payload ? { payload } : {}), ...extra });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} -> ${res.statusCode} ${res.body}`);
  return (res.body ? res.json() : undefined) as T;
}

const newRecord = async (category: string, extra: object = {}) => (await asOwner('POST', `/api/v1/hr/${category}/`, { ...minimalRecord(category), ...extra })).id;
const newAttachment = async (recordId: number) => {
  const body = multipart(PNG_1X1);
  return (await asOwner('POST', `/api/v1/hr/${recordId}/attachment/`, undefined, body)).id;
};
const newDocument = async () => (await asOwner('POST', '/api/v1/documents/', undefined, multipart(PNG_1X1, {}, 'loose.png'))).id;
const newFolder = async () => (await asOwner('POST', '/api/v1/documents/folders/', { name: `Folder ${randomUUID().slice(0, 8)}` })).id;
const EVENT = { title: 'Physiotherapy', type: 'Excercise', start_time: '2026-12-03T16:00:00Z', end_time: '2026-12-03T17:00:00Z' };
const newEvent = async () => (await asOwner<{ event_id: number }>('POST', '/api/v1/calendar/events/', EVENT)).event_id;
const JOURNAL = { entry_date: '2026-11-20', title: 'A calm day', text: 'Walked.', mood: 4, private: false };
const newJournal = async (extra: object = {}) => (await asOwner('POST', '/api/v1/journal/', { ...JOURNAL, ...extra })).id;
const CARD = { insurer: 'Northwind Mutual', plan: 'Gold', member_number: 'NWM-1', holder_name: 'Pat Owner', holder_relationship: 'self', valid_from: '2026-01-01', valid_to: '2026-12-31' };
const newCard = async (withPhoto = false) => {
  const id = (await asOwner('POST', '/api/v1/insurance/', CARD)).id;
  if (withPhoto) await asOwner('POST', `/api/v1/insurance/${id}/front/`, undefined, multipart(PNG_1X1, {}, 'front.png'));
  return id;
};
/** A source of the organisation (its SMART endpoints nowhere: nothing here reaches them but a sync, which fails quietly). */
const newSource = async () =>
  (
    await t.db
      .insertInto('fhir_sources')
      .values({
        org_id: fx.orgId,
        name: `Source ${randomUUID().slice(0, 8)}`,
        fhir_base_url: 'http://127.0.0.1:9/fhir',
        client_id: 'matrix',
        client_secret_sealed: null,
        scopes: 'launch/patient patient/*.rs',
        smart_configuration: JSON.stringify({ authorization_endpoint: 'http://127.0.0.1:9/authorize', token_endpoint: 'http://127.0.0.1:9/token' }),
        created_by: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
/** A connection of the patient to a new source (each call its own). */
const newConnection = async () =>
  (
    await t.db
      .insertInto('source_connections')
      .values({ org_id: fx.orgId, patient_id: fx.patientId, source_id: await newSource(), source_patient_id: 'p1', access_token_sealed: 'sealed', status: 'up_to_date', created_by: fx.patient.id })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
/** An Apple Health import read and waiting (its clinical records and one reading), as the reading job leaves it. */
const newAppleHealthImport = async () =>
  (
    await t.db
      .insertInto('apple_health_imports')
      .values({
        org_id: fx.orgId,
        patient_id: fx.patientId,
        created_by: fx.patient.id,
        file_name: 'export.zip',
        thin: 'day',
        time_zone: 'UTC',
        status: 'ready',
        counts: JSON.stringify({
          measures: Object.fromEntries(APPLE_HEALTH_MEASURES.map((m) => [m, m === 'weight' ? { read: 1, kept: 1, refused: 0, from: '2026-01-01', to: '2026-01-01' } : { read: 0, kept: 0, refused: 0, from: null, to: null }])),
          clinical: { read: 0, failed: 0 },
          problems: [],
        }),
        clinical: JSON.stringify({ resourceType: 'Bundle', type: 'collection', entry: [] }),
        measurements: JSON.stringify([['weight', 70, null, '2026-01-01', '2026-01-01T08:00:00.000Z']]),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
const newShare = async () => (await asOwner('POST', '/api/v1/sharing/', { recipient_name: 'Dr Grey', recipient_email: 'grey@clinic.example', categories: ['condition'] })).id;
/** A free slot of the doctor, an hour long, some days ahead (each call its own). */
let slotDay = 0;
async function newSlot(): Promise<number> {
  slotDay++;
  const start = new Date(Date.now() + (2 + slotDay) * 86_400_000);
  start.setUTCHours(9, 0, 0, 0);
  const row = await t.db
    .insertInto('availability_slots')
    .values({ org_id: fx.orgId, provider_id: fx.users.doctor.id, start_time: start, end_time: new Date(start.getTime() + 3_600_000) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
const newBooking = async () => {
  const slot = await newSlot();
  await asOwner('POST', '/api/v1/provider/book_appointment/', { provider_id: fx.users.doctor.id, availability_det_id: slot, reason_for_visit: 'Check-up' });
  return slot;
};

beforeAll(async () => {
  const org = await buildOrganization(t.app, { name: 'grants-org' });
  const other = await buildOrganization(t.app, { name: 'grants-other' });
  const patient = await buildUser(t.app, { org, first_name: 'Pat', last_name: 'Owner', dob: '1950-03-04' });
  const users = {
    owner: patient,
    full: await buildUser(t.app, { org, first_name: 'Fay', last_name: 'Full' }),
    ro: await buildUser(t.app, { org, first_name: 'Rob', last_name: 'Reader' }),
    removed: await buildUser(t.app, { org, first_name: 'Rex', last_name: 'Removed' }),
    pending: await buildUser(t.app, { org, first_name: 'Pia', last_name: 'Pending' }),
    stranger: await buildUser(t.app, { org, first_name: 'Sam', last_name: 'Stranger' }),
    foreign: await buildUser(t.app, { org: other, first_name: 'Fred', last_name: 'Foreign' }),
    limited: await buildUser(t.app, { org, first_name: 'Lia', last_name: 'Limited' }),
    limitedRo: await buildUser(t.app, { org, first_name: 'Lou', last_name: 'Limited-Reader' }),
    doctor: await buildUser(t.app, { org, first_name: 'Anna', last_name: 'Doctor', roles: ['professional', 'provider'] }),
    coach: await buildUser(t.app, { org, first_name: 'Cole', last_name: 'Coach', roles: ['professional', 'coach'] }),
  };
  const patientRow = await t.db.selectFrom('patients').select(['id', 'org_id']).where('user_id', '=', patient.id).executeTakeFirstOrThrow();
  await buildGrant(t.app, { patient: patientRow, grantee: users.full, access: 'full' });
  await buildGrant(t.app, { patient: patientRow, grantee: users.ro, access: 'read-only' });
  await buildGrant(t.app, { patient: patientRow, grantee: users.removed, access: 'full', status: 'revoked' });
  await buildGrant(t.app, { patient: patientRow, grantee: users.pending, access: 'full', status: 'pending' });
  // Forged: a row of the other organisation naming this organisation's patient.
  await buildGrant(t.app, { patient: patientRow, grantee: users.foreign, access: 'full', org_id: other.id });
  await buildGrant(t.app, { patient: patientRow, grantee: users.limited, access: 'full', categories: ['allergy'] });
  await buildGrant(t.app, { patient: patientRow, grantee: users.limitedRo, access: 'read-only', categories: ['allergy'] });

  const tokens: Record<string, string> = {};
  for (const [name, user] of Object.entries(users)) tokens[name] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
  fx = { orgId: org.id, patient, patientId: patientRow.id, users, tokens } as Fixtures;

  const profile = await send('doctor', { method: 'PUT', url: '/api/v1/provider/me/profile/', payload: { speciality: 'General practice', credentials: 'MD', languages: ['English'], biography: 'GP.' } }, 'none');
  if (profile.statusCode !== 200) throw new Error(profile.body);
  fx.records = {};
  for (const category of CATEGORY_KEYS) fx.records[category] = await newRecord(category);
  fx.privateRecord = await newRecord('condition', { name: PRIVATE_MARK, private: true });
  fx.privateAttachment = await newAttachment(fx.privateRecord);
  fx.publicAttachment = await newAttachment(fx.records.condition!);
  fx.looseDocument = await newDocument();
  fx.folder = await newFolder();
  fx.event = await newEvent();
  fx.journal = await newJournal();
  fx.privateJournal = await newJournal({ title: PRIVATE_MARK, private: true });
  fx.card = await newCard(true);
  fx.share = await newShare();
  fx.source = await newSource();
  fx.connection = await newConnection();
  fx.appleHealth = await newAppleHealthImport();
  fx.bookedSlot = await newBooking();
  // An ended chat with a file the coach sent (the patient's side may read and save it).
  const conversation = await t.db
    .insertInto('chat_conversations')
    .values({ org_id: org.id, patient_id: patientRow.id, patient_user_id: patient.id, provider_user_id: users.coach.id, provider_type: 'coach', reason: 'stress', status: 'ended', ended_at: new Date() })
    .returning('id')
    .executeTakeFirstOrThrow();
  fx.conversation = conversation.id;
  await t.app.storage.put(`chat/grant-matrix-${conversation.id}.png`, PNG_1X1);
  const message = await t.db
    .insertInto('chat_messages')
    .values({ conversation_id: conversation.id, sender_user_id: users.coach.id, sender_name: 'Cole Coach', sender_role: 'staff', kind: 'file', body: '', content_type: 'image/png', file_key: `chat/grant-matrix-${conversation.id}.png`, file_name: 'plan.png', file_size: PNG_1X1.length })
    .returning('id')
    .executeTakeFirstOrThrow();
  fx.fileMessage = message.id;
  fx.surveyResult = (await asOwner('POST', '/api/v1/surveys/gad-7/responses/', { attempt_id: randomUUID(), answers: zeros(7) })).id;
});

const zeros = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`q${i + 1}`, 0]));
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

// ---- The table ---------------------------------------------------------------------------

const get = (url: string) => (): Req => ({ method: 'GET', url });
const json = (method: Req['method'], url: string | (() => string), payload?: object | (() => object)) => (): Req => ({
  method,
  url: typeof url === 'function' ? url() : url,
  ...(payload ? { payload: typeof payload === 'function' ? payload() : payload } : {}),
});
const fresh = (method: Req['method'], make: () => Promise<string>, payload?: object) => async (): Promise<Req> => ({ method, url: await make(), ...(payload ? { payload } : {}) });
const upload = (url: () => string, fields: Record<string, string> = {}) => (): Req => ({ method: 'POST', url: url(), ...multipart(PNG_1X1, fields) });

const own = (why: string): RouteCase => ({ kind: 'own-account', why });
const none = (why: string): RouteCase => ({ kind: 'not-patient-data', why });

function recordRoutes(): Record<string, RouteCase> {
  const table: Record<string, RouteCase> = {};
  // Generated from the category declarations: a new category is covered without a line here.
  for (const c of CATEGORY_KEYS) {
    const base = `/api/v1/hr/${c}/`;
    table[`GET ${base}`] = { kind: 'read', make: get(`${base}?page_size=100`) };
    table[`POST ${base}`] = { kind: 'write', make: json('POST', base, minimalRecord(c)) };
    table[`OPTIONS ${base}`] = none("the category's fields and choices (its declaration)");
    table[`GET ${base}:id/`] = { kind: 'read', make: json('GET', () => `${base}${fx.records[c]}/`) };
    table[`PUT ${base}:id/`] = { kind: 'write', make: json('PUT', () => `${base}${fx.records[c]}/`, minimalRecord(c)) };
    table[`PATCH ${base}:id/`] = { kind: 'write', make: json('PATCH', () => `${base}${fx.records[c]}/`, minimalRecord(c)) };
    table[`DELETE ${base}:id/`] = { kind: 'write', make: fresh('DELETE', async () => `${base}${await newRecord(c)}/`) };
    table[`GET ${base}:id/history/`] = { kind: 'read', make: json('GET', () => `${base}${fx.records[c]}/history/`) };
  }
  return table;
}

function routeTable(): Record<string, RouteCase> {
  return {
    // The actor's own account, whatever patient is selected.
    'POST /api/v1/verify/': own('finishing a sign-in'),
    'POST /api/v1/me/reauth_code/': own('the account’s re-authentication code'),
    'POST /api/v1/mfa/register/hotp/': own('the account’s second factor'),
    'POST /api/v1/mfa/register/totp/': own('the account’s second factor'),
    'DELETE /api/v1/mfa/:uuid': own('the account’s second factor'),
    'GET /api/v1/me/': own('the account'),
    'PUT /api/v1/me/': own('the account'),
    'PUT /api/v1/me/password/': own('the account'),
    'POST /api/v1/me/email/': own('the account'),
    'GET /api/v1/me/closing/': own('closing the account (its own data and sole dependants)'),
    'POST /api/v1/me/closing/': own('closing the account (its own data and sole dependants)'),
    'GET /api/v1/account_closings/': none('an administrator’s list of pending closings'),
    'GET /api/v1/users/:id': own('the account (only one’s own id answers)'),
    'PUT /api/v1/users/:id': own('the account (only one’s own id answers)'),
    'POST /api/v1/users/avatar/': own('the account’s avatar'),
    'DELETE /api/v1/users/avatar/': own('the account’s avatar'),
    'GET /api/v1/users/profile_questions/': own('the account’s profile questionnaire'),
    'POST /api/v1/users/profile_answers/': own('the account’s profile questionnaire'),
    'GET /api/v1/users/get_welcome_messages/:id': own('the account’s welcome messages'),
    'GET /api/v1/wizard/': own('the account’s first-run wizard'),
    'POST /api/v1/wizard/': own('the account’s first-run wizard'),
    'GET /api/v1/patients/': own('the patients the account may open (own first, then granted)'),
    'GET /api/v1/calendar/feed/': own('the account’s private calendar feed (its own record only)'),
    'POST /api/v1/calendar/feed/': own('the account’s private calendar feed (its own record only)'),
    'DELETE /api/v1/calendar/feed/': own('the account’s private calendar feed (its own record only)'),
    'GET /api/v1/hr/export/:token/': own('an export file: only the account that made it opens it'),
    'GET /api/v1/hr/export/:token/status/': own('an export\'s state: only the account that asked for it sees it'),
    'POST /api/v1/chat/ticket/': own('a socket ticket of the session (the socket checks the grant as the routes do)'),
    'GET /api/v1/connection-hub/links/': own('the account’s linked accounts'),
    'POST /api/v1/connection-hub/links/': own('linking another account of the same person'),
    'POST /api/v1/connection-hub/links/:id/switch/': own('a single-use token to the linked account'),
    'POST /api/v1/connection-hub/links/:id/copy/': own('copying between the two accounts’ own records (each side acts as itself; the viewed patient is ignored)'),
    'DELETE /api/v1/connection-hub/links/:id/': own('unlinking'),
    // The care network: the record's own holder manages who is let in; the person let in accepts,
    // declines and leaves as themselves. (What the people let in may do is this matrix's subject.)
    'GET /api/v1/care-network/': own('the people let into the account’s own record'),
    'POST /api/v1/care-network/': own('inviting someone into the account’s own record (the holder only)'),
    'PATCH /api/v1/care-network/:id/': own('changing what someone may do in the account’s own record'),
    'DELETE /api/v1/care-network/:id/': own('removing someone from the account’s own record'),
    'POST /api/v1/care-network/:id/resend/': own('sending an invitation again'),
    'GET /api/v1/care-network/access-log/': own('who saw the account’s own record'),
    'GET /api/v1/care-network/caring-for/': own('the records the account was let into'),
    'DELETE /api/v1/care-network/caring-for/:patientId/': own('leaving a record the account was let into'),
    'POST /api/v1/care-network/invitations/accept/': own('accepting an invitation to the account’s own address'),
    'POST /api/v1/care-network/invitations/decline/': own('declining an invitation to the account’s own address'),
    // Family members: the dependants the account manages (their records are reached like any
    // granted record, through the routes above, with the dependant's grant).
    'GET /api/v1/family-members/': own('the family members the account manages'),
    'POST /api/v1/family-members/': own('adding a family member the account manages'),
    'PATCH /api/v1/family-members/:id/': own('a managed family member’s names (their manager only)'),
    'DELETE /api/v1/family-members/:id/': own('removing a managed family member (their manager only)'),
    'POST /api/v1/family-members/:id/invite/': own('giving a managed family member an account of their own'),
    // Administrators', operators', providers' and coaches' work, and reference data.
    'POST /api/v1/admin/invitations/': none('administrators'),
    'GET /api/v1/admin/invitations/': none('administrators'),
    'POST /api/v1/features/get-features/': none('the organisation’s features'),
    'GET /api/v1/features/': none('administrators'),
    'PUT /api/v1/features/:id/': none('administrators'),
    'POST /api/v1/operationsdashboard/save_operations/': none('operators'),
    'GET /api/v1/operationsdashboard/summary/': none('operators'),
    'GET /api/v1/operationsdashboard/export/': none('operators'),
    // The organisations (super admins) and their help articles (administrators): no patient's data.
    'GET /api/v1/admin/organizations/': none('super admins: the organisations'),
    'POST /api/v1/admin/organizations/': none('super admins: the organisations'),
    'GET /api/v1/admin/organizations/:id/': none('super admins: the organisations'),
    'PATCH /api/v1/admin/organizations/:id/': none('super admins: the organisations'),
    'POST /api/v1/admin/organizations/:id/deactivate/': none('super admins: the organisations'),
    'POST /api/v1/admin/organizations/:id/reactivate/': none('super admins: the organisations'),
    'PUT /api/v1/admin/organizations/:id/:asset/': none('super admins: an organisation’s logo and favicon'),
    'DELETE /api/v1/admin/organizations/:id/:asset/': none('super admins: an organisation’s logo and favicon'),
    'GET /api/v1/organizations/:id/help/articles/': none('administrators: the help articles'),
    'PUT /api/v1/organizations/:id/help/articles/:slug/': none('administrators: the help articles'),
    'DELETE /api/v1/organizations/:id/help/articles/:slug/': none('administrators: the help articles'),
    // The people of an organisation (administrators): accounts, roles, invitations; never a record.
    'GET /api/v1/admin/people/': none('administrators: the accounts'),
    'POST /api/v1/admin/people/staff/': none('administrators: inviting staff'),
    'PUT /api/v1/admin/people/:id/roles/': none('administrators: an account’s roles'),
    'POST /api/v1/admin/people/:id/deactivate/': none('administrators: an account’s status'),
    'POST /api/v1/admin/people/:id/reactivate/': none('administrators: an account’s status'),
    'POST /api/v1/admin/people/:id/unlock/': none('administrators: an account’s sign-in'),
    'POST /api/v1/admin/people/:id/resend-invitation/': none('administrators: an invitation'),
    'POST /api/v1/admin/people/:id/reset-mfa/': none('administrators: an account’s second factor'),
    'POST /api/v1/admin/people/invitations/:id/resend/': none('administrators: an invitation'),
    'POST /api/v1/admin/patient-imports/': none('administrators: patients invited in bulk'),
    'GET /api/v1/admin/patient-imports/:id/': none('administrators: patients invited in bulk'),
    'POST /api/v1/admin/patient-imports/:id/send/': none('administrators: patients invited in bulk'),
    'PUT /api/v1/organizations/:id/settings/': none('administrators'),
    'GET /api/v1/organizations/:id/surveys/:survey/': none('administrators: an organisation’s survey definition'),
    'PUT /api/v1/organizations/:id/surveys/:survey/': none('administrators: an organisation’s survey definition'),
    'GET /api/v1/provider/specialities/': none('the directory'),
    'GET /api/v1/provider/list/': none('the directory'),
    'GET /api/v1/provider/:id/': none('the directory'),
    'GET /api/v1/provider/:id/availability/': none('a provider’s free slots'),
    'GET /api/v1/provider/me/schedule/': none('providers'),
    'PUT /api/v1/provider/me/schedule/': none('providers'),
    'GET /api/v1/provider/me/profile/': none('providers'),
    'PUT /api/v1/provider/me/profile/': none('providers'),
    'GET /api/v1/provider/me/appointments/': none('providers (their own bookings, audited)'),
    'GET /api/v1/peercoaching/providertypereasons/': none('reference data'),
    'GET /api/v1/chat/queue/': none('staff'),
    'POST /api/v1/chat/queue/take/': none('staff'),
    'GET /api/v1/surveys/:survey/': none('a survey’s questions'),
    'GET /api/v1/help/articles/': none('help'),
    'GET /api/v1/help/articles/:slug/': none('help'),
    'POST /api/v1/help/contact/': none('help (a message to the organisation)'),
    'GET /api/v1/help/assistant/': none('help'),
    'GET /api/v1/symptom-checker/complaints/': none('reference data'),
    'POST /api/v1/symptom-checker/assess/': none('an assessment of answers, nothing stored'),

    // Health records
    'GET /api/v1/patients/:id': { kind: 'read', make: json('GET', () => `/api/v1/patients/${fx.patientId}`) },
    'GET /api/v1/hr/summary/': { kind: 'read', make: get('/api/v1/hr/summary/') },
    ...recordRoutes(),
    'POST /api/v1/hr/:id/attachment/': { kind: 'write', make: upload(() => `/api/v1/hr/${fx.records.condition}/attachment/`) },
    'DELETE /api/v1/hr/attachment/:id': { kind: 'write', make: fresh('DELETE', async () => `/api/v1/hr/attachment/${await newAttachment(fx.records.condition!)}`) },
    'POST /api/v1/symptom-checker/save/': {
      kind: 'write',
      make: json('POST', '/api/v1/symptom-checker/save/', { input: { age: 40, sex: 'female', complaint: 'cold', duration: '1-3-days', severity: 'mild', red_flags: [] } }),
    },
    // Documents
    'POST /api/v1/documents/': { kind: 'write', make: upload(() => '/api/v1/documents/') },
    'GET /api/v1/documents/': { kind: 'read', make: get('/api/v1/documents/') },
    'GET /api/v1/documents/folders/': { kind: 'read', make: get('/api/v1/documents/folders/') },
    'POST /api/v1/documents/folders/': { kind: 'write', make: () => json('POST', '/api/v1/documents/folders/', { name: `F ${randomUUID().slice(0, 8)}` })() },
    'PATCH /api/v1/documents/folders/:id/': { kind: 'write', make: () => json('PATCH', `/api/v1/documents/folders/${fx.folder}/`, { name: `F ${randomUUID().slice(0, 8)}` })() },
    'DELETE /api/v1/documents/folders/:id/': { kind: 'write', make: fresh('DELETE', async () => `/api/v1/documents/folders/${await newFolder()}/`) },
    'GET /api/v1/documents/:id/': { kind: 'read', make: json('GET', () => `/api/v1/documents/${fx.looseDocument}/`) },
    'PATCH /api/v1/documents/:id/': { kind: 'write', make: () => json('PATCH', `/api/v1/documents/${fx.looseDocument}/`, { file_name: `n-${randomUUID().slice(0, 6)}.png` })() },
    'DELETE /api/v1/documents/:id/': { kind: 'write', make: fresh('DELETE', async () => `/api/v1/documents/${await newDocument()}/`) },
    'GET /api/v1/documents/:id/file/': { kind: 'read', make: json('GET', () => `/api/v1/documents/${fx.looseDocument}/file/`) },
    // Insurance
    'POST /api/v1/insurance/:id/:side/': { kind: 'write', make: upload(() => `/api/v1/insurance/${fx.card}/back/`) },
    'GET /api/v1/insurance/': { kind: 'read', make: get('/api/v1/insurance/') },
    'POST /api/v1/insurance/': { kind: 'write', make: json('POST', '/api/v1/insurance/', CARD) },
    'GET /api/v1/insurance/:id/': { kind: 'read', make: json('GET', () => `/api/v1/insurance/${fx.card}/`) },
    'PATCH /api/v1/insurance/:id/': { kind: 'write', make: json('PATCH', () => `/api/v1/insurance/${fx.card}/`, { plan: 'Silver' }) },
    'DELETE /api/v1/insurance/:id/': { kind: 'write', make: fresh('DELETE', async () => `/api/v1/insurance/${await newCard()}/`) },
    'GET /api/v1/insurance/:id/:side/': { kind: 'read', make: json('GET', () => `/api/v1/insurance/${fx.card}/front/`) },
    'DELETE /api/v1/insurance/:id/:side/': { kind: 'write', make: fresh('DELETE', async () => `/api/v1/insurance/${await newCard(true)}/front/`) },
    // Calendar and appointments
    'GET /api/v1/calendar/events/': { kind: 'read', make: get('/api/v1/calendar/events/?start=2026-12-01&end=2026-12-31') },
    'POST /api/v1/calendar/events/': { kind: 'write', make: json('POST', '/api/v1/calendar/events/', EVENT) },
    'GET /api/v1/calendar/events/:event_id/': { kind: 'read', make: json('GET', () => `/api/v1/calendar/events/${fx.event}/`) },
    'PUT /api/v1/calendar/events/:event_id/': { kind: 'write', make: json('PUT', () => `/api/v1/calendar/events/${fx.event}/`, EVENT) },
    'DELETE /api/v1/calendar/events/:event_id/': { kind: 'write', make: fresh('DELETE', async () => `/api/v1/calendar/events/${await newEvent()}/`) },
    'POST /api/v1/provider/book_appointment/': {
      kind: 'write',
      make: async () => ({ method: 'POST', url: '/api/v1/provider/book_appointment/', payload: { provider_id: fx.users.doctor.id, availability_det_id: await newSlot(), reason_for_visit: 'Check-up' } }),
    },
    'POST /api/v1/provider/cancel_appointment/': {
      kind: 'write',
      make: async () => ({ method: 'POST', url: '/api/v1/provider/cancel_appointment/', payload: { provider_id: fx.users.doctor.id, availability_det_id: await newBooking(), cancellation_notes: 'Cannot come' } }),
    },
    'GET /api/v1/appointments/': { kind: 'read', make: get('/api/v1/appointments/') },
    'GET /api/v1/appointments/:availability_det_id/': { kind: 'read', make: json('GET', () => `/api/v1/appointments/${fx.bookedSlot}/`) },
    // Joining an appointment's video visit acts for the patient: full access only (read-only 403).
    'GET /api/v1/appointments/:availability_det_id/visit/': { kind: 'write', make: json('GET', () => `/api/v1/appointments/${fx.bookedSlot}/visit/`) },
    'POST /api/v1/appointments/:availability_det_id/visit/start/': none('the appointment’s provider only (their own bookings, audited on the patient’s trail)'),
    'POST /api/v1/appointments/:availability_det_id/visit/extend/': none('the appointment’s provider only (their own bookings, audited on the patient’s trail)'),
    // A ticket for the visit's socket: only inside its window (an appointment starting in five minutes).
    'POST /api/v1/appointments/:availability_det_id/visit/ticket/': {
      kind: 'write',
      make: async () => {
        const start = new Date(Date.now() + 5 * 60_000);
        const end = new Date(start.getTime() + 30 * 60_000);
        const slot = await t.db.insertInto('availability_slots').values({ org_id: fx.orgId, provider_id: fx.users.doctor.id, start_time: start, end_time: end }).returning('id').executeTakeFirstOrThrow();
        await t.db
          .insertInto('appointments')
          .values({ org_id: fx.orgId, patient_id: fx.patientId, provider_id: fx.users.doctor.id, slot_id: slot.id, start_time: start, end_time: end, reason_for_visit: 'Check-up', booked_by: fx.patient.id })
          .execute();
        return { method: 'POST', url: `/api/v1/appointments/${slot.id}/visit/ticket/` };
      },
    },
    // Either participant ends a started visit: each call its own appointment with a visit under way.
    'POST /api/v1/appointments/:availability_det_id/visit/end/': {
      kind: 'write',
      make: async () => {
        const slot = await newBooking();
        const a = await t.db.selectFrom('appointments').select(['id', 'org_id', 'patient_id', 'provider_id']).where('slot_id', '=', slot).where('status', '=', 'booked').executeTakeFirstOrThrow();
        await t.db.insertInto('visits').values({ org_id: a.org_id, appointment_id: a.id, patient_id: a.patient_id, provider_id: a.provider_id, status: 'active', admitted_at: new Date() }).execute();
        return { method: 'POST', url: `/api/v1/appointments/${slot}/visit/end/` };
      },
    },
    // The visit's note: the provider's narrow door (PatientsService.openVisitNote: that patient's medical visits only); the patient side 403, anyone else 404 (visit-note.int.test.ts).
    'GET /api/v1/appointments/:availability_det_id/visit/note/': none('the appointment’s provider only: the note they wrote in the patient’s medical visits (their own visit, audited on the patient’s trail)'),
    'POST /api/v1/appointments/:availability_det_id/visit/note/': none('the appointment’s provider only: one medical visit in the patient’s record per visit (their own visit, audited on the patient’s trail)'),
    // Sharing
    'POST /api/v1/sharing/': { kind: 'write', make: json('POST', '/api/v1/sharing/', { recipient_name: 'Dr Grey', recipient_email: 'grey@clinic.example', categories: ['condition'] }) },
    'GET /api/v1/sharing/': { kind: 'read', make: get('/api/v1/sharing/') },
    'GET /api/v1/sharing/:id/': { kind: 'read', make: json('GET', () => `/api/v1/sharing/${fx.share}/`) },
    'GET /api/v1/sharing/:id/accesses/': { kind: 'read', make: json('GET', () => `/api/v1/sharing/${fx.share}/accesses/`) },
    'POST /api/v1/sharing/:id/revoke/': { kind: 'write', make: fresh('POST', async () => `/api/v1/sharing/${await newShare()}/revoke/`, {}) },
    'POST /api/v1/sharing/:id/reissue/': { kind: 'write', make: json('POST', () => `/api/v1/sharing/${fx.share}/reissue/`, {}) },
    // Connected sources: the organisation's catalogue (administrators), a patient's connections.
    'GET /api/v1/admin/sources/': none('administrators: the organisation’s record sources'),
    'POST /api/v1/admin/sources/check/': none('administrators: a record source’s address checked'),
    'POST /api/v1/admin/sources/': none('administrators: the organisation’s record sources'),
    'PATCH /api/v1/admin/sources/:id/': none('administrators: the organisation’s record sources'),
    'DELETE /api/v1/admin/sources/:id/': none('administrators: the organisation’s record sources'),
    'GET /api/v1/sources/': { kind: 'read', make: get('/api/v1/sources/') },
    'POST /api/v1/sources/connect/': { kind: 'write', make: json('POST', '/api/v1/sources/connect/', () => ({ source_id: fx.source })) },
    'POST /api/v1/sources/callback/': own('the launch the user began, found by its single-use state; its patient is opened by the policy again'),
    'POST /api/v1/sources/connections/:id/sync/': { kind: 'write', make: json('POST', () => `/api/v1/sources/connections/${fx.connection}/sync/`) },
    'DELETE /api/v1/sources/connections/:id/': { kind: 'write', make: fresh('DELETE', async () => `/api/v1/sources/connections/${await newConnection()}/`) },
    // Export
    'POST /api/v1/hr/export/': { kind: 'read', make: json('POST', '/api/v1/hr/export/', { language: 'en', types: ['condition'] }) },
    'GET /api/v1/fhir/export/': { kind: 'read', make: get('/api/v1/fhir/export/') },
    'POST /api/v1/fhir/import/': {
      kind: 'write',
      make: async () => ({ method: 'POST', url: '/api/v1/fhir/import/', payload: { bundle: await asOwner<object>('GET', '/api/v1/fhir/export/?types=allergy&assessments=false') } }),
    },
    // A C-CDA converted for the import's preview (nothing written unless the original is kept).
    'POST /api/v1/fhir/convert/': { kind: 'write', make: json('POST', '/api/v1/fhir/convert/', () => ({ format: 'ccda', document: buildCcda() })) },
    // An Apple Health export: the upload (read in the background: awaited before the next), and the import that follows, a writer's throughout.
    'POST /api/v1/fhir/apple-health/': {
      kind: 'write',
      make: async () => {
        await t.app.appleHealth.idle();
        return { method: 'POST', url: '/api/v1/fhir/apple-health/', ...multipart(PNG_1X1, {}, 'export.zip', 'application/zip') };
      },
    },
    'GET /api/v1/fhir/apple-health/:id/': { kind: 'write', make: json('GET', () => `/api/v1/fhir/apple-health/${fx.appleHealth}/`) },
    'GET /api/v1/fhir/apple-health/:id/clinical/': { kind: 'write', make: json('GET', () => `/api/v1/fhir/apple-health/${fx.appleHealth}/clinical/`) },
    'POST /api/v1/fhir/apple-health/:id/measurements/': {
      kind: 'write',
      // The import it starts runs in the background: awaited before the next request, so that its records are not counted as another's change.
      make: fresh('POST', async () => {
        await t.app.appleHealth.idle();
        return `/api/v1/fhir/apple-health/${await newAppleHealthImport()}/measurements/`;
      }, { measures: ['weight'] }),
    },
    'DELETE /api/v1/fhir/apple-health/:id/': { kind: 'write', make: fresh('DELETE', async () => `/api/v1/fhir/apple-health/${await newAppleHealthImport()}/`) },
    // Chat
    'POST /api/v1/peercoaching/sendmessagetoqueue/': { kind: 'chat', make: json('POST', '/api/v1/peercoaching/sendmessagetoqueue/', { provider_type: 'coach', reason: 'stress' }) },
    'POST /api/v1/peercoaching/endchat/': {
      kind: 'chat',
      make: async () => {
        await asOwner('POST', '/api/v1/peercoaching/sendmessagetoqueue/', { provider_type: 'coach', reason: 'stress' });
        return { method: 'POST', url: '/api/v1/peercoaching/endchat/', payload: {} };
      },
    },
    'GET /api/v1/chat/current/': { kind: 'read', make: get('/api/v1/chat/current/') },
    'GET /api/v1/chat/conversations/': { kind: 'read', make: get('/api/v1/chat/conversations/') },
    'GET /api/v1/chat/conversations/:id/': { kind: 'read', make: json('GET', () => `/api/v1/chat/conversations/${fx.conversation}/`) },
    'GET /api/v1/chat/files/:id/': { kind: 'read', make: json('GET', () => `/api/v1/chat/files/${fx.fileMessage}/`) },
    'POST /api/v1/chat/files/:id/save/': { kind: 'write', make: json('POST', () => `/api/v1/chat/files/${fx.fileMessage}/save/`, {}) },
    // Assessments
    'GET /api/v1/surveys/': { kind: 'assessments', make: get('/api/v1/surveys/') },
    'GET /api/v1/surveys/responses/': { kind: 'assessments', make: get('/api/v1/surveys/responses/') },
    'GET /api/v1/surveys/responses/:id/': { kind: 'assessments', make: json('GET', () => `/api/v1/surveys/responses/${fx.surveyResult}/`) },
    'POST /api/v1/surveys/:survey/responses/': { kind: 'assessments-write', make: () => json('POST', '/api/v1/surveys/gad-7/responses/', { attempt_id: randomUUID(), answers: zeros(7) })() },
    // Journal
    'GET /api/v1/journal/': { kind: 'read', make: get('/api/v1/journal/') },
    'POST /api/v1/journal/': { kind: 'write', make: json('POST', '/api/v1/journal/', JOURNAL) },
    'GET /api/v1/journal/moods/': { kind: 'read', make: get(`/api/v1/journal/moods/?from=2026-01-01&to=${day(1)}`) },
    'GET /api/v1/journal/:id/': { kind: 'read', make: json('GET', () => `/api/v1/journal/${fx.journal}/`) },
    'PUT /api/v1/journal/:id/': { kind: 'write', make: json('PUT', () => `/api/v1/journal/${fx.journal}/`, JOURNAL) },
    'PATCH /api/v1/journal/:id/': { kind: 'write', make: json('PATCH', () => `/api/v1/journal/${fx.journal}/`, { mood: 3 }) },
    'DELETE /api/v1/journal/:id/': { kind: 'write', make: fresh('DELETE', async () => `/api/v1/journal/${await newJournal()}/`) },
  };
}

const key = (r: RouteEntry) => `${r.method} ${r.url}`;
const guardedRoutes = () => t.app.routeTable.filter((r) => !r.public && r.method !== 'HEAD');

// ---- "Nothing changed" -------------------------------------------------------------------

let digestQuery: ReturnType<typeof sql<{ t: string; d: string | null }>> | undefined;
/** Every row of every table that holds a patient's data (a patient_id column), and the patient's own row: one digest per table, one query. */
async function fingerprint(): Promise<string> {
  if (!digestQuery) {
    const tables = (
      await sql<{ table_name: string }>`select table_name from information_schema.columns where column_name = 'patient_id' and table_schema = current_schema() order by table_name`.execute(t.db)
    ).rows.map((r) => r.table_name);
    const parts = tables.map((table) => sql`select ${table} as t, md5(string_agg(x::text, '|' order by x::text)) as d from ${sql.table(table)} x where x.patient_id = ${fx.patientId}`);
    parts.push(sql`select 'patients' as t, md5(x::text) as d from patients x where x.id = ${fx.patientId}`);
    digestQuery = sql<{ t: string; d: string | null }>`${sql.join(parts, sql` union all `)}`;
  }
  const { rows } = await digestQuery.execute(t.db);
  return rows.map((r) => `${r.t}:${r.d ?? '-'}`).join(',');
}

// ---- The matrix --------------------------------------------------------------------------

const EN = (k: string) => translate('en', `errors:${k}`);

/**
 * Where a route reaches into the patient's data: its area (packages/shared patient-data.ts) and,
 * for records and documents, the category of what it targets ('none': a folder or a new document
 * on no record; 'loose': an existing document on no record; undefined: a list, which a limited
 * grant sees filtered).
 */
function placeOf(route: string): { area: PatientDataArea; target?: string; writesTo?: PatientDataArea } {
  const url = route.slice(route.indexOf(' ') + 1);
  const record = /^\/api\/v1\/hr\/([a-z]+)\/(:id\/)?/.exec(url);
  if (record && (CATEGORY_KEYS as readonly string[]).includes(record[1]!)) return { area: 'records', ...(record[2] || route.startsWith('POST') ? { target: record[1] } : {}) };
  if (url.startsWith('/api/v1/hr/:id/attachment/') || url.startsWith('/api/v1/hr/attachment/')) return { area: 'documents', target: 'condition' };
  if (url === '/api/v1/symptom-checker/save/') return { area: 'records', target: 'symptom' };
  if (url === '/api/v1/fhir/import/') return { area: 'records', target: 'allergy' };
  if (url.startsWith('/api/v1/hr/') || url.startsWith('/api/v1/fhir/')) return { area: 'records' };
  if (url.startsWith('/api/v1/documents/folders/')) return { area: 'documents', ...(route.startsWith('GET') ? {} : { target: 'none' }) };
  if (url === '/api/v1/documents/') return { area: 'documents', ...(route.startsWith('GET') ? {} : { target: 'none' }) };
  // The matrix's document by id is one on no record: not there for a limited grant.
  if (url.startsWith('/api/v1/documents/')) return { area: 'documents', target: 'loose' };
  if (url.startsWith('/api/v1/patients/')) return { area: 'profile' };
  if (url.startsWith('/api/v1/journal/')) return { area: 'journal' };
  if (url.startsWith('/api/v1/insurance/')) return { area: 'insurance' };
  if (url.startsWith('/api/v1/calendar/')) return { area: 'calendar' };
  if (url.startsWith('/api/v1/appointments/') || url.startsWith('/api/v1/provider/')) return { area: 'appointments' };
  // Saving a chat's file reads the chat and writes a document into the Document Center.
  if (url === '/api/v1/chat/files/:id/save/') return { area: 'chat', writesTo: 'documents' };
  if (url.startsWith('/api/v1/chat/') || url.startsWith('/api/v1/peercoaching/')) return { area: 'chat' };
  if (url.startsWith('/api/v1/surveys/')) return { area: 'assessments' };
  if (url.startsWith('/api/v1/sharing/')) return { area: 'shares' };
  if (url.startsWith('/api/v1/sources/')) return { area: 'connections' };
  throw new Error(`no area for ${route}: say where it reaches in placeOf`);
}

const isWrite = (kind: Kind) => kind === 'write' || kind === 'chat' || kind === 'assessments-write';

/**
 * The answer an actor must get from a route: a 2xx, or a refusal (status and the detail's key).
 * Derived from the same rules the policy applies (AREA_RULES), never restated here: someone not
 * let in gets 404; an area the grant does not reach, 403 with the area's reason; a write by a
 * reader, 403; a record or document of a category a limited grant does not reach, 404 (a folder
 * or a loose document's change, 403: not the grant's).
 */
function expected(route: string, kind: Kind, who: Actor): { ok: true } | { ok: false; status: number; detail?: string } {
  if (who === 'owner' || who === 'full') return { ok: true };
  const grant = who === 'ro' ? { access: 'read-only' as const, categories: null } : LIMITED[who];
  if (!grant) return { ok: false, status: 404 };
  const { area, target, writesTo } = placeOf(route);
  const rule = AREA_RULES[area];
  if (!reachesArea(grant, area)) return { ok: false, status: 403, detail: EN(rule.refusal) };
  if (isWrite(kind) && grant.access === 'read-only') return { ok: false, status: 403, detail: EN(AREA_RULES[writesTo ?? area].writeRefusal) };
  if (grant.categories && target !== undefined && !grant.categories.includes(target)) {
    return target === 'none' && isWrite(kind) ? { ok: false, status: 403, detail: EN('areaNotShared') } : { ok: false, status: 404 };
  }
  return { ok: true };
}

describe('the care-network grant matrix', () => {
  it('classifies every authenticated route of the app (a new route must say what it does with a patient’s data)', () => {
    const table = routeTable();
    const routes = guardedRoutes().map(key);
    const unclassified = routes.filter((r) => !(r in table));
    expect(unclassified, 'routes the grant matrix does not know: classify them in care-grants.int.test.ts').toEqual([]);
    const stale = Object.keys(table).filter((k) => !routes.includes(k));
    expect(stale, 'classified routes that are gone').toEqual([]);
    for (const [k, c] of Object.entries(table)) {
      if (c.kind === 'own-account' || c.kind === 'not-patient-data') expect(c.why, k).toBeTruthy();
      else expect(c.make, k).toBeDefined();
    }
  });

  it('owner, full, read-only, removed, pending, another organisation, a stranger: on every route that touches the patient’s data', { timeout: 180_000 }, async () => {
    const table = routeTable();
    const failures: string[] = [];
    let calls = 0;
    for (const route of guardedRoutes()) {
      const entry = table[key(route)];
      if (!entry?.make) continue;
      for (const who of ACTORS) {
        const req = await entry.make(who);
        const want = expected(key(route), entry.kind, who);
        const before = want.ok ? '' : await fingerprint();
        const res = await send(who, req);
        calls++;
        const label = `${key(route)} as ${who} (${entry.kind})`;
        if (want.ok) {
          if (res.statusCode < 200 || res.statusCode >= 300) failures.push(`${label}: ${res.statusCode} ${res.body.slice(0, 160)}`);
          continue;
        }
        if (res.statusCode !== want.status) failures.push(`${label}: expected ${want.status}, got ${res.statusCode} ${res.body.slice(0, 160)}`);
        else if (want.detail && res.json<{ detail: string }>().detail !== want.detail) failures.push(`${label}: detail ${res.body.slice(0, 160)}`);
        if ((await fingerprint()) !== before) failures.push(`${label}: refused, but the patient's data changed`);
      }
    }
    expect(failures).toEqual([]);
    expect(calls).toBeGreaterThan(1000);
  });

  it('?patient= selects as the header does: read-only reads, removed and strangers get 404', async () => {
    const lists = ['/api/v1/hr/condition/', '/api/v1/hr/summary/', '/api/v1/documents/', '/api/v1/calendar/events/?start=2026-12-01&end=2026-12-31', '/api/v1/appointments/', '/api/v1/journal/', '/api/v1/insurance/'];
    for (const url of lists) {
      const withPatient = `${url}${url.includes('?') ? '&' : '?'}patient=${fx.patientId}`;
      expect((await send('ro', { method: 'GET', url: withPatient }, 'none')).statusCode, url).toBe(200);
      for (const who of ['removed', 'pending', 'foreign', 'stranger'] as const) expect((await send(who, { method: 'GET', url: withPatient }, 'none')).statusCode, `${url} ${who}`).toBe(404);
    }
    // Without a selection, a carer reads their own record, never the patient's.
    const mine = (await send('ro', { method: 'GET', url: '/api/v1/hr/condition/' }, 'none')).json<{ count: number }>();
    expect(mine.count).toBe(0);
  });
});

// ---- Private records ---------------------------------------------------------------------

describe('private records are invisible to the care network on every route', () => {
  const network = ['full', 'ro'] as const;

  it('by id: the private record, its history and its attachment are not there (404), and cannot be changed', async () => {
    for (const who of network) {
      const calls: Req[] = [
        { method: 'GET', url: `/api/v1/hr/condition/${fx.privateRecord}/` },
        { method: 'GET', url: `/api/v1/hr/condition/${fx.privateRecord}/history/` },
        { method: 'GET', url: `/api/v1/documents/${fx.privateAttachment}/` },
        { method: 'GET', url: `/api/v1/documents/${fx.privateAttachment}/file/` },
      ];
      for (const req of calls) expect((await send(who, req)).statusCode, `${who} ${req.url}`).toBe(404);
    }
    const before = await fingerprint();
    for (const req of [
      { method: 'PATCH', url: `/api/v1/hr/condition/${fx.privateRecord}/`, payload: { name: 'Changed' } },
      { method: 'DELETE', url: `/api/v1/hr/condition/${fx.privateRecord}/` },
      { method: 'DELETE', url: `/api/v1/hr/attachment/${fx.privateAttachment}` },
      { method: 'PATCH', url: `/api/v1/documents/${fx.privateAttachment}/`, payload: { record: null } },
      { method: 'DELETE', url: `/api/v1/documents/${fx.privateAttachment}/` },
      { method: 'POST', url: `/api/v1/hr/${fx.privateRecord}/attachment/`, ...multipart(PNG_1X1) },
    ] as Req[]) {
      expect((await send('full', req)).statusCode, `full ${req.method} ${req.url}`).toBe(404);
    }
    // Attaching one of the patient's documents to the private record is refused too.
    expect((await send('full', { method: 'PATCH', url: `/api/v1/documents/${fx.looseDocument}/`, payload: { record: fx.privateRecord } })).statusCode).toBe(400);
    expect(await fingerprint()).toBe(before);
    // The owner still has it all.
    expect((await send('owner', { method: 'GET', url: `/api/v1/hr/condition/${fx.privateRecord}/` })).statusCode).toBe(200);
  });

  it('in lists, search, the summary, documents, the journal, exports (PDF and FHIR), sharing and calendar: absent', async () => {
    for (const who of network) {
      const list = await send(who, { method: 'GET', url: '/api/v1/hr/condition/?page_size=100' });
      expect(list.body, `${who} list`).not.toContain(PRIVATE_MARK);
      const search = await send(who, { method: 'GET', url: `/api/v1/hr/condition/?search=${PRIVATE_MARK}` });
      expect(search.json<{ count: number }>().count, `${who} search`).toBe(0);
      const summary = await send(who, { method: 'GET', url: '/api/v1/hr/summary/' });
      expect(summary.body, `${who} summary`).not.toContain(PRIVATE_MARK);
      expect(summary.json<{ recent: Array<{ id: number }> }>().recent.map((r) => r.id)).not.toContain(fx.privateRecord);
      const documents = await send(who, { method: 'GET', url: '/api/v1/documents/' });
      expect(documents.json<Array<{ id: number }>>().map((d) => d.id), `${who} documents`).not.toContain(fx.privateAttachment);
      const attached = await send(who, { method: 'GET', url: '/api/v1/documents/?attached=true' });
      expect(attached.json<Array<{ id: number }>>().map((d) => d.id), `${who} attached`).not.toContain(fx.privateAttachment);
      const journal = await send(who, { method: 'GET', url: '/api/v1/journal/' });
      expect(journal.body, `${who} journal`).not.toContain(PRIVATE_MARK);
      expect((await send(who, { method: 'GET', url: `/api/v1/journal/${fx.privateJournal}/` })).statusCode, `${who} private journal entry`).toBe(404);
      const calendar = await send(who, { method: 'GET', url: '/api/v1/calendar/events/?start=2026-11-01&end=2026-12-31' });
      expect(calendar.body, `${who} calendar`).not.toContain(PRIVATE_MARK);

      // FHIR, even when asked to include private records.
      const fhir = await send(who, { method: 'GET', url: '/api/v1/fhir/export/?include_private=true' });
      expect(fhir.statusCode).toBe(200);
      expect(fhir.body, `${who} FHIR`).not.toContain(PRIVATE_MARK);
      // The PDF, even when asked for private records, the very record, and the journal.
      const made = await send(who, { method: 'POST', url: '/api/v1/hr/export/', payload: { language: 'en', types: [...CATEGORY_KEYS], include_private: true, journal: true } });
      expect(made.statusCode, made.body).toBe(201);
      const pdf = await send(who, { method: 'GET', url: made.json<{ url: string }>().url });
      expect(pdf.statusCode).toBe(200);
      const words = pdfWords(pdf.rawPayload);
      expect(words).toContain(String(minimalRecord('condition').name));
      expect(words, `${who} PDF`).not.toContain(PRIVATE_MARK);
      const byId = await send(who, { method: 'POST', url: '/api/v1/hr/export/', payload: { language: 'en', record_ids: [fx.privateRecord], types: ['condition'] } });
      if (byId.statusCode === 201) expect(pdfWords((await send(who, { method: 'GET', url: byId.json<{ url: string }>().url })).rawPayload)).not.toContain(PRIVATE_MARK);
      else expect(byId.statusCode).toBe(400);
    }
    // Sharing it (full access may share) is refused: it is not there.
    const before = await fingerprint();
    const shareIt = await send('full', { method: 'POST', url: '/api/v1/sharing/', payload: { recipient_name: 'Dr Grey', recipient_email: 'grey@clinic.example', categories: [], record_ids: [fx.privateRecord] } });
    expect(shareIt.statusCode).toBe(400);
    const shareDoc = await send('full', { method: 'POST', url: '/api/v1/sharing/', payload: { recipient_name: 'Dr Grey', recipient_email: 'grey@clinic.example', kind: 'documents', categories: [], document_ids: [fx.privateAttachment] } });
    expect(shareDoc.statusCode).toBe(400);
    expect(await fingerprint()).toBe(before);
    // The share list names no private record for the network.
    expect((await send('ro', { method: 'GET', url: '/api/v1/sharing/' })).body).not.toContain(PRIVATE_MARK);
  });
});

// ---- Category limits ---------------------------------------------------------------------

describe('a grant limited to allergies sees allergies only', () => {
  let allergy: number;
  let allergyDoc: number;
  let conditionDoc: number;
  beforeAll(async () => {
    allergy = await newRecord('allergy', { code: LIMIT_MARK });
    allergyDoc = await newAttachment(allergy);
    conditionDoc = fx.publicAttachment;
  });
  const as = (req: Req) => send('limited', req);

  it('records: lists and by id of other categories are not there; allergies are', async () => {
    for (const c of CATEGORY_KEYS) {
      const list = await as({ method: 'GET', url: `/api/v1/hr/${c}/?page_size=100` });
      expect(list.statusCode, c).toBe(200);
      const count = list.json<{ count: number }>().count;
      if (c === 'allergy') expect(count).toBeGreaterThanOrEqual(2);
      else expect(count, `${c} listed`).toBe(0);
      const byId = await as({ method: 'GET', url: `/api/v1/hr/${c}/${fx.records[c]}/` });
      expect(byId.statusCode, `${c} by id`).toBe(c === 'allergy' ? 200 : 404);
      expect((await as({ method: 'GET', url: `/api/v1/hr/${c}/${fx.records[c]}/history/` })).statusCode, `${c} history`).toBe(c === 'allergy' ? 200 : 404);
    }
  });

  it('writes stay within the categories: another category cannot be added, changed or deleted', async () => {
    const before = await fingerprint();
    for (const req of [
      { method: 'POST', url: '/api/v1/hr/condition/', payload: minimalRecord('condition') },
      { method: 'PATCH', url: `/api/v1/hr/condition/${fx.records.condition}/`, payload: { name: 'Changed' } },
      { method: 'DELETE', url: `/api/v1/hr/condition/${fx.records.condition}/` },
      { method: 'POST', url: `/api/v1/hr/${fx.records.condition}/attachment/`, ...multipart(PNG_1X1) },
      { method: 'DELETE', url: `/api/v1/hr/attachment/${conditionDoc}` },
      { method: 'POST', url: '/api/v1/symptom-checker/save/', payload: { input: { age: 40, sex: 'female', complaint: 'cold', duration: '1-3-days', severity: 'mild', red_flags: [] } } },
    ] as Req[]) {
      expect((await as(req)).statusCode, `${req.method} ${req.url}`).toBe(404);
    }
    expect(await fingerprint()).toBe(before);
    const added = await as({ method: 'POST', url: '/api/v1/hr/allergy/', payload: minimalRecord('allergy') });
    expect(added.statusCode).toBe(201);
  });

  it('the summary counts and shows allergies only', async () => {
    const summary = (await as({ method: 'GET', url: '/api/v1/hr/summary/' })).json<{ total: number; categories: Array<{ category: string; count: number }>; recent: Array<{ category: string }> }>();
    expect(summary.categories.filter((c) => c.count > 0).map((c) => c.category)).toEqual(['allergy']);
    expect(new Set(summary.recent.map((r) => r.category))).toEqual(new Set(['allergy']));
  });

  it('documents: only those attached to allergies (not other categories’ attachments, not loose documents)', async () => {
    const ids = (await as({ method: 'GET', url: '/api/v1/documents/' })).json<Array<{ id: number }>>().map((d) => d.id);
    expect(ids).toContain(allergyDoc);
    expect(ids).not.toContain(conditionDoc);
    expect(ids).not.toContain(fx.looseDocument);
    expect((await as({ method: 'GET', url: `/api/v1/documents/${conditionDoc}/` })).statusCode).toBe(404);
    expect((await as({ method: 'GET', url: `/api/v1/documents/${conditionDoc}/file/` })).statusCode).toBe(404);
    expect((await as({ method: 'GET', url: `/api/v1/documents/${fx.looseDocument}/file/` })).statusCode).toBe(404);
    expect((await as({ method: 'GET', url: `/api/v1/documents/${allergyDoc}/file/` })).statusCode).toBe(200);
    const folders = (await as({ method: 'GET', url: '/api/v1/documents/folders/' })).json<Array<{ documents: number }>>();
    expect(folders.every((f) => f.documents === 0)).toBe(true);
  });

  it('exports and sharing: allergies only', async () => {
    const fhir = await as({ method: 'GET', url: '/api/v1/fhir/export/' });
    const types = new Set(fhir.json<{ entry?: Array<{ resource: { resourceType: string } }> }>().entry?.map((e) => e.resource.resourceType));
    expect([...types].filter((r) => r !== 'Patient')).toEqual(['AllergyIntolerance']);
    const made = await as({ method: 'POST', url: '/api/v1/hr/export/', payload: { language: 'en', types: [...CATEGORY_KEYS], assessments: true } });
    expect(made.statusCode, made.body).toBe(201);
    const words = pdfWords((await as({ method: 'GET', url: made.json<{ url: string }>().url })).rawPayload);
    expect(words).toContain(LIMIT_MARK);
    expect(words).not.toContain(String(minimalRecord('condition').name));
    expect(words).not.toContain(String(minimalRecord('immunization').vaccine_name));
    expect(words).not.toContain('GAD-7');

    // The share list is not a category: a limited grant makes no share, not even of its own categories.
    const before = await fingerprint();
    for (const payload of [
      { recipient_name: 'Dr Grey', recipient_email: 'grey@clinic.example', categories: ['allergy'] },
      { recipient_name: 'Dr Grey', recipient_email: 'grey@clinic.example', categories: ['condition'] },
      { recipient_name: 'Dr Grey', recipient_email: 'grey@clinic.example', kind: 'documents', categories: [], document_ids: [allergyDoc] },
    ]) {
      const res = await as({ method: 'POST', url: '/api/v1/sharing/', payload });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json<{ detail: string }>().detail).toBe(EN('sharesNotShared'));
    }
    expect(await fingerprint()).toBe(before);
  });

  it('a FHIR import adds records of its categories only (another category is skipped, as a direct create is refused)', async () => {
    const bundle = await asOwner<object>('GET', '/api/v1/fhir/export/?types=condition,allergy&assessments=false');
    const conditionCount = async () => (await t.db.selectFrom('health_records').select('id').where('patient_id', '=', fx.patientId).where('category', '=', 'condition').execute()).length;
    const conditionsBefore = await conditionCount();
    const preview = (await as({ method: 'POST', url: '/api/v1/fhir/import/', payload: { bundle } })).json<{ items: Array<{ key: string; category: string | null; status: string; reason: string | null }> }>();
    const conditions = preview.items.filter((i) => i.category === 'condition');
    expect(conditions.length).toBeGreaterThan(0);
    for (const item of conditions) expect([item.status, item.reason]).toEqual(['skipped', translate('en', 'records:fhir.categoryNotShared')]);
    const accepted = await as({ method: 'POST', url: '/api/v1/fhir/import/', payload: { bundle, accept: preview.items.map((i) => i.key) } });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await conditionCount()).toBe(conditionsBefore);
    expect((await send('limitedRo', { method: 'POST', url: '/api/v1/fhir/import/', payload: { bundle } })).statusCode).toBe(403);
  });

  it('assessments (not a category it was given): refused as for read-only (403)', async () => {
    for (const url of ['/api/v1/surveys/', '/api/v1/surveys/responses/', `/api/v1/surveys/responses/${fx.surveyResult}/`]) {
      expect((await as({ method: 'GET', url })).statusCode, url).toBe(403);
    }
  });
});

// ---- Audit -------------------------------------------------------------------------------

describe('audit', () => {
  const rows = (userId: number, since: number) =>
    t.db.selectFrom('audit_log').select(['action', 'outcome', 'subject', 'actor_user_id']).where('actor_user_id', '=', userId).where('id', '>', since).orderBy('id').execute();
  const lastId = async () => Number((await t.db.selectFrom('audit_log').select((eb) => eb.fn.max('id').as('m')).executeTakeFirstOrThrow()).m ?? 0);

  it('every access by a carer is on the patient’s trail with the actor; refusals are denied rows', { timeout: 120_000 }, async () => {
    const subject = `patient:${fx.patientId}`;
    const table = routeTable();
    const failures: string[] = [];
    for (const route of guardedRoutes()) {
      const entry = table[key(route)];
      if (!entry?.make) continue;
      for (const who of ['full', 'ro', 'removed'] as const) {
        const since = await lastId();
        const res = await send(who, await entry.make(who));
        const written = await rows(fx.users[who].id, since);
        const label = `${key(route)} as ${who}`;
        if (res.statusCode < 300) {
          if (!written.some((r) => r.subject === subject && r.outcome === 'success')) failures.push(`${label}: ${res.statusCode} without an audit row`);
        } else if (!written.some((r) => r.outcome === 'denied')) failures.push(`${label}: refused (${res.statusCode}) without a denied row`);
      }
    }
    expect(failures).toEqual([]);
  });
});
