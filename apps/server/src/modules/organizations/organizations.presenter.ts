import { ORGANIZATION_NOT_FOUND, type AdminOrganization, type OrganizationDetail, type OrganizationNotFound } from '@healthbook/shared';
import type { OrganizationRow, OrganizationWithCounts } from './organizations.repository';

export function assetUrl(org: OrganizationRow, asset: 'logo' | 'favicon'): string | null {
  const key = asset === 'logo' ? org.logo_key : org.favicon_key;
  if (!key) return null;
  // The version changes when the organisation changes, so browsers may cache the file for long.
  return `/api/v1/organizations/${encodeURIComponent(org.name)}/${asset}?v=${new Date(org.updated_at).getTime()}`;
}

export function presentOrganization(org: OrganizationRow): OrganizationDetail {
  return {
    org: org.id,
    name: org.name,
    org_name: org.org_name,
    org_short_name: org.org_short_name,
    org_logo: org.logo_key ? org.logo_key.split('/').pop()! : null,
    logo_url: assetUrl(org, 'logo'),
    favicon_url: assetUrl(org, 'favicon'),
    primary_color: org.primary_color,
    video_channel_url: org.video_channel_url,
    emergency_number: org.emergency_number,
    crisis_lines: org.crisis_lines.map((l) => ({ number: l.number, name: { en: l.name_en, el: l.name_el } })),
    support_email: org.support_email,
    support_phone: org.support_phone,
    user_org_details: [{ org: org.id }],
    active: org.deactivated_at === null,
  };
}

export function presentAdminOrganization(org: OrganizationWithCounts): AdminOrganization {
  return {
    ...presentOrganization(org),
    deactivated_at: org.deactivated_at ? new Date(org.deactivated_at).toISOString() : null,
    created_at: new Date(org.created_at).toISOString(),
    users: org.users,
    patients: org.patients,
  };
}

export function presentNotFound(name: string): OrganizationNotFound {
  return {
    org: ORGANIZATION_NOT_FOUND,
    name,
    org_name: null,
    org_short_name: null,
    org_logo: null,
    logo_url: null,
    favicon_url: null,
    primary_color: null,
    video_channel_url: null,
    emergency_number: null,
    crisis_lines: [],
    support_email: null,
    support_phone: null,
    user_org_details: [],
    active: false,
  };
}
