import type { ObservationMark } from '@artemis-studio/contracts';
import type { ObservationStore } from './observation-ledger';

/** One cluster's mark, as `studio_observations` holds it for every replica. */
export class MarkStore implements ObservationStore {
  mark: ObservationMark | null = null;
  revision = 0;
  failing: Error | null = null;
  /** Every mark written, in order. */
  readonly written: ObservationMark[] = [];
  async read() {
    if (this.failing) throw this.failing;
    return this.mark ? { mark: this.mark, revision: this.revision } : null;
  }
  async write(mark: ObservationMark) {
    if (this.failing) throw this.failing;
    this.mark = mark;
    this.revision++;
    this.written.push(mark);
  }
  async replace(mark: ObservationMark, revision: number) {
    if (this.failing) throw this.failing;
    if (revision !== this.revision) return false;
    await this.write(mark);
    return true;
  }
}
