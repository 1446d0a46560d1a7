// The bare baseline of the chat's and the video visits' benches, run as its own process (forked with IPC by scripts/bench.mjs):
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
//   ws://127.0.0.1:<port>/visit?pair=<n>&side=patient|provider     the two sides of video visit n (bench/visits.mjs), as the
//                                                                    visit's socket (packages/shared/src/visit-protocol.ts):
//   {type:'signal', data}                                            -> {type:'signal', from, data} to the other side, not acknowledged
//   {type:'ping'}                                                    -> {type:'pong'}
// The events are built field for field like the server's (MessageEventSchema, AckEventSchema), so the
// frames on the wire are the same size. Reports { ready, port } to the parent.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { WebSocketServer } from 'ws';

const FRAME_MAX_BYTES = 64 * 1024; // CHAT_FRAME_MAX_BYTES
const CHANNEL = 'healthbook-bench-chat';
const processTag = randomBytes(4).toString('hex');

/** Sockets here by `${pair}:${side}` (a chat's) or `visit${pair}:${side}` (a visit's). */
const sockets = new Map();
/** Files received here, by message id. */
const files = new Map();
let lastId = 0;
const nextId = () => ++lastId;

const other = (side) => (side === 'patient' ? 'coach' : 'patient');
const otherInVisit = (side) => (side === 'patient' ? 'provider' : 'patient');
const senderName = (pair, side) => (side === 'patient' ? `Patient ${pair}` : `Coach ${pair}`);

/** Delivers an event to the sockets of one side (`${pair}:${side}`) held by this process. */
function deliverHere(key, text) {
  const set = sockets.get(key);
  if (!set) return;
  for (const ws of set) if (ws.readyState === ws.OPEN) ws.send(text);
}

/** Sends an event to the other side; resolves once it is on its way (as the server's bus publish does). */
let deliver = async (key, event) => deliverHere(key, JSON.stringify(event));

if (process.env.REDIS_URL) {
  const { Redis } = await import('ioredis');
  const pub = new Redis(process.env.REDIS_URL, { maxRetriesPerRequest: 1 });
  const sub = pub.duplicate();
  sub.on('message', (_channel, message) => {
    // "<pair>:<side>\n<event JSON>", as the server's bus sends "<topic>\n<key>".
    const at = message.indexOf('\n');
    deliverHere(message.slice(0, at), message.slice(at + 1));
  });
  await sub.subscribe(CHANNEL);
  deliver = async (key, event) => {
    await pub.publish(CHANNEL, `${key}\n${JSON.stringify(event)}`);
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

/** The pair and side a socket's address names (one of `sides`), or null after closing it. */
function pairAndSide(ws, req, sides) {
  const query = new URL(req.url ?? '/', 'http://x').searchParams;
  const pair = Number(query.get('pair'));
  const side = query.get('side');
  if (Number.isInteger(pair) && pair >= 0 && sides.includes(side)) return { pair, side };
  ws.close(4403, 'pair and side');
  return null;
}

/** Keeps a socket under its key while it is open. */
function hold(ws, key) {
  let set = sockets.get(key);
  if (!set) sockets.set(key, (set = new Set()));
  set.add(ws);
  ws.on('close', () => set.delete(ws));
}

// One server for the chat's path and one for the visit's, the upgrade handed to the one its path names.
const wss = new WebSocketServer({ noServer: true, maxPayload: FRAME_MAX_BYTES });
const visitWss = new WebSocketServer({ noServer: true, maxPayload: FRAME_MAX_BYTES });
server.on('upgrade', (req, socket, head) => {
  const target = { '/socket': wss, '/visit': visitWss }[new URL(req.url ?? '/', 'http://x').pathname];
  if (!target) return void socket.destroy();
  target.handleUpgrade(req, socket, head, (ws) => target.emit('connection', ws, req));
});

visitWss.on('connection', (ws, req) => {
  const named = pairAndSide(ws, req, ['patient', 'provider']);
  if (!named) return;
  const { pair, side } = named;
  hold(ws, `visit${pair}:${side}`);
  let chain = Promise.resolve();
  ws.on('message', (data) => {
    chain = chain.then(() => handle(data.toString())).catch(() => ws.close(1011, 'relay error'));
  });
  // Like the server: parsed, then published for the other side (never back to the sender).
  async function handle(text) {
    let frame;
    try {
      frame = JSON.parse(text);
    } catch {
      ws.send(JSON.stringify({ type: 'error', code: 'invalidFrame', Message: 'invalid JSON' }));
      return;
    }
    if (frame.type === 'ping') return void ws.send('{"type":"pong"}');
    await deliver(`visit${pair}:${otherInVisit(side)}`, { type: 'signal', from: side, data: frame.data });
  }
});

wss.on('connection', (ws, req) => {
  const named = pairAndSide(ws, req, ['patient', 'coach']);
  if (!named) return;
  const { pair, side } = named;
  hold(ws, `${pair}:${side}`);
  /** The file arriving in slices on this socket. */
  let transfer = null;
  /** Frames are handled one at a time, in arrival order, as the server's socket does. */
  let chain = Promise.resolve();
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
      await deliver(`${pair}:${other(side)}`, messageEvent(id, pair, side, fileName, { kind: 'file', contentType, clientMessageId, file: { id, name: fileName, size: bytes, content_type: contentType } }));
      return ack(ws, conversationId, frame.chunkId, id, clientMessageId);
    }
    const id = nextId();
    await deliver(`${pair}:${other(side)}`, messageEvent(id, pair, side, String(frame.Msg).trim(), { clientMessageId: frame.clientMessageId }));
    ack(ws, conversationId, null, id, frame.clientMessageId);
  }
});

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  for (const client of [...wss.clients, ...visitWss.clients]) client.terminate();
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
