import { visitPhase, visitWindow, type Visit } from '@healthbook/shared';
import type { SignedInContext } from '../../context';
import { HttpError } from '../../lib/http-errors';
import { servicePlugin } from '../../lib/service-plugin';
import type { Config } from '../../config';
import { fullName } from '../appointments/appointments.presenter';
import type { AppointmentsService } from '../appointments/appointments.service';
import { iceServers } from './turn-credentials';

/**
 * Video visits of telehealth appointments (issue 29). A visit belongs to its appointment: its two
 * participants are the appointment's provider and its patient side (the patient, or someone of
 * their care network with full access, acting for them); who is which comes from the appointments
 * service's participantOf, the patients policy's door, as for the appointment itself.
 */
export class VisitsService {
  constructor(
    private readonly appointments: AppointmentsService,
    private readonly turn: Config['turn'],
  ) {}

  /**
   * The visit as one participant sees it: its window and phase and, while it is open, the ICE
   * servers of the call (TURN credentials are made only then, valid a few hours). A cancelled
   * appointment has no visit (409).
   */
  async get(ctx: SignedInContext, slotId: number, now: Date = new Date()): Promise<Visit> {
    const participant = await this.appointments.participantOf(ctx, slotId, 'write');
    const { row } = participant;
    if (row.status !== 'booked') throw new HttpError(409, 'errors:visitCancelled');
    const window = visitWindow({ start: row.start_time, end: row.end_time });
    const phase = visitPhase(window, now);
    const ice = phase === 'open' ? iceServers(this.turn, now) : { iceServers: [], expiresAt: null };
    return {
      appointment_id: row.id,
      availability_det_id: row.slot_id,
      role: participant.side,
      acting_for_patient: participant.side === 'patient' && !participant.grant.isOwner,
      phase,
      start_time: new Date(row.start_time).toISOString(),
      end_time: new Date(row.end_time).toISOString(),
      opens_at: window.opensAt.toISOString(),
      closes_at: window.closesAt.toISOString(),
      patient_name: fullName(row.patient_first_name, row.patient_last_name),
      provider_name: fullName(row.provider_first_name, row.provider_last_name),
      ice_servers: ice.iceServers,
      ice_expires_at: ice.expiresAt?.toISOString() ?? null,
    };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    visits: VisitsService;
  }
}

export default servicePlugin<'visits', { turn: Config['turn'] }>('visits', ['appointments-service'], (app, opts) => new VisitsService(app.appointments, opts.turn));
