import { isTimeZone, translate, zoneOf, type Language, type LimitedUser, type UserDto } from '@healthbook/shared';
import { recipientLanguage } from '../../lib/mail-templates';
import type { CodeTarget } from '../mfa/mfa.service';
import type { UserView } from './users.repository';

export function genderOption(key: string | null, lang: Language) {
  return key ? { key, value: translate(lang, `options:gender.${key}`) } : null;
}

/** Storage keys of avatars live under avatars/; their addresses carry only the file name. */
export const AVATAR_PREFIX = 'avatars/';

/**
 * The avatar's address: GET /api/v1/users/avatar/{file}. The file name holds 144 random bits and
 * changes with every upload, so the address itself is the credential (an <img> cannot send the
 * Bearer header) and may be cached. Null without an avatar: the web app shows initials.
 */
export function avatarUrl(user: Pick<UserView, 'avatar_key'>): string | null {
  return user.avatar_key ? `/api/v1/users/avatar/${user.avatar_key.slice(AVATAR_PREFIX.length)}` : null;
}

/** The spec's user record. No hash, no storage keys, no internal flags beyond what the spec names. */
export function presentUser(user: UserView, lang: Language): UserDto {
  const settings = (user.settings ?? {}) as UserDto['settings'];
  return {
    user_id: user.id,
    first_name: user.first_name,
    last_name: user.last_name,
    gender: genderOption(user.gender, lang),
    sex: genderOption(user.sex, lang),
    credential: user.credential,
    dob: user.dob,
    email: user.email,
    address: user.address,
    city: user.city,
    state: user.state,
    zip_code: user.zip_code,
    phone_number: user.phone_number,
    imperial_units: user.imperial_units,
    has_mfa_enabled: user.mfa_devices.length > 0,
    mfa_devices: user.mfa_devices.map((d) => ({ uuid: d.uuid, device_type: d.device_type })),
    profile_picture: avatarUrl(user),
    settings: {
      ...(typeof settings.dark === 'boolean' ? { dark: settings.dark } : {}),
      ...(settings.language === 'en' || settings.language === 'el' ? { language: settings.language } : {}),
      ...(typeof settings.isWizardMinimized === 'boolean' ? { isWizardMinimized: settings.isWizardMinimized } : {}),
      ...(typeof settings.timeZone === 'string' && isTimeZone(settings.timeZone) ? { timeZone: settings.timeZone } : {}),
    },
    wizard_complete: user.wizard_complete,
    roles: user.roles,
    is_superadmin: user.is_superadmin,
    user_org_details: [{ org: user.org_id, org_name: user.org_name, name: user.org_client_id }],
    patient_appointment_details: [],
  };
}

/** While the second factor is pending: only what the verification page needs (no personal data, no device ids). */
export function presentLimitedUser(user: UserView): LimitedUser {
  const full = presentUser(user, 'en');
  return {
    user_id: full.user_id,
    first_name: full.first_name,
    has_mfa_enabled: full.has_mfa_enabled,
    mfa_devices: user.mfa_devices.map((d) => ({ device_type: d.device_type })),
    settings: full.settings,
    user_org_details: full.user_org_details,
  };
}

/** Where mail to a user goes, in which language (their own choice, else `fallback`) and time zone (their account's, else UTC). */
export function mailTarget(user: Pick<UserView, 'id' | 'org_id' | 'email' | 'first_name' | 'org_name' | 'settings'>, fallback: Language): CodeTarget {
  return {
    userId: user.id,
    orgId: user.org_id,
    email: user.email,
    name: user.first_name,
    orgName: user.org_name,
    lang: recipientLanguage(user.settings, fallback),
    timeZone: zoneOf(user.settings),
  };
}
