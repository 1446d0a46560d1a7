import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FEATURES, localToday, type FeatureKey, type FeatureStatus } from '@healthbook/shared';
import { hashPassword } from '../../lib/passwords';
import { orgScope } from '../scope';
import { FeatureCatalogueRepository, OrganizationFeaturesRepository } from '../../modules/features/features.repository';
import type { Storage } from '../../plugins/storage';
import type { Db } from '../client';
import { DEMO_CHARTS, DemoCalendar, seedDemoRecords } from './demo-records';
import { seedDemoInsurance } from './demo-insurance';
import { seedDemoCalendar, seedDemoProviders } from './demo-calendar';
import { seedDemoChat } from './demo-chat';
import { seedDemoShares } from './demo-shares';
import { seedDemoCareNetwork } from './demo-care-network';
import { seedDemoAssessments, seedDemoOrganizationSurveys } from './demo-surveys';
import { seedDemoHelp } from './demo-help';
import { ownerScope } from '../../modules/patients/patient-scope';
import { PatientsRepository } from '../../modules/patients/patients.repository';

/** Demo organisations: complete branding, as a real tenant would have. */
export const DEMO_ORGANIZATIONS = [
  {
    name: 'healthbook',
    org_name: 'HealthBook+',
    org_short_name: 'HB+',
    primary_color: '#0476d9',
    video_channel_url: 'https://www.youtube.com/@WHO',
    // A US organisation (its terms are governed by Colorado law): 911, and the 988 Suicide & Crisis Lifeline.
    emergency_number: '911',
    crisis_lines: [{ number: '988', name_en: '988 Suicide & Crisis Lifeline (call or text)', name_el: 'Γραμμή 988 για την αυτοκτονία και την κρίση (κλήση ή μήνυμα)' }],
    support_email: 'support@healthbook.example',
    support_phone: '+1 303 555 0100',
  },
  {
    name: 'northwind',
    org_name: 'Northwind Health',
    org_short_name: 'Northwind',
    primary_color: '#00695c',
    video_channel_url: null,
    // A Greek organisation: 112, and KLIMAKA's 1018 suicide prevention line.
    emergency_number: '112',
    crisis_lines: [{ number: '1018', name_en: 'Suicide prevention line 1018 (KLIMAKA, 24/7)', name_el: 'Γραμμή παρέμβασης για την αυτοκτονία 1018 (ΚΛΙΜΑΚΑ, 24/7)' }],
    support_email: 'help@northwind.example',
    support_phone: '+30 210 555 0100',
  },
] as const;

/** What this version does not have yet: a demo shows what works, so these are hidden ("disabled"), never "Coming Soon!". */
const NOT_YET = Object.fromEntries(FEATURES.filter((f) => !f.available).map((f) => [f.key, 'disabled'])) as Partial<Record<FeatureKey, FeatureStatus>>;

/**
 * Each demo organisation's choices about features (the rest: active), so that the two differ
 * visibly; at healthbook, Insurance shows what an organisation's "Coming Soon!" looks like.
 */
export const DEMO_FEATURE_STATUSES: Record<(typeof DEMO_ORGANIZATIONS)[number]['name'], Partial<Record<FeatureKey, FeatureStatus>>> = {
  healthbook: { ...NOT_YET, insurance: 'inactive', assistant: 'active' },
  northwind: { ...NOT_YET, insurance: 'active', teleconsultation: 'disabled', 'link-accounts': 'disabled', help: 'active', assistant: 'disabled' },
};

export const DEMO_PASSWORD = 'Healthbook#2026';

export const DEMO_USERS = [
  { org: 'healthbook', email: 'patient@healthbook.example', first_name: 'Maria', last_name: 'Papadopoulou', roles: ['patient'], is_superadmin: false, dob: '1984-03-17', gender: 'female', sex: 'female' },
  { org: 'healthbook', email: 'admin@healthbook.example', first_name: 'Alex', last_name: 'Admin', roles: ['org_admin'], is_superadmin: false, dob: '1979-08-23', gender: 'undisclosed', sex: 'undisclosed' },
  { org: 'healthbook', email: 'superadmin@healthbook.example', first_name: 'Sam', last_name: 'Super', roles: ['org_admin'], is_superadmin: true, dob: '1975-01-30', gender: 'undisclosed', sex: 'undisclosed' },
  { org: 'healthbook', email: 'provider@healthbook.example', first_name: 'Nikos', last_name: 'Georgiou', roles: ['professional', 'provider'], is_superadmin: false, dob: '1971-05-09', gender: 'male', sex: 'male' },
  { org: 'healthbook', email: 'coach@healthbook.example', first_name: 'Sofia', last_name: 'Antoniou', roles: ['professional', 'coach'], is_superadmin: false, dob: '1988-02-21', gender: 'female', sex: 'female' },
  { org: 'healthbook', email: 'cardiology@healthbook.example', first_name: 'Eleni', last_name: 'Kosta', roles: ['professional', 'provider'], is_superadmin: false, dob: '1978-10-14', gender: 'female', sex: 'female' },
  { org: 'northwind', email: 'patient@northwind.example', first_name: 'John', last_name: 'Carter', roles: ['patient'], is_superadmin: false, dob: '1969-11-02', gender: 'male', sex: 'male' },
  // The healthbook demo patient's own account at Northwind (the same person): to link in the Connection Hub.
  { org: 'northwind', email: 'maria@northwind.example', first_name: 'Maria', last_name: 'Papadopoulou', roles: ['patient'], is_superadmin: false, dob: '1984-03-17', gender: 'female', sex: 'female' },
] as const;

