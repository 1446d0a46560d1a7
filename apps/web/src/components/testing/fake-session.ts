/** Test helpers (not shipped: only *.test.tsx files import them). */
import type { AccessClaims } from '@healthbook/shared/contracts/auth';
import type { UserDto } from '@healthbook/shared/contracts/users';

/** An unsigned JWT-shaped token with these claims (the client never verifies signatures). */
export function fakeToken(claims: Partial<AccessClaims> = {}): string {
  const payload: AccessClaims = {
    user_id: 7,
    org: 1,
    access: 'full',
    token_type: 'access',
    sid: 'session-1',
    iat: Math.floor(Date.now() / 1000),
    exp: Math.floor(Date.now() / 1000) + 900,
    ...claims,
  };
  const encode = (value: unknown) =>
    btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(value))))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}.signature`;
}

export function fakeUser(overrides: Partial<UserDto> = {}): UserDto {
  return {
    user_id: 7,
    first_name: 'Μαρία',
    last_name: 'Papadopoulou',
    gender: { key: 'female', value: 'Female' },
    sex: { key: 'female', value: 'Female' },
    credential: null,
    dob: '1980-04-02',
    email: 'maria@example.com',
    address: null,
    city: null,
    state: null,
    zip_code: null,
    phone_number: null,
    imperial_units: false,
    has_mfa_enabled: false,
    mfa_devices: [],
    profile_picture: null,
    settings: {},
    wizard_complete: false,
    roles: ['patient'],
    is_superadmin: false,
    user_org_details: [{ org: 1, org_name: 'HealthBook+', name: 'healthbook' }],
    patient_appointment_details: [],
    ...overrides,
  };
}

export const json = (status: number, body: unknown) =>
  new Response(body === null ? null : JSON.stringify(body), { status, headers: body === null ? {} : { 'Content-Type': 'application/json' } });
