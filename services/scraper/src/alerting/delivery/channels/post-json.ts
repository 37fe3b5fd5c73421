const SEND_TIMEOUT_MS = 5_000;

/** POSTs JSON (or a body already encoded) and throws, with the start of the answer, unless 2xx. */
export async function postJson(
  post: typeof fetch,
  url: string,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<void> {
  const response = await post(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  }).catch((err: Error & { cause?: { code?: string; message?: string } }) => {
    // fetch says only "fetch failed": the reason (ECONNREFUSED, a TLS error) is in its cause.
    const cause = err.cause?.code ?? err.cause?.message;
    throw new Error(cause ? `${err.message} (${cause})` : err.message);
  });
  if (!response.ok) {
    const text = (await response.text().catch(() => '')).slice(0, 200);
    throw new Error(`HTTP ${response.status}${text ? `: ${text}` : ''}`);
  }
}