/** The assets folder sits beside this file in the sources and is copied beside the bundle. */
function assetsDir(): string {
  return path.join(import.meta.dirname, 'assets');
}

/**
 * Seeds the demo data when the database holds no organisation yet: the organisations, their
 * users, and each demo patient's health records and documents (demo-records.ts). Runs in one
 * transaction, so a failed seed leaves nothing half-written (the documents' files it wrote are
 * removed again). Answers whether it seeded.
 */
export async function seedDemo(db: Db, storage: Storage): Promise<boolean> {
  const existing = await db.selectFrom('organizations').select('id').limit(1).executeTakeFirst();
  if (existing) return false;

  const assets = assetsDir();
  for (const org of DEMO_ORGANIZATIONS) {
    for (const kind of ['logo', 'favicon'] as const) {
      const data = await readFile(path.join(assets, `${org.name}-${kind}.svg`));
      await storage.put(`organizations/${org.name}-${kind}.svg`, data);
    }
  }
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  const today = localToday();
  const written: string[] = [];
  const put = async (key: string, data: Buffer) => {
    written.push(key);
    await storage.put(key, data);
  };

  await db.transaction().execute(async (trx) => {
    const orgIds = new Map<string, number>();
    for (const org of DEMO_ORGANIZATIONS) {
      const row = await trx
        .insertInto('organizations')
        .values({
          ...org,
          crisis_lines: JSON.stringify(org.crisis_lines),
          logo_key: `organizations/${org.name}-logo.svg`,
          logo_content_type: 'image/svg+xml',
          favicon_key: `organizations/${org.name}-favicon.svg`,
          favicon_content_type: 'image/svg+xml',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      orgIds.set(org.name, row.id);
    }
    await seedDemoOrganizationSurveys(trx, orgIds);
    const catalogue = new Map((await new FeatureCatalogueRepository(trx).sync(FEATURES)).map((f) => [f.key, f.id]));
    for (const [org, statuses] of Object.entries(DEMO_FEATURE_STATUSES)) {
      const features = new OrganizationFeaturesRepository(trx, orgScope(orgIds.get(org)!));
      for (const [key, status] of Object.entries(statuses)) await features.setStatus(catalogue.get(key)!, status, null);
    }
    await seedDemoHelp(trx, orgIds);
    const users = await trx
      .insertInto('users')
      .values(
        DEMO_USERS.map(({ org, roles, ...user }) => ({
          ...user,
          roles: [...roles],
          org_id: orgIds.get(org)!,
          password_hash: passwordHash,
          email_confirmed_at: new Date(),
        })),
      )
      .returning(['id', 'email'])
      .execute();

    const calendar = new DemoCalendar(today);
    for (const user of DEMO_USERS) {
      const chart = DEMO_CHARTS[user.email];
      if (!chart) continue;
      const userId = users.find((u) => u.email === user.email)!.id;
      // Every account is a patient (a trigger makes the row).
      const patient = (await new PatientsRepository(trx, orgScope(orgIds.get(user.org)!)).findByUser(userId))!;
      await seedDemoRecords(trx, put, { scope: ownerScope(patient, 'records'), orgId: patient.org_id, patientId: patient.id, userId, dob: user.dob }, chart(calendar), today);
    }

    const userIds = new Map(users.map((u) => [u.email, u.id]));
    // Insurance (active in northwind): the demo patient's card, with its front.
    const john = userIds.get('patient@northwind.example')!;
    const johnPatient = await trx.selectFrom('patients').select('id').where('user_id', '=', john).executeTakeFirstOrThrow();
    await seedDemoInsurance(trx, put, { orgId: orgIds.get('northwind')!, patientId: johnPatient.id, userId: john }, today);

    // Telehealth: the healthbook providers publish their hours; the demo patient has a calendar and a booking.
    const healthbook = orgIds.get('healthbook')!;
    await seedDemoProviders(trx, healthbook, userIds, new Date());
    const maria = userIds.get('patient@healthbook.example')!;
    const mariaPatient = (await new PatientsRepository(trx, orgScope(healthbook)).findByUser(maria))!;
    await seedDemoCalendar(trx, { scope: ownerScope(mariaPatient, 'calendar'), orgId: healthbook, patientId: mariaPatient.id, userId: maria, providerId: userIds.get('provider@healthbook.example')! }, today);
    await seedDemoShares(trx, { orgId: healthbook, patientId: mariaPatient.id, userId: maria });
    await seedDemoCareNetwork(trx, { orgId: healthbook, patientId: mariaPatient.id, userId: maria });
    await seedDemoAssessments(trx, { orgId: healthbook, patientId: mariaPatient.id, userId: maria, name: 'Maria Papadopoulou' });
    await seedDemoChat(trx, {
      orgId: healthbook,
      patientId: mariaPatient.id,
      patientUserId: maria,
      patientName: 'Maria Papadopoulou',
      coachUserId: userIds.get('coach@healthbook.example')!,
      coachName: 'Sofia Antoniou',
    });
  }).catch(async (err: unknown) => {
    for (const key of written) await storage.delete(key).catch(() => undefined);
    throw err;
  });
  return true;
}
