import { CHAT_PROVIDER_TYPES, type ChatProviderType } from '@healthbook/shared/chat';
import type { UserDto } from '@healthbook/shared/contracts/users';

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
