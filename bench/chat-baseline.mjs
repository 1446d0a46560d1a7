// The chat bench's bare baseline, run as its own process (forked with IPC by scripts/bench.mjs):
//   node bench/chat-baseline.mjs            a plain `ws` relay on 127.0.0.1 (port from PORT, default any free port)
//   REDIS_URL=redis://… node bench/chat-baseline.mjs
//                                           the same, with every event going through one Redis channel, so that
//                                           two of these processes relay between each other (as the real server's
//                                           RedisBus does: even an event for a socket of this process goes through Redis)
//
// It speaks the chat socket's frames (packages/shared/src/chat-protocol.ts) with none of the server's
// work (no ticket, no session, no validation beyond JSON, no database, no file sniffing):
//   ws://127.0.0.1:<port>/socket?pair=<n>&side=patient|coach    the two sides of pair n ("conversation" n + 1)
//   {action:'sendMessage', Msg, conversationId, clientMessageId}     -> {type:'ack', …} to the sender, {type:'message', …} to the other side
//   {action:'sendMessage', chunkId, fileName, chunkSize, isEOF, Msg, contentType, conversationId, clientMessageId}
//                                                                    -> each slice decoded and kept, {type:'ack', chunkId} after it; after the
//                                                                       last one the file is kept in memory and announced as a message of kind file
//   GET /files/<id>                                                  -> that file's bytes
// The events are built field for field like the server's (MessageEventSchema, AckEventSchema), so the
// frames on the wire are the same size. Reports { ready, port } to the parent.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { WebSocketServer } from 'ws';

const FRAME_MAX_BYTES = 64 * 1024; // CHAT_FRAME_MAX_BYTES
const CHANNEL = 'healthbook-bench-chat';
const processTag = randomBytes(4).toString('hex');

/** Sockets here by `${pair}:${side}`. */
const sockets = new Map();
/** Files received here, by message id. */
const files = new Map();
let lastId = 0;
const nextId = () => ++lastId;

const other = (side) => (side === 'patient' ? 'coach' : 'patient');
const senderName = (pair, side) => (side === 'patient' ? `Patient ${pair}` : `Coach ${pair}`);

/** Delivers an event to the sockets of one side of a pair held by this process. */
function deliverHere(pair, side, text) {
  const set = sockets.get(`${pair}:${side}`);
  if (!set) return;
  for (const ws of set) if (ws.readyState === ws.OPEN) ws.send(text);
}

/** Sends an event to the other side; resolves once it is on its way (as the server's bus publish does). */
let deliver = async (pair, side, event) => deliverHere(pair, side, JSON.stringify(event));

if (process.env.REDIS_URL) {
  const { Redis } = await import('ioredis');
  const pub = new Redis(process.env.REDIS_URL, { maxRetriesPerRequest: 1 });
  const sub = pub.duplicate();
  sub.on('message', (_channel, message) => {
    // "<pair>:<side>\n<event JSON>", as the server's bus sends "<topic>\n<key>".
    const at = message.indexOf('\n');
    const [pair, side] = message.slice(0, at).split(':');
    deliverHere(Number(pair), side, message.slice(at + 1));
  });
  await sub.subscribe(CHANNEL);
  deliver = async (pair, side, event) => {
    await pub.publish(CHANNEL, `${pair}:${side}\n${JSON.stringify(event)}`);
  };
}

function messageEvent(id, pair, side, body, extra) {
  return {
    type: 'message',
    id,
    conversationId: pair + 1,
    Message: body,
    SenderName: senderName(pair, side),
    ProviderType: side === 'coach' ? 'coach' : null,
    contentType: extra.contentType ?? 'text/plain',
    me: false,
    sentAt: new Date().toISOString(),
    kind: extra.kind ?? 'text',
    file: extra.file ?? null,
    clientMessageId: extra.clientMessageId ?? null,
  };
}

function ack(ws, conversationId, chunkId, id, clientMessageId) {
  ws.send(JSON.stringify({ type: 'ack', received: 'ok', conversationId, chunkId, id, clientMessageId: clientMessageId ?? null }));
}

const server = http.createServer((req, res) => {
  const match = /^\/files\/(\d+)$/.exec(req.url ?? '');
  const file = match ? files.get(Number(match[1])) : undefined;
  if (!file) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not found."}');
    return;
  }
  res.writeHead(200, { 'content-type': file.contentType, 'content-length': file.data.length }).end(file.data);
});

const wss = new WebSocketServer({ server, path: '/socket', maxPayload: FRAME_MAX_BYTES });
wss.on('connection', (ws, req) => {
  const query = new URL(req.url ?? '/', 'http://x').searchParams;
  const pair = Number(query.get('pair'));
  const side = query.get('side');
  if (!Number.isInteger(pair) || pair < 0 || (side !== 'patient' && side !== 'coach')) {
    ws.close(4403, 'pair and side');
    return;
  }
  const key = `${pair}:${side}`;
  let set = sockets.get(key);
  if (!set) sockets.set(key, (set = new Set()));
  set.add(ws);
  /** The file arriving in slices on this socket. */
  let transfer = null;
  /** Frames are handled one at a time, in arrival order, as the server's socket does. */
  let chain = Promise.resolve();
  ws.on('close', () => set.delete(ws));
  ws.on('message', (data, isBinary) => {
    chain = chain.then(() => handle(data, isBinary)).catch(() => ws.close(1011, 'relay error'));
  });
  // Like the server: relayed (published) first, then acknowledged.
  async function handle(data, isBinary) {
    let frame;
    try {
      frame = JSON.parse(isBinary ? '\u0000' : data.toString());
    } catch {
      ws.send(JSON.stringify({ type: 'error', code: 'invalidJson', Message: 'invalid JSON', clientMessageId: null, chunkId: null }));
      return;
    }
    const conversationId = pair + 1;
    if (frame.chunkId !== undefined) {
      transfer ??= { parts: [], bytes: 0, fileName: frame.fileName, contentType: frame.contentType ?? 'application/octet-stream', clientMessageId: frame.clientMessageId };
      const part = Buffer.from(frame.Msg, 'base64');
      transfer.parts.push(part);
      transfer.bytes += part.length;
      if (!frame.isEOF) return ack(ws, conversationId, frame.chunkId, null, transfer.clientMessageId);
      const { parts, bytes, fileName, contentType, clientMessageId } = transfer;
      transfer = null;
      const id = nextId();
      files.set(id, { data: Buffer.concat(parts, bytes), contentType });
      await deliver(pair, other(side), messageEvent(id, pair, side, fileName, { kind: 'file', contentType, clientMessageId, file: { id, name: fileName, size: bytes, content_type: contentType } }));
      return ack(ws, conversationId, frame.chunkId, id, clientMessageId);
    }
    const id = nextId();
    await deliver(pair, other(side), messageEvent(id, pair, side, String(frame.Msg).trim(), { clientMessageId: frame.clientMessageId }));
    ack(ws, conversationId, null, id, frame.clientMessageId);
  }
});

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  for (const client of wss.clients) client.terminate();
  server.close();
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// The parent went away (crashed or was killed): do not linger.
process.on('disconnect', stop);

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  if (process.send) process.send({ ready: true, port, tag: processTag });
  else console.log(`chat baseline${process.env.REDIS_URL ? ' (Redis)' : ''} listening on ws://127.0.0.1:${port}/socket`);
});
