import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ChatConversationSchema,
  ChatConversationsQuerySchema,
  ChatDetailsSchema,
  ChatIdParamsSchema,
  ChatQueueSchema,
  CHAT_SOCKET_PATH,
  ChatTicketSchema,
  ChatTranscriptSchema,
  CurrentChatSchema,
  DetailErrorSchema,
  DocumentSchema,
  EndChatBodySchema,
  FieldErrorsSchema,
  JoinQueueBodySchema,
  PatientQuerySchema,
  ProviderTypeReasonsSchema,
  TakeChatBodySchema,
} from '@healthbook/shared';
import { sendStoredFile } from '../../lib/file-reply';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 403: DetailErrorSchema, 404: DetailErrorSchema, 409: DetailErrorSchema };
const tags = ['chat'];
const security = [{ bearerAuth: [] }];
/** Live chat is the live-help feature's: off for an organisation, every call answers 403. */
const config = { feature: 'live-help' };
/**
 * The calls a video visit's chat shares with live help (the socket's ticket, a conversation and
 * its files by id): either feature lets the call in, and the service asks the conversation's own
 * (teleconsultation for a visit's chat, live help for the rest).
 */
const shared = { feature: ['live-help', 'teleconsultation'] };

/**
 * The live chat's REST side (§7 "Peer coaching" and our own /api/v1/chat/): reasons, joining the
 * queue, ending, the socket's ticket, the console's queue, taking a patient, the history and
 * its files. The messages themselves go through the socket (chat.socket.ts).
 */
export const chatRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/peercoaching/providertypereasons/',
    { config, schema: { tags, security, summary: 'What a patient may chat about, per provider type (peer coach, provider)', response: { 200: z.array(ProviderTypeReasonsSchema), ...errors } } },
    async (request) => app.chat.reasons(request.lang),
  );
  app.post(
    '/api/v1/peercoaching/sendmessagetoqueue/',
    {
      config,
      schema: {
        tags,
        security,
        summary: "Join the organisation's queue for a provider type",
        description:
          'Answers the chat connection details (201), or those of the chat already open for this patient (200): one open chat per patient. Read-only care-network access cannot chat (403). Then open the socket with a ticket.',
        body: JoinQueueBodySchema,
        response: { 200: ChatDetailsSchema, 201: ChatDetailsSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { details, created } = await app.chat.join(request.signedIn(), request.body);
      return reply.code(created ? 201 : 200).send(details);
    },
  );
  app.post(
    '/api/v1/peercoaching/endchat/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'End a chat (either side)',
        description: 'A patient ends their open chat (queued or active); a provider or peer coach ends one of theirs by conversation_id. The other side gets "<name> exited the chat session at <time>".',
        body: EndChatBodySchema,
        response: { 200: ChatConversationSchema, ...errors },
      },
    },
    async (request) => app.chat.end(request.signedIn(), request.body),
  );
  app.get(
    '/api/v1/chat/current/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Your open chat (queued or active), if any',
        description:
          'The chat you joined on a patient’s side and is not over, for yourself or a record you act for: the client finds it here after a reload or signing in again, and reconnects. With `patient` (or the record in view) only that record’s. `{ "chat": null }` when none.',
        querystring: PatientQuerySchema,
        response: { 200: CurrentChatSchema, ...errors },
      },
    },
    async (request) => ({ chat: await app.chat.current(request.signedIn(), request.query.patient) }),
  );
  app.post(
    '/api/v1/chat/ticket/',
    {
      config: shared,
      schema: {
        tags,
        security,
        summary: 'A ticket for the chat socket',
        description:
          'Single use, valid 30 seconds: open wss://<host>/api/v1/chat/socket/?ticket=…&userId=…&isPatient=…&… with it. No long-lived token ever goes into the socket address. A video visit’s chat: …&isPatient=…&conversationId=<the visit’s chat_conversation_id> (its two participants only, while the visit runs).',
        response: { 200: ChatTicketSchema, ...errors },
      },
    },
    async (request) => app.socketTickets.issue(request.signedIn(), CHAT_SOCKET_PATH),
  );
  app.get(
    '/api/v1/chat/queue/',
    { config, schema: { tags, security, summary: 'The waiting patients of the queues you serve (providers and peer coaches)', response: { 200: ChatQueueSchema, ...errors } } },
    async (request) => app.chat.queue(request.signedIn()),
  );
  app.post(
    '/api/v1/chat/queue/take/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Take a waiting patient: the chosen one, or the next',
        description: '404 when nobody is waiting; 409 when the chosen patient was taken by someone else (or left). The patient is greeted and their Chat dialog opens.',
        body: TakeChatBodySchema,
        response: { 200: ChatConversationSchema, ...errors },
      },
    },
    async (request) => app.chat.take(request.signedIn(), request.body),
  );
  app.get(
    '/api/v1/chat/conversations/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Past and open chats, newest first',
        description: "A patient: their chats (`patient`: one they act for). A provider or peer coach: the chats they held (`patient`: with that patient only).",
        querystring: ChatConversationsQuerySchema,
        response: { 200: z.array(ChatConversationSchema), ...errors },
      },
    },
    async (request) => app.chat.conversations(request.signedIn(), request.query.patient),
  );
  app.get(
    '/api/v1/chat/conversations/:id/',
    {
      config: shared,
      schema: {
        tags,
        security,
        summary: 'One chat and its messages (its participants only)',
        description:
          "A video visit's chat (the visit's chat_conversation_id), during and after the visit: its appointment's provider and patient side (the patient, or a full-access carer; read-only 403, anyone else 404).",
        params: ChatIdParamsSchema,
        response: { 200: ChatTranscriptSchema, ...errors },
      },
    },
    async (request) => app.chat.transcript(request.signedIn(), request.params.id),
  );
  app.get(
    '/api/v1/chat/files/:id/',
    { config: shared, schema: { tags, security, summary: "A chat file (the conversation's participants only)", params: ChatIdParamsSchema, response: { 200: z.any().describe('the file'), ...errors } } },
    async (request, reply) => {
      const file = await app.chat.file(request.signedIn(), request.params.id);
      return sendStoredFile(reply, { data: file.data, fileName: file.name, contentType: file.contentType });
    },
  );
  app.post(
    '/api/v1/chat/files/:id/save/',
    {
      config: shared,
      schema: {
        tags,
        security,
        summary: "Save a chat file to the patient's Document Center",
        description: "The patient's side only; the Document Center must be on for the organisation (403 otherwise).",
        params: ChatIdParamsSchema,
        body: z.object({ folder_id: z.number().int().positive().optional() }).default({}),
        response: { 201: DocumentSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await app.chat.saveFile(request.signedIn(), request.params.id, request.body.folder_id)),
  );
};
