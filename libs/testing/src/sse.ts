interface SseFrame {
  event: string;
  id?: string;
  data: string;
}

export interface SseConnection {
  status: number;
  headers: Headers;
  frames: SseFrame[];
  /** Whether the server ended the stream. */
  ended(): boolean;
  close(): void;
}

/** Opens an SSE stream with fetch and parses its frames as they arrive. */
export async function openStream(url: string, headers: Record<string, string> = {}): Promise<SseConnection> {
  const abort = new AbortController();
  const response = await fetch(url, {
    headers: { Accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const frames: SseFrame[] = [];
  let done = false;
  if (response.ok && response.body) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let pending = '';
    void (async () => {
      try {
        for (;;) {
          const { value, done: finished } = await reader.read();
          if (finished) break;
          pending += decoder.decode(value, { stream: true });
          let cut;
          while ((cut = pending.indexOf('\n\n')) >= 0) {
            const block = pending.slice(0, cut);
            pending = pending.slice(cut + 2);
            const frame: SseFrame = { event: 'message', data: '' };
            for (const line of block.split('\n')) {
              const [field, ...rest] = line.split(':');
              const value = rest.join(':').replace(/^ /, '');
              if (field === 'event') frame.event = value;
              else if (field === 'id') frame.id = value;
              else if (field === 'data') frame.data += value;
            }
            if (block.startsWith('retry:') || block.startsWith(':')) continue;
            frames.push(frame);
          }
        }
      } catch {
        // aborted
      } finally {
        done = true;
      }
    })();
  } else {
    done = true;
  }
  return {
    status: response.status,
    headers: response.headers,
    frames,
    ended: () => done,
    close: () => abort.abort(),
  };
}
