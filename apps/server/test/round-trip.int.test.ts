import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES, CHOICE_LISTS, type CategoryDefinition } from '@healthbook/shared';
import { useTestApp } from './build-app';
import { PNG_1X1, bearer, buildOrganization, buildUser, signIn } from './factories';
import { minimalRecord } from './record-samples';

/**
 * The API accepts its own answers: for every resource with a PUT or PATCH route, the answer of
 * its GET sent back unchanged is a 200 that leaves the resource as it was. Read-only fields
 * (ids, timestamps, derived values) are ignored, never refused. The route table is walked, so
 * a new PUT or PATCH route without a case here fails by name.
 */

const t = useTestApp();

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';
type Json = Record<string, unknown>;
const tokens: Record<string, string> = {};
let orgId = 0;
let orgName = '';

const call = (who: string, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { ...bearer(tokens[who]!), 'accept-language': 'en' }, ...(payload ? { payload } : {}) });

async function ok<T = Json>(who: string, method: Method, url: string, payload?: object, status = method === 'POST' ? 201 : 200): Promise<T> {
  const res = await call(who, method, url, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
  return res.json<T>();
}

/** A multipart body with one PNG file (and text fields). */
function upload(who: string, url: string, fields: Record<string, string> = {}) {
  const boundary = `----RoundTrip${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="scan.png"\r\nContent-Type: image/png\r\n\r\n`), PNG_1X1, Buffer.from(`\r\n--${boundary}--\r\n`));
  return t.app.inject({ method: 'POST', url, payload: Buffer.concat(chunks), headers: { ...bearer(tokens[who]!), 'content-type': `multipart/form-data; boundary=${boundary}` } });
}

/** One resource: who acts, where its GET answers it (and how to find it there), where it is sent back. */
interface Resource {
  who: string;
  /** The resource as GET answers it. */
  read: () => Promise<Json>;
  /** The address of the PUT or PATCH. */
  url: string;
}

/** The fields that record the write itself, not the resource: they may move. */
const VOLATILE = ['updated_at', 'version'];
const stable = (answer: Json) => Object.fromEntries(Object.entries(answer).filter(([key]) => !VOLATILE.includes(key)));

const find = (list: Json[], key: string, value: unknown) => {
  const item = list.find((entry) => entry[key] === value);
  expect(item, `${key} ${String(value)} in the list`).toBeDefined();
  return item!;
};

/** The routes that change something but are not a resource a GET answers: each with its reason. */
const NOT_A_RESOURCE: Record<string, string> = {
  'PUT /api/v1/me/password/': 'an action (current and new password): there is no password to GET',
  'PUT /api/v1/admin/organizations/:id/:asset/': 'an upload (multipart file): the answer is the organisation, not the file',
};

