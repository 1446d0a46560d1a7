import { randomUUID } from 'node:crypto';
import type { Db } from '../client';
import { greyscalePng, type Drawing } from './demo-files';

/** The front of a card, drawn plainly: the card, the insurer's band, a photo box and lines of text as bars. */
export const INSURANCE_CARD_FRONT: Drawing = {
  width: 240,
  height: 152,
  background: 235,
  shapes: [
    { kind: 'rect', x: 0, y: 0, width: 240, height: 36, grey: 70 },
    { kind: 'rect', x: 14, y: 12, width: 90, height: 12, grey: 230 },
    { kind: 'rect', x: 14, y: 52, width: 54, height: 66, grey: 175 },
    { kind: 'ellipse', cx: 41, cy: 76, rx: 13, ry: 14, grey: 120 },
    { kind: 'ellipse', cx: 41, cy: 112, rx: 22, ry: 14, grey: 120 },
    { kind: 'rect', x: 82, y: 56, width: 120, height: 8, grey: 90 },
    { kind: 'rect', x: 82, y: 74, width: 96, height: 8, grey: 120 },
    { kind: 'rect', x: 82, y: 92, width: 140, height: 8, grey: 120 },
    { kind: 'rect', x: 82, y: 110, width: 70, height: 8, grey: 120 },
    { kind: 'rect', x: 0, y: 134, width: 240, height: 18, grey: 190 },
  ],
};

/** The northwind demo patient's one insurance card, with a drawn front (a PNG: photos are JPEG, PNG or WebP). */
export async function seedDemoInsurance(
  db: Db,
  put: (key: string, data: Buffer) => Promise<void>,
  scope: { orgId: number; patientId: number; userId: number },
  today: string,
): Promise<void> {
  const year = Number(today.slice(0, 4));
  const key = `insurance/${scope.orgId}/${scope.patientId}/${randomUUID()}.png`;
  await put(key, greyscalePng(INSURANCE_CARD_FRONT));
  await db
    .insertInto('insurance_cards')
    .values({
      org_id: scope.orgId,
      patient_id: scope.patientId,
      created_by: scope.userId,
      insurer: 'Northwind Health Mutual',
      plan: 'Family Gold PPO',
      member_number: 'NHM-4482-1907',
      group_number: 'GRP-20931',
      holder_name: 'John Carter',
      holder_relationship: 'self',
      valid_from: `${year}-01-01`,
      valid_to: `${year}-12-31`,
      front_key: key,
      front_content_type: 'image/png',
      notes: 'Pre-authorisation needed for imaging: call 0800 555 0142.',
    })
    .execute();
}
