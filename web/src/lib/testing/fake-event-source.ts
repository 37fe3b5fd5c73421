import type { EventSourceLike } from '../stream/cluster-stream';

/** An EventSource driven by hand: open it, send it named frames, fail it. */
export class FakeEventSource implements EventSourceLike {
  static opened: FakeEventSource[] = [];
  onopen: ((ev: Event) => void) | null = null;
  onerror: ((ev: Event) => void) | null = null;
  closed = false;
  private readonly handlers = new Map<string, ((ev: MessageEvent<string>) => void)[]>();

  constructor(readonly url: string) {
    FakeEventSource.opened.push(this);
  }

  static latest(): FakeEventSource {
    return FakeEventSource.opened[FakeEventSource.opened.length - 1];
  }

  addEventListener(type: string, listener: (ev: MessageEvent<string>) => void): void {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), listener]);
  }

  close(): void {
    this.closed = true;
  }

  open(): void {
    this.onopen?.(new Event('open'));
  }

  fail(): void {
    this.onerror?.(new Event('error'));
  }

  send(name: string, data: unknown): void {
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    for (const handler of this.handlers.get(name) ?? []) handler({ data: text } as MessageEvent<string>);
  }
}
