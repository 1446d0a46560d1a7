import type { Actor } from '../../context';

/** A provider: a user with the provider role (telehealth). */
export const isProvider = (actor: Pick<Actor, 'roles'>): boolean => actor.roles.includes('provider');

/**
 * Who may cancel a booked appointment:
 * - the patient side (`is_cancel_from_provider: false`): whoever may write the patient's record
 *   (the patients policy decides that; the service asks it);
 * - the provider side (`is_cancel_from_provider: true`): the appointment's own provider only.
 */
export const canCancelAsProvider = (actor: Pick<Actor, 'userId' | 'roles'>, appointment: { provider_id: number }): boolean =>
  isProvider(actor) && appointment.provider_id === actor.userId;
