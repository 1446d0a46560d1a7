/**
 * A WebSocket a unit test drives (the chat's and the video visit's socket clients): it records what
 * the client sends and plays the server. `accept` opens it with the protocol's welcome; `drop`
 * closes it from the server's side with a code.
 */
export class FakeSocket {
  static instances: FakeSocket[] = [];
  /** The newest socket the client opened (of this class: a subclass keeps its own list once reset). */
  static last<T extends typeof FakeSocket>(this: T): InstanceType<T> {
    return this.instances[this.instances.length - 1] as InstanceType<T>;
  }
  readyState = 0;
  sent: Array<Record<string, unknown>> = [];
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  closedWith: number | null = null;
  constructor(readonly url: string) {
    (this.constructor as typeof FakeSocket).instances.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close(code = 1000) {
    this.readyState = 3;
    this.closedWith = code;
  }
  /** The server accepts the socket and says `welcome`. */
  accept(welcome: unknown) {
    this.readyState = 1;
    this.emit(welcome);
  }
  emit(event: unknown) {
    this.onmessage?.({ data: JSON.stringify(event) });
  }
  /** The server (or the network) closes the socket. */
  drop(code: number) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}