/** Every PUT and PATCH route: how to make one of its resources. */
const CASES: Record<string, () => Promise<Resource>> = {
  'PATCH /api/v1/admin/organizations/:id/': async () => {
    const other = await buildOrganization(t.app, { primary_color: '#1b5e20' });
    const url = `/api/v1/admin/organizations/${other.id}/`;
    return { who: 'superadmin', read: () => ok('superadmin', 'GET', url), url };
  },
  'PUT /api/v1/organizations/:id/help/articles/:slug/': async () => {
    const url = `/api/v1/organizations/${orgId}/help/articles/parking/`;
    await ok('admin', 'PUT', url, { title_en: 'Parking', title_el: 'Στάθμευση', body_en: 'Free parking behind the building.', body_el: 'Δωρεάν στάθμευση πίσω από το κτίριο.', tags: ['parking'] });
    return { who: 'admin', read: async () => find(await ok<Json[]>('admin', 'GET', `/api/v1/organizations/${orgId}/help/articles/`), 'slug', 'parking'), url };
  },
  'PATCH /api/v1/admin/sources/:id/': async () => {
    const row = await t.db
      .insertInto('fhir_sources')
      .values({
        org_id: orgId,
        name: 'Round-trip EHR',
        fhir_base_url: 'http://127.0.0.1:9/fhir',
        client_id: 'round-trip',
        client_secret_sealed: null,
        scopes: 'launch/patient patient/*.rs',
        smart_configuration: JSON.stringify({ authorization_endpoint: 'http://127.0.0.1:9/authorize', token_endpoint: 'http://127.0.0.1:9/token' }),
        created_by: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { who: 'admin', read: async () => find(await ok<Json[]>('admin', 'GET', '/api/v1/admin/sources/'), 'id', row.id), url: `/api/v1/admin/sources/${row.id}/` };
  },
  'PUT /api/v1/admin/people/:id/roles/': async () => {
    const provider = await buildUser(t.app, { org: { id: orgId }, roles: ['professional', 'provider'] });
    const read = async () => find((await ok<{ results: Json[] }>('admin', 'GET', `/api/v1/admin/people/?search=${encodeURIComponent(provider.email)}`)).results, 'user_id', provider.id);
    return { who: 'admin', read, url: `/api/v1/admin/people/${provider.id}/roles/` };
  },
  'PUT /api/v1/me/': async () => ({ who: 'patient', read: () => ok('patient', 'GET', '/api/v1/me/'), url: '/api/v1/me/' }),
  'PUT /api/v1/users/:id': async () => {
    const me = await ok('patient', 'GET', '/api/v1/me/');
    const url = `/api/v1/users/${String(me.user_id)}`;
    return { who: 'patient', read: () => ok('patient', 'GET', url), url };
  },
  'PUT /api/v1/features/:id/': async () => {
    const settings = await ok<Json[]>('admin', 'GET', '/api/v1/features/');
    // One members cannot use yet (its page is not in this version): what they get (feature_status,
    // inactive) is not what the organisation chose (configured_status, active); sent back, the choice stays.
    const feature = settings.find((f) => !f.core && !f.available) ?? settings.find((f) => !f.core);
    expect(feature).toBeDefined();
    return { who: 'admin', read: async () => find(await ok<Json[]>('admin', 'GET', '/api/v1/features/'), 'id', feature!.id), url: `/api/v1/features/${String(feature!.id)}/` };
  },
  'PUT /api/v1/organizations/:id/settings/': async () => {
    await ok('admin', 'PUT', `/api/v1/organizations/${orgId}/settings/`, {
      video_channel_url: 'https://videos.example.test/channel',
      emergency_number: '112',
      crisis_lines: [],
      support_email: 'help@example.test',
      support_phone: '+30 210 1234567',
    });
    return { who: 'admin', read: () => ok('admin', 'GET', `/api/v1/organization_detail_by_name/${orgName}`), url: `/api/v1/organizations/${orgId}/settings/` };
  },
  'PUT /api/v1/organizations/:id/surveys/:survey/': async () => {
    const url = `/api/v1/organizations/${orgId}/surveys/general/`;
    return { who: 'admin', read: () => ok('admin', 'GET', url), url };
  },
  'PUT /api/v1/provider/me/schedule/': async () => {
    await ok('provider', 'PUT', '/api/v1/provider/me/schedule/', {
      slot_minutes: 30,
      timezone: 'Europe/Athens',
      weekly: [{ weekday: 1, start: '09:00', end: '12:00' }],
      exceptions: [{ date: '2099-01-05', start: null, end: null }],
    });
    return { who: 'provider', read: () => ok('provider', 'GET', '/api/v1/provider/me/schedule/'), url: '/api/v1/provider/me/schedule/' };
  },
  'PUT /api/v1/provider/me/profile/': async () => {
    await ok('provider', 'PUT', '/api/v1/provider/me/profile/', { speciality: 'Dermatology', credentials: 'MD', languages: ['Greek', 'English'], biography: 'Skin.' });
    return { who: 'provider', read: () => ok('provider', 'GET', '/api/v1/provider/me/profile/'), url: '/api/v1/provider/me/profile/' };
  },
  'PATCH /api/v1/care-network/:id/': async () => {
    const member = await ok('patient', 'POST', '/api/v1/care-network/', { name: 'Anna Carer', email: `carer-${randomBytes(3).toString('hex')}@example.test`, access: 'read-only' });
    return { who: 'patient', read: async () => find(await ok<Json[]>('patient', 'GET', '/api/v1/care-network/'), 'id', member.id), url: `/api/v1/care-network/${String(member.id)}/` };
  },
  'PATCH /api/v1/family-members/:id/': async () => {
    const member = await ok('patient', 'POST', '/api/v1/family-members/', { first_name: 'Nikos', last_name: 'Child', dob: '2015-03-04', gender: 'male', relationship: 'child' });
    return {
      who: 'patient',
      read: async () => find(await ok<Json[]>('patient', 'GET', '/api/v1/family-members/'), 'patient_id', member.patient_id),
      url: `/api/v1/family-members/${String(member.patient_id)}/`,
    };
  },
  'PATCH /api/v1/documents/folders/:id/': async () => {
    const folder = await ok('patient', 'POST', '/api/v1/documents/folders/', { name: `Scans ${randomBytes(2).toString('hex')}` });
    return { who: 'patient', read: async () => find(await ok<Json[]>('patient', 'GET', '/api/v1/documents/folders/'), 'id', folder.id), url: `/api/v1/documents/folders/${String(folder.id)}/` };
  },
  'PATCH /api/v1/documents/:id/': async () => {
    // Every field set: in a folder and attached to a record (the answer names the record as an object).
    const folder = await ok('patient', 'POST', '/api/v1/documents/folders/', { name: `Letters ${randomBytes(2).toString('hex')}` });
    const record = await ok('patient', 'POST', '/api/v1/hr/condition/', { name: 'Asthma' });
    const res = await upload('patient', '/api/v1/documents/', { folder: String(folder.id) });
    expect(res.statusCode, res.body).toBe(201);
    const url = `/api/v1/documents/${String(res.json<Json>().id)}/`;
    await ok('patient', 'PATCH', url, { record: record.id });
    return { who: 'patient', read: () => ok('patient', 'GET', url), url };
  },
  'PATCH /api/v1/insurance/:id/': async () => {
    const card = await ok('patient', 'POST', '/api/v1/insurance/', {
      insurer: 'EOPYY',
      plan: 'Basic',
      member_number: 'M-123',
      group_number: 'G-9',
      holder_name: 'Test User',
      holder_relationship: 'self',
      valid_from: '2025-01-01',
      valid_to: '2027-12-31',
      notes: 'Front desk has a copy.',
    });
    const url = `/api/v1/insurance/${String(card.id)}/`;
    return { who: 'patient', read: () => ok('patient', 'GET', url), url };
  },
  'PUT /api/v1/journal/:id/': async () => journalEntry(),
  'PATCH /api/v1/journal/:id/': async () => journalEntry(),
  'PUT /api/v1/calendar/events/:event_id/': async () => {
    const event = await ok('patient', 'POST', '/api/v1/calendar/events/', {
      title: 'Physiotherapy',
      description: 'Bring the referral.',
      type: 'Appointment',
      start_time: '2099-03-02T09:00:00Z',
      end_time: '2099-03-02T10:00:00Z',
      reminder_minutes: 30,
      timezone: 'Europe/Athens',
    });
    const url = `/api/v1/calendar/events/${String(event.event_id)}/`;
    return { who: 'patient', read: () => ok('patient', 'GET', url), url };
  },
  ...Object.fromEntries(
    CATEGORIES.flatMap((category) =>
      (['PUT', 'PATCH'] as const).map((method) => [
        `${method} /api/v1/hr/${category.key}/:id/`,
        async (): Promise<Resource> => {
          const record = await ok('patient', 'POST', `/api/v1/hr/${category.key}/`, fullRecord(category));
          const url = `/api/v1/hr/${category.key}/${String(record.id)}/`;
          return { who: 'patient', read: () => ok('patient', 'GET', url), url };
        },
      ]),
    ),
  ),
};

/** A record with every field of its category given (so every field travels back), within its rules. */
function fullRecord(category: CategoryDefinition): Json {
  const record: Json = minimalRecord(category.key);
  for (const field of category.fields) {
    if (record[field.name] !== undefined) continue;
    switch (field.kind) {
      case 'text':
        record[field.name] = 'Noted';
        break;
      case 'number':
        record[field.name] = Math.min(Math.max(1, field.min ?? 1), field.max ?? 1);
        break;
      case 'boolean':
        record[field.name] = true;
        break;
      case 'choice':
        record[field.name] = CHOICE_LISTS[field.list][0];
        break;
      case 'date':
        record[field.name] = '2020-01-02';
        break;
      case 'medicalDate':
        record[field.name] = '2020-01-01';
        record[`${field.name}_part`] = 'month';
        break;
      case 'country':
        record[field.name] = 'GR';
        break;
      case 'measurement':
        break;
    }
  }
  return record;
}

async function journalEntry(): Promise<Resource> {
  const entry = await ok('patient', 'POST', '/api/v1/journal/', { entry_date: '2025-06-01', title: 'A good day', text: 'Walked an hour.', mood: 4, tags: ['walk'], private: false });
  const url = `/api/v1/journal/${String(entry.id)}/`;
  return { who: 'patient', read: () => ok('patient', 'GET', url), url };
}

const methodOf = (key: string) => key.split(' ')[0] as 'PUT' | 'PATCH';

beforeAll(async () => {
  const org = await buildOrganization(t.app);
  orgId = org.id;
  orgName = org.name;
  const people = {
    patient: await buildUser(t.app, { org, dob: '1980-05-06', gender: 'female' }),
    admin: await buildUser(t.app, { org, roles: ['org_admin'] }),
    provider: await buildUser(t.app, { org, first_name: 'Anna', last_name: 'Doctor', roles: ['professional', 'provider'] }),
    superadmin: await buildUser(t.app, { org, roles: ['org_admin'], is_superadmin: true }),
  };
  for (const [who, user] of Object.entries(people)) tokens[who] = (await signIn(t.app, { email: user.email, password: user.password, org_id: org.id })).access;
});

describe('the API accepts its own answers', () => {
  it('has a round-trip case for every PUT and PATCH route', () => {
    const routes = t.app.routeTable.filter((r) => !r.public && (r.method === 'PUT' || r.method === 'PATCH')).map((r) => `${r.method} ${r.url}`);
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.filter((route) => !(route in CASES) && !(route in NOT_A_RESOURCE)), 'PUT/PATCH routes without a round-trip case').toEqual([]);
    expect(Object.keys(CASES).filter((route) => !routes.includes(route)), 'cases for routes that do not exist').toEqual([]);
  });

  it.each(Object.keys(CASES))('%s: the GET answer sent back unchanged is a 200 that changes nothing', async (route) => {
    const resource = await CASES[route]!();
    const before = await resource.read();
    const res = await call(resource.who, methodOf(route), resource.url, before);
    expect(res.statusCode, res.body).toBe(200);
    expect(stable(res.json<Json>())).toEqual(stable(before));
    expect(stable(await resource.read())).toEqual(stable(before));
  });
});

describe('read-only fields', () => {
  it('are ignored whatever their value, while a field that is neither writable nor read-only is still refused', async () => {
    const event = await ok('patient', 'POST', '/api/v1/calendar/events/', { title: 'Dentist', type: 'Appointment', start_time: '2099-04-01T09:00:00Z', end_time: '2099-04-01T09:30:00Z' });
    const url = `/api/v1/calendar/events/${String(event.event_id)}/`;
    const changed = await ok('patient', 'PUT', url, { ...event, title: 'Dentist (moved)', event_id: 999_999, patient_id: 1, created_at: '2000-01-01T00:00:00Z' });
    expect(changed).toMatchObject({ event_id: event.event_id, patient_id: event.patient_id, created_at: event.created_at, title: 'Dentist (moved)' });

    const typo = await call('patient', 'PUT', url, { ...event, titel: 'Dentist' });
    expect(typo.statusCode).toBe(400);
    expect(typo.json()).toEqual({ non_field_errors: ['This field is not expected.'] });
  });
});

describe('a field that counts only with another', () => {
  const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const share = (body: Json, lang = 'en') =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/sharing/',
      headers: { ...bearer(tokens.patient!), 'accept-language': lang },
      payload: { categories: ['condition'], recipient_name: 'Dr Grey', recipient_email: 'grey@clinic.example', ...body },
    });
  const shareCount = async () => (await ok<Json[]>('patient', 'GET', '/api/v1/sharing/')).length;

  beforeAll(async () => {
    await ok('patient', 'POST', '/api/v1/hr/condition/', { name: 'Hay fever' });
  });

  it('refuses a share with expires_at but without expires_in "custom", naming both fields (a patient asking for one hour never gets a week)', async () => {
    const before = await shareCount();
    for (const body of [{ expires_at: inAnHour() }, { expires_in: '7d', expires_at: inAnHour() }]) {
      const res = await share(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ expires_at: ['expires_at counts only when expires_in is "custom": send expires_in: "custom", or leave expires_at out.'] });
    }
    const greek = await share({ expires_at: inAnHour() }, 'el');
    expect(greek.json()).toEqual({ expires_at: ['Το expires_at ισχύει μόνο όταν το expires_in είναι "custom": στείλτε expires_in: "custom" ή παραλείψτε το expires_at.'] });
    expect(await shareCount()).toBe(before);
  });

  it('keeps the pair that belongs together working: expires_in "custom" with expires_at, and the 7-day default without either', async () => {
    const at = inAnHour();
    const res = await share({ expires_in: 'custom', expires_at: at });
    expect(res.statusCode, res.body).toBe(201);
    expect(new Date(res.json<Json>().expires_at as string).getTime()).toBe(new Date(at).getTime());

    const byDefault = await share({});
    expect(byDefault.statusCode, byDefault.body).toBe(201);
    const days = (new Date(byDefault.json<Json>().expires_at as string).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
  });

  it("refuses a feature setting whose feature_status does not agree with its configured_status, naming both; feature_status alone is the choice (the spec's)", async () => {
    const settings = await ok<Json[]>('admin', 'GET', '/api/v1/features/');
    const journal = settings.find((f) => f.key === 'journal')!;
    const url = `/api/v1/features/${String(journal.id)}/`;
    const edited = { ...journal, feature_status: 'disabled' }; // configured_status left at active
    const res = await call('admin', 'PUT', url, edited);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ feature_status: ['feature_status does not agree with configured_status: send feature_status alone, or both as they belong together.'] });
    const greek = await t.app.inject({ method: 'PUT', url, headers: { ...bearer(tokens.admin!), 'accept-language': 'el' }, payload: edited });
    expect(greek.json()).toEqual({ feature_status: ['Το feature_status δεν συμφωνεί με το configured_status: στείλτε μόνο το feature_status ή και τα δύο όπως ταιριάζουν μεταξύ τους.'] });
    expect(find(await ok<Json[]>('admin', 'GET', '/api/v1/features/'), 'id', journal.id)).toMatchObject({ feature_status: 'active', configured_status: 'active' });

    expect(await ok('admin', 'PUT', url, { ...journal, feature_status: 'disabled', configured_status: 'disabled' })).toMatchObject({ feature_status: 'disabled', configured_status: 'disabled' });
    expect(await ok('admin', 'PUT', url, { feature_status: 'active' })).toMatchObject({ feature_status: 'active', configured_status: 'active' });
  });

  it('refuses an event sent as recurring (is_recurring: true) without its recurrence, naming both fields', async () => {
    const event = { title: 'Inhaler', type: 'Medicine', start_time: '2099-05-01T08:00:00Z', end_time: '2099-05-01T08:15:00Z' };
    for (const body of [{ ...event, is_recurring: true }, { ...event, is_recurring: true, recurrence: null }]) {
      const res = await call('patient', 'POST', '/api/v1/calendar/events/', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ is_recurring: ['is_recurring counts only together with recurrence: send recurrence too, or leave is_recurring out.'] });
    }
    const greek = await t.app.inject({ method: 'POST', url: '/api/v1/calendar/events/', headers: { ...bearer(tokens.patient!), 'accept-language': 'el' }, payload: { ...event, is_recurring: true } });
    expect(greek.json()).toEqual({ is_recurring: ['Το is_recurring ισχύει μόνο μαζί με το recurrence: στείλτε και το recurrence ή παραλείψτε το is_recurring.'] });

    // With its rule, or sent as not recurring, the event is made.
    expect((await ok('patient', 'POST', '/api/v1/calendar/events/', { ...event, is_recurring: true, recurrence: 'FREQ=DAILY;COUNT=5' })).is_recurring).toBe(true);
    expect((await ok('patient', 'POST', '/api/v1/calendar/events/', { ...event, is_recurring: false })).is_recurring).toBe(false);
  });
});
