import { CHAT_PROVIDER_TYPES, type ChatProviderType } from '@healthbook/shared/chat';
import type { UserDto } from '@healthbook/shared/contracts/users';
import { paths } from './paths';

/**
 * What a user's stored roles let them do in the hub (§6 "Roles and permissions"). The server
 * decides for itself; these only choose what the menu shows and where the guards let one in.
 */
type WithRoles = Pick<UserDto, 'roles' | 'is_superadmin'>;

/** Organisation admins and super admins. */
export const isAdministrator = (user: WithRoles): boolean => user.is_superadmin || user.roles.includes('org_admin');

/** A telehealth provider (availability, appointments, a public profile). */
export const isProvider = (user: Pick<UserDto, 'roles'>): boolean => user.roles.includes('provider');

/**
 * The queues a staff member takes live chats from: a peer coach the coaches' queue, a provider
 * the providers' (the provider types of the chat are the staff roles' names).
 */
export const chatQueuesOf = (user: Pick<UserDto, 'roles'>): ChatProviderType[] => CHAT_PROVIDER_TYPES.filter((type) => user.roles.includes(type));

/** Staff who take live chats: providers and peer coaches. */
export const isChatStaff = (user: Pick<UserDto, 'roles'>): boolean => chatQueuesOf(user).length > 0;

/** Staff: providers, peer coaches and administrators (they work in a console, not on a record of their own). */
export const isStaff = (user: WithRoles): boolean => isAdministrator(user) || isProvider(user) || isChatStaff(user);

/**
 * A staff member's console, where they land after signing in and what their menu opens with:
 * a provider's appointments, a coach's chat console, an administrator's people. null for a
 * patient (the dashboard).
 */
export function consolePath(user: WithRoles, clientId: string): string | null {
  if (isProvider(user)) return paths.providerAppointments(clientId);
  if (isChatStaff(user)) return paths.providerChat(clientId);
  if (isAdministrator(user)) return paths.adminHome(clientId);
  return null;
}
