/**
 * Who may open one more stream: at most `total` on this replica and `perAddress` from one client
 * address, so one client (or a runaway script) cannot take every stream a replica can hold.
 * A refusal says when to try again; the count is given back when the stream ends.
 */
export class StreamAdmission {
  private open = 0;
  private readonly byAddress = new Map<string, number>();

  constructor(private readonly limits: { total: number; perAddress: number }) {}

  /** 'ok' and counted, or the limit that refused it. */
  admit(address: string): 'ok' | 'total' | 'address' {
    if (this.open >= this.limits.total) return 'total';
    const mine = this.byAddress.get(address) ?? 0;
    if (mine >= this.limits.perAddress) return 'address';
    this.open++;
    this.byAddress.set(address, mine + 1);
    return 'ok';
  }

  release(address: string): void {
    const mine = this.byAddress.get(address) ?? 0;
    if (mine === 0) return;
    this.open--;
    if (mine === 1) this.byAddress.delete(address);
    else this.byAddress.set(address, mine - 1);
  }
}
